#include "libkestrel/libkestrel_format.h"

#include <fstream>
#include <string>

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

std::string_view op_name(Op op) {
  switch (op) {
    case Op::kPut:
      return "PUT";
    case Op::kReadHead:
      return "READ_HEAD";
    case Op::kReadDone:
      return "READ_DONE";
    case Op::kUnknown:
      return "UNKNOWN";
    case Op::kEndOfFile:
      return "END_OF_FILE";
    case Op::kBroken:
      return "BROKEN";
  }
  return "BROKEN";
}

}  // namespace qjt::libkestrel
