// CheckpointMeta: the `checkpoint.meta` file of a V3 checkpoint (spec §2),
// one protobuf `Checkpoint` message framed by writeDelimitedTo, decoded and
// encoded without a protobuf library.
//
// Contract: the decoder accepts fields in any order, skips unknown ones and
// keeps the last of a repeated scalar, as protobuf-java does, and reports
// everything protobuf-java would refuse (truncation, a wrong wire type, a
// missing required field) plus what Flume refuses after parsing (version
// other than 3) and bytes after the message (which Flume never reads) as
// findings with offsets relative to the start of the file. The encoder
// writes fields in field-number order, byte for byte what Flume writes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "byte_span.h"
#include "finding.h"
#include "flume/checkpoint_file.h"

namespace qjt::flume {

inline constexpr std::int32_t kCheckpointMetaVersion = 3;

struct CheckpointMeta {
  std::int32_t version = kCheckpointMetaVersion;
  std::int64_t write_order_id = 0;
  std::int32_t queue_size = 0;
  std::int32_t queue_head = 0;
  std::vector<ActiveLogCount> active_logs;  // Flume writes only counts != 0
  friend bool operator==(const CheckpointMeta&, const CheckpointMeta&) = default;
};

struct CheckpointMetaDecode {
  CheckpointMeta meta;
  // protobuf-java would parse it: framing sound, every required field
  // present with its wire type. Fields decoded before a problem are kept.
  bool valid = false;
  // Offsets in the file of the fields' tags, for findings about values.
  std::optional<std::uint64_t> version_offset;
  std::optional<std::uint64_t> write_order_id_offset;
  std::optional<std::uint64_t> queue_size_offset;
  std::optional<std::uint64_t> queue_head_offset;
};

// Findings: meta_empty, meta_malformed, meta_missing_field, meta_version,
// and the warning meta_trailing_bytes (Flume ignores what follows).
CheckpointMetaDecode decode_checkpoint_meta(ByteSpan bytes, std::string_view file, Reporter* reporter);

// The file's bytes: varint length, then the message.
std::string encode_checkpoint_meta(const CheckpointMeta& meta);

// The queue's head and size as a V3 checkpoint takes them from the meta.
RingPosition meta_ring_position(const CheckpointMetaDecode& decoded, std::string_view file);

// Flume refuses a V3 checkpoint whose meta writeOrderID differs from the
// checkpoint's long[1]: reports checkpoint_meta_write_order_id against the
// meta file.
void check_meta_matches_checkpoint(const CheckpointMetaDecode& decoded, std::string_view meta_file,
                                   const CheckpointFile& checkpoint, Reporter* reporter);

}  // namespace qjt::flume
