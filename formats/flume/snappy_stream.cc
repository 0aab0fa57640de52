#include "flume/snappy_stream.h"

#include <fmt/format.h>
#include <snappy.h>

#include <algorithm>
#include <cstring>

namespace qjt::flume {

namespace {

constexpr std::uint8_t kMagic[8] = {0x82, 0x53, 0x4E, 0x41, 0x50, 0x50, 0x59, 0x00};
constexpr std::int32_t kMagicHead = static_cast<std::int32_t>(0x82534E41u);  // the magic read as a block length
constexpr std::int32_t kStreamVersion = 1;

struct StreamContext {
  std::string_view file;
  Reporter* reporter;
  std::size_t max_output;

  bool fail(std::string_view code, std::uint64_t offset, std::string message) const {
    if (reporter != nullptr)
      reporter->report(Finding{Severity::kError, std::string(code), std::string(file), offset, std::move(message)});
    return false;
  }
};

std::string hex(ByteSpan bytes) {
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); ++i) out += fmt::format("{}{:02X}", i == 0 ? "" : " ", bytes[i]);
  return out;
}

// The 16-byte header at the reader's position. snappy-java refuses only a
// version below its minimum (1); a later minimum-compatible version means
// a writer newer than this reader, which is worth saying too.
bool read_header(ByteReader& reader, const StreamContext& context) {
  const std::size_t start = reader.position();
  ByteSpan magic;
  std::int32_t version = 0;
  std::int32_t compatible = 0;
  if (!reader.read_span(sizeof kMagic, &magic) || std::memcmp(magic.data(), kMagic, sizeof kMagic) != 0)
    return context.fail("snappy_header", start,
                        fmt::format("expected the snappy-java magic 82 53 4E 41 50 50 59 00, found {}",
                                    magic.empty() ? "fewer than 8 bytes" : hex(magic)));
  if (!reader.read_i32_be(&version) || !reader.read_i32_be(&compatible))
    return context.fail("snappy_header", start + sizeof kMagic,
                        "expected an int32 version and an int32 minimum compatible version, found the end of the file");
  if (version < kStreamVersion || compatible > kStreamVersion)
    return context.fail(
        "snappy_header", start + sizeof kMagic,
        fmt::format("expected version >= 1 and minimum compatible version <= 1, found {} and {}", version, compatible));
  return true;
}

// Decompresses one raw Snappy block onto the end of *out.
bool append_block(ByteSpan block, std::size_t at, const StreamContext& context, std::string* out) {
  const char* compressed = reinterpret_cast<const char*>(block.data());
  std::size_t length = 0;
  if (!snappy::GetUncompressedLength(compressed, block.size(), &length))
    return context.fail("snappy_block", at,
                        "expected a Snappy block starting with its uncompressed length, found none");
  const std::size_t room = context.max_output - out->size();
  if (length > room)
    return context.fail("snappy_output_limit", at,
                        fmt::format("expected at most {} more decompressed bytes, found a block of {}", room, length));
  const std::size_t before = out->size();
  out->resize(before + length);
  if (snappy::RawUncompress(compressed, block.size(), out->data() + before)) return true;
  out->resize(before);
  return context.fail("snappy_block", at,
                      fmt::format("expected a valid Snappy block of {} bytes, found corrupt data", block.size()));
}

// One [length][block] chunk, or a concatenated stream's header.
bool read_chunk(ByteSpan stream, ByteReader& reader, const StreamContext& context, std::string* out) {
  const std::size_t start = reader.position();
  std::int32_t length = 0;
  if (!reader.read_i32_be(&length))
    return context.fail("snappy_truncated", start,
                        fmt::format("expected a 4-byte block length, found {} bytes", reader.remaining()));
  if (length == kMagicHead) {
    reader = ByteReader(stream, start);
    return read_header(reader, context);
  }
  if (length <= 0)
    return context.fail("snappy_block", start, fmt::format("expected a positive block length, found {}", length));
  ByteSpan block;
  if (!reader.read_span(static_cast<std::size_t>(length), &block))
    return context.fail("snappy_truncated", start,
                        fmt::format("expected a block of {} bytes, found {}", length, reader.remaining()));
  return append_block(block, start + 4, context, out);
}

}  // namespace

SnappyStreamDecode decompress_snappy_stream(ByteSpan stream, std::size_t max_output, std::string_view file,
                                            Reporter* reporter) {
  SnappyStreamDecode result;
  const StreamContext context{file, reporter, max_output};
  ByteReader reader(stream);
  if (!read_header(reader, context)) return result;
  while (reader.remaining() > 0)
    if (!read_chunk(stream, reader, context, &result.data)) return result;
  result.complete = true;
  return result;
}

std::string compress_snappy_stream(ByteSpan data, std::size_t block_size) {
  if (block_size == 0) block_size = kSnappyJavaBlockSize;
  std::string out(reinterpret_cast<const char*>(kMagic), sizeof kMagic);
  const auto append_be32 = [&out](std::uint32_t value) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((value >> shift) & 0xFF));
  };
  append_be32(kStreamVersion);
  append_be32(kStreamVersion);
  std::string compressed;
  for (std::size_t at = 0; at < data.size(); at += block_size) {
    const std::size_t length = std::min(block_size, data.size() - at);
    compressed.resize(snappy::MaxCompressedLength(length));
    std::size_t size = 0;
    snappy::RawCompress(reinterpret_cast<const char*>(data.data() + at), length, compressed.data(), &size);
    append_be32(static_cast<std::uint32_t>(size));
    out.append(compressed.data(), size);
  }
  return out;
}

}  // namespace qjt::flume
