// The snappy-java SnappyOutputStream framing Flume uses for a compressed
// backup checkpoint, `checkpoint.snappy` (spec §4): the magic
// 82 53 4E 41 50 50 59 00, an int32 BE version and an int32 BE minimum
// compatible version (both 1), then blocks of [int32 BE compressed length]
// [raw Snappy block].
//
// Contract: every size in the stream is untrusted. A block's length is
// checked against the bytes left, and its uncompressed length against what
// is left of the caller's max_output, before anything is allocated, so a
// damaged stream costs at most max_output bytes. Problems are findings with
// the absolute offset of the header or block that is wrong; decoding stops
// at the first bad block and returns what came before it. Like
// SnappyInputStream, a second header where a block length is expected
// starts a concatenated stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "byte_span.h"
#include "finding.h"

namespace qjt::flume {

inline constexpr std::size_t kSnappyStreamHeaderSize = 16;
inline constexpr std::size_t kSnappyJavaBlockSize = 32 * 1024;  // SnappyOutputStream's default

struct SnappyStreamDecode {
  std::string data;       // the decompressed bytes of every good block
  bool complete = false;  // the whole stream decoded without a finding
};

// Findings: snappy_header, snappy_truncated (a block length or block cut
// short), snappy_block (a negative, empty or undecodable block),
// snappy_output_limit (more than max_output bytes).
SnappyStreamDecode decompress_snappy_stream(ByteSpan stream, std::size_t max_output, std::string_view file,
                                            Reporter* reporter);

// The stream SnappyOutputStream writes for `data`: the header, then one
// block per `block_size` bytes of input (the last one shorter). block_size
// 0 is taken as the default.
std::string compress_snappy_stream(ByteSpan data, std::size_t block_size = kSnappyJavaBlockSize);

}  // namespace qjt::flume
