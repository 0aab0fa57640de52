// Encoding of libkestrel records, byte for byte as libkestrel's
// RecordWriter and BookmarkFile write them (spec §5.2, §5.3, §5.5): the
// inverse of Reader for PUT, READ_HEAD and READ_DONE.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "byte_span.h"
#include "libkestrel/libkestrel_format.h"

namespace qjt::libkestrel {

// The 4-byte big-endian magic of a segment or a bookmark.
void append_magic(std::string* out, FileKind kind);

struct PutFields {
  std::int64_t id = 0;
  std::int32_t error_count = 0;
  std::int64_t add_time_ms = 0;
  std::optional<std::int64_t> expiry_ms;  // none: the 6-word form (0x86)
};
// A PUT record; the caller keeps `data` within kLargestData.
void append_put(std::string* out, const PutFields& put, ByteSpan data);

// A whole bookmark file: magic, READ_HEAD(head), READ_DONE(done), `done`
// sorted ascending, as libkestrel checkpoints a reader.
std::string bookmark_bytes(std::int64_t head, const std::vector<std::int64_t>& done);

}  // namespace qjt::libkestrel
