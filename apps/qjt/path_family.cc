#include "path_family.h"

#include <sys/stat.h>

#include <array>
#include <filesystem>

#include <fmt/format.h>

#include "canal_file_kind.h"
#include "file_kind.h"
#include "input_file.h"
#include "journal_reader.h"
#include "libkestrel_format.h"

namespace qjt::app {
namespace {

namespace fs = std::filesystem;

// A claim when the family recognises the bytes, else nullopt.
using Sniffer = std::optional<PathClaim> (*)(const std::string& path, ByteSpan bytes);

bool is_magic_prefix(ByteSpan bytes, std::uint32_t magic) {
  for (std::size_t i = 0; i < bytes.size(); ++i)
    if (bytes[i] != static_cast<std::uint8_t>(magic >> (24 - 8 * i))) return false;
  return true;
}

std::optional<PathClaim> sniff_libkestrel(const std::string&, ByteSpan bytes) {
  switch (libkestrel::file_kind(bytes)) {
    case libkestrel::FileKind::kSegment: return PathClaim{Family::kLibkestrel, true, "a libkestrel segment magic"};
    case libkestrel::FileKind::kBookmark: return PathClaim{Family::kLibkestrel, true, "a libkestrel bookmark magic"};
    case libkestrel::FileKind::kClassic: break;
  }
  // A segment or bookmark cut inside its magic: no classic journal starts
  // with 0x27 or 0x26, which are not Kestrel opcodes.
  if (!bytes.empty() && bytes.size() < 4 &&
      (is_magic_prefix(bytes, libkestrel::kSegmentMagic) || is_magic_prefix(bytes, libkestrel::kBookmarkMagic)))
    return PathClaim{Family::kLibkestrel, true, "a libkestrel magic cut short"};
  return std::nullopt;
}

std::optional<PathClaim> sniff_canal(const std::string& path, ByteSpan bytes) {
  const auto kind = canal::detect_file_kind(path, bytes);
  if (!kind) return std::nullopt;
  return PathClaim{Family::kCanal, true, *kind == canal::FileKind::kMetaDat ? "a Canal meta.dat" : "a Canal meta.log"};
}

std::optional<PathClaim> sniff_flume(const std::string& path, ByteSpan bytes) {
  // The lock Flume takes in each of a channel's directories.
  if (fs::path(path).filename() == "in_use.lock") return PathClaim{Family::kFlume, true, "Flume's in_use.lock"};
  if (!flume::looks_like_flume(path, bytes)) return std::nullopt;
  const auto kind = flume::detect_file_kind(path, bytes);
  return PathClaim{Family::kFlume, true, fmt::format("a Flume file channel {} file", flume::file_kind_name(kind.kind))};
}

// The order matters: magics first, then names and content, then the
// family that has neither.
constexpr std::array<Sniffer, 3> kSniffers{sniff_libkestrel, sniff_canal, sniff_flume};

PathClaim kestrel_claim(ByteSpan bytes) {
  if (bytes.empty()) return PathClaim{Family::kKestrel, true, "an empty file"};
  kestrel::JournalReader reader(bytes);
  kestrel::JournalRecord first;
  reader.next(&first);
  if (first.type != kestrel::RecordType::kBroken)
    return PathClaim{Family::kKestrel, true, "a classic Kestrel record at offset 0"};
  return PathClaim{Family::kKestrel, false,
                   fmt::format("no Kestrel record decodes at offset 0 (byte 0x{:02x}: {})", bytes[0], first.error)};
}

bool is_regular(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::optional<PathClaim> claim_regular_file(const std::string& path) {
  std::string error;
  const auto input = InputFile::open(path, &error);
  if (!input) return std::nullopt;
  return claim_file(path, input->bytes());
}

// The first claim of another family than classic Kestrel on a file of
// `dir`, naming that file; else a classic Kestrel claim, positive when a
// file decodes as a journal. nullopt when no file of `dir` is claimed.
std::optional<PathClaim> claim_directory(const std::string& dir) {
  std::error_code ec;
  std::optional<PathClaim> kestrel;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string file = entry.path().string();
    if (!is_regular(file)) continue;
    const auto claim = claim_regular_file(file);
    if (!claim) continue;
    if (claim->family != Family::kKestrel)
      return PathClaim{claim->family, true, fmt::format("a directory holding {}, {}", file, claim->evidence)};
    if (!kestrel || (claim->positive && !kestrel->positive))
      kestrel = PathClaim{Family::kKestrel, claim->positive, fmt::format("a directory holding {}, {}", file, claim->evidence)};
  }
  return kestrel;
}

}  // namespace

std::string_view family_name(Family family) {
  switch (family) {
    case Family::kKestrel: return "kestrel";
    case Family::kLibkestrel: return "libkestrel";
    case Family::kFlume: return "flume";
    case Family::kCanal: return "canal";
  }
  return "kestrel";
}

PathClaim claim_file(const std::string& path, ByteSpan bytes) {
  for (Sniffer sniff : kSniffers)
    if (auto claim = sniff(path, bytes)) return *claim;
  return kestrel_claim(bytes);
}

std::optional<PathClaim> claim_path(const std::string& path) {
  if (path == "-") return std::nullopt;
  std::error_code ec;
  if (fs::is_directory(path, ec)) return claim_directory(path);
  if (!is_regular(path)) return std::nullopt;
  return claim_regular_file(path);
}

std::optional<ExitCode> refuse_foreign(std::string_view command, Family family, const std::vector<std::string>& paths,
                                       WeakFiles weak_files) {
  bool refused = false;
  for (const std::string& path : paths) {
    const auto claim = claim_path(path);
    if (!claim) continue;
    if (claim->family == family &&
        (claim->positive || (weak_files == WeakFiles::kAccepted && !fs::is_directory(path))))
      continue;
    const std::string what = claim->positive ? fmt::format("a {} input", family_name(claim->family))
                                             : std::string("of no known format");
    fmt::print(stderr,
               "qjt {}: refused: {} is {} ({}), not a {} input; nothing was changed "
               "(qjt(1) says which commands take each format)\n",
               command, path, what, claim->evidence, family_name(family));
    refused = true;
  }
  if (refused) return ExitCode::kUsage;
  return std::nullopt;
}

}  // namespace qjt::app
