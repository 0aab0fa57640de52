#include "libkestrel/libkestrel_format.h"

#include <array>
#include <fstream>
#include <string>
#include <utility>

namespace qjt::libkestrel {

FileKind file_kind(ByteSpan bytes) {
  ByteReader in(bytes);
  std::uint32_t magic = 0;
  if (!in.read_u32_be(&magic)) return FileKind::kClassic;
  if (magic == kSegmentMagic) return FileKind::kSegment;
  if (magic == kBookmarkMagic) return FileKind::kBookmark;
  return FileKind::kClassic;
}

FileKind file_kind_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char head[4] = {};
  if (!in.read(head, sizeof head)) return FileKind::kClassic;
  return file_kind(ByteSpan(std::string_view(head, sizeof head)));
}

namespace {

constexpr std::array<std::pair<Op, std::string_view>, 6> kOpNames = {{
    {Op::kPut, "PUT"},
    {Op::kReadHead, "READ_HEAD"},
    {Op::kReadDone, "READ_DONE"},
    {Op::kUnknown, "UNKNOWN"},
    {Op::kEndOfFile, "END_OF_FILE"},
    {Op::kBroken, "BROKEN"},
}};

}  // namespace

std::string_view op_name(Op op) {
  for (const auto& [value, text] : kOpNames)
    if (value == op) return text;
  return "BROKEN";
}

}  // namespace qjt::libkestrel
