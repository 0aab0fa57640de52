#include "libkestrel/libkestrel_writer.h"

namespace qjt::libkestrel {
namespace {

template <typename T>
void append_le(std::string* out, T value) {
  auto bits = static_cast<std::make_unsigned_t<T>>(value);
  for (std::size_t i = 0; i < sizeof(T); ++i) out->push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
}

std::uint8_t command_byte(std::uint8_t command, std::uint8_t words) {
  return static_cast<std::uint8_t>(command << 4 | words);
}

}  // namespace

void append_magic(std::string* out, FileKind kind) {
  const std::uint32_t magic = kind == FileKind::kBookmark ? kBookmarkMagic : kSegmentMagic;
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>((magic >> shift) & 0xff));
}

void append_put(std::string* out, const PutFields& put, ByteSpan data) {
  out->push_back(static_cast<char>(command_byte(kCmdPut, put.expiry_ms ? kPutWordsWithExpiry : kPutWords)));
  append_le(out, static_cast<std::int32_t>(data.size()));
  append_le(out, put.error_count);
  append_le(out, put.id);
  append_le(out, put.add_time_ms);
  if (put.expiry_ms) append_le(out, *put.expiry_ms);
  out->append(data.as_chars());
}

std::string bookmark_bytes(std::int64_t head, const std::vector<std::int64_t>& done) {
  std::string out;
  append_magic(&out, FileKind::kBookmark);
  out.push_back(static_cast<char>(command_byte(kCmdReadHead, 2)));
  append_le(&out, head);
  out.push_back(static_cast<char>(command_byte(kCmdReadDone, 1)));
  append_le(&out, static_cast<std::int32_t>(done.size() * 8));
  for (std::int64_t id : done) append_le(&out, id);
  return out;
}

}  // namespace qjt::libkestrel
