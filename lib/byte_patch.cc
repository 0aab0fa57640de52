#include "byte_patch.h"

#include <fmt/format.h>

#include "durable_file.h"
#include "input_file.h"

namespace qjt {
namespace {

bool fits(ByteSpan original, std::size_t done, const BytePatch& patch) {
  return patch.offset >= done && patch.offset <= original.size() &&
         patch.after.size() <= original.size() - patch.offset;
}

std::string hex_of(ByteSpan bytes) {
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); ++i) out += fmt::format("{:02X}", bytes[i]);
  return out;
}

// Why `bytes` may not be patched, or "" when they may.
std::string mismatch(ByteSpan bytes, std::uint64_t expected_size, const std::vector<BytePatch>& patches) {
  if (bytes.size() != expected_size)
    return fmt::format("expected {} bytes as planned, found {}", expected_size, bytes.size());
  std::size_t done = 0;
  for (const BytePatch& p : patches) {
    if (!fits(bytes, done, p) || p.before.size() != p.after.size())
      return fmt::format("expected a patch of {} byte(s) inside the file at offset {}", p.after.size(), p.offset);
    const ByteSpan found = bytes.subspan(static_cast<std::size_t>(p.offset), p.before.size());
    if (found.as_chars() != p.before)
      return fmt::format("expected bytes {} at offset {} as planned, found {}", hex_of(ByteSpan(p.before)), p.offset,
                         hex_of(found));
    done = static_cast<std::size_t>(p.offset) + p.after.size();
  }
  return "";
}

}  // namespace

bool for_each_patched_piece(ByteSpan original, const std::vector<BytePatch>& patches,
                            const std::function<bool(ByteSpan)>& emit) {
  std::size_t done = 0;
  for (const BytePatch& p : patches) {
    if (!fits(original, done, p)) continue;
    const auto at = static_cast<std::size_t>(p.offset);
    if (!emit(original.subspan(done, at - done)) || !emit(ByteSpan(p.after))) return false;
    done = at + p.after.size();
  }
  return emit(original.subspan(done));
}

std::string patched_bytes(ByteSpan original, const std::vector<BytePatch>& patches) {
  std::string out;
  out.reserve(original.size());
  for_each_patched_piece(original, patches, [&](ByteSpan piece) {
    out.append(piece.as_chars());
    return true;
  });
  return out;
}

bool patch_file_atomically(const std::string& path, std::uint64_t expected_size, const std::vector<BytePatch>& patches,
                           std::string* error) {
  if (patches.empty()) return true;
  const auto input = InputFile::open(path, error);
  if (!input) return false;
  const ByteSpan bytes = input->bytes();
  if (const std::string why = mismatch(bytes, expected_size, patches); !why.empty()) {
    *error = fmt::format("{}: {}; the file changed since the plan, nothing written", path, why);
    return false;
  }
  return write_file_atomically(
      path, Ownership::kKept,
      [&](FileWriter* writer, std::string* write_error) {
        return for_each_patched_piece(bytes, patches,
                                      [&](ByteSpan piece) { return writer->append(piece, write_error); });
      },
      error);
}

}  // namespace qjt
