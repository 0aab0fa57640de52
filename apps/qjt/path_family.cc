#include "path_family.h"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <functional>
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
    case libkestrel::FileKind::kSegment: return PathClaim{Family::kLibkestrel, true, "a libkestrel segment magic", "libkestrel"};
    case libkestrel::FileKind::kBookmark: return PathClaim{Family::kLibkestrel, true, "a libkestrel bookmark magic", "libkestrel"};
    case libkestrel::FileKind::kClassic: break;
  }
  // A segment or bookmark cut inside its magic: no classic journal starts
  // with 0x27 or 0x26, which are not Kestrel opcodes.
  if (!bytes.empty() && bytes.size() < 4 &&
      (is_magic_prefix(bytes, libkestrel::kSegmentMagic) || is_magic_prefix(bytes, libkestrel::kBookmarkMagic)))
    return PathClaim{Family::kLibkestrel, true, "a libkestrel magic cut short", "libkestrel"};
  return std::nullopt;
}

std::optional<PathClaim> sniff_canal(const std::string& path, ByteSpan bytes) {
  const auto kind = canal::detect_file_kind(path, bytes);
  if (!kind) return std::nullopt;
  const bool dat = *kind == canal::FileKind::kMetaDat;
  return PathClaim{Family::kCanal, true, dat ? "a Canal meta.dat" : "a Canal meta.log",
                   dat ? "canal-meta-dat" : "canal-meta-log"};
}

std::optional<PathClaim> sniff_flume(const std::string& path, ByteSpan bytes) {
  // The lock Flume takes in each of a channel's directories.
  if (fs::path(path).filename() == "in_use.lock")
    return PathClaim{Family::kFlume, true, "Flume's in_use.lock", "flume-lock"};  // no file to decode
  if (!flume::looks_like_flume(path, bytes)) return std::nullopt;
  const auto kind = flume::detect_file_kind(path, bytes);
  return PathClaim{Family::kFlume, true, fmt::format("a Flume file channel {} file", flume::file_kind_name(kind.kind)), "flume"};
}

// The order matters: magics first, then names and content, then the
// family that has neither.
constexpr std::array<Sniffer, 3> kSniffers{sniff_libkestrel, sniff_canal, sniff_flume};

PathClaim kestrel_claim(ByteSpan bytes) {
  if (bytes.empty()) return PathClaim{Family::kKestrel, true, "an empty file", "kestrel"};
  kestrel::JournalReader reader(bytes);
  kestrel::JournalRecord first;
  reader.next(&first);
  if (first.type != kestrel::RecordType::kBroken)
    return PathClaim{Family::kKestrel, true, "a classic Kestrel record at offset 0", "kestrel"};
  return PathClaim{Family::kKestrel, false,
                   fmt::format("no Kestrel record decodes at offset 0 (byte 0x{:02x}: {})", bytes[0], first.error), "kestrel"};
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
      return PathClaim{claim->family, true, fmt::format("a directory holding {}, {}", file, claim->evidence), claim->group};
    if (!kestrel || (claim->positive && !kestrel->positive))
      kestrel = PathClaim{Family::kKestrel, claim->positive, fmt::format("a directory holding {}, {}", file, claim->evidence), claim->group};
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

std::vector<PathGroup> group_by_family(const std::vector<std::string>& paths, Reporter* unclaimed) {
  std::vector<PathGroup> groups;
  for (const std::string& path : paths) {
    const auto claim = claim_path(path);
    std::error_code ec;
    if (!claim && fs::is_directory(path, ec)) {
      unclaimed->report(Finding{Severity::kError, "io_error", path, std::nullopt,
                                "expected a journal, channel or checkpoint file in this directory, found none"});
      continue;
    }
    const std::string key = claim ? claim->group : std::string(family_name(Family::kKestrel));
    auto group = std::find_if(groups.begin(), groups.end(), [&](const PathGroup& g) { return g.key == key; });
    if (group == groups.end()) group = groups.insert(groups.end(), PathGroup{key, claim ? claim->family : Family::kKestrel, {}});
    group->paths.push_back(path);
  }
  return groups;
}

std::optional<PathClaim> claim_path(const std::string& path) {
  if (path == "-") return std::nullopt;
  std::error_code ec;
  if (fs::is_directory(path, ec)) return claim_directory(path);
  if (!is_regular(path)) return std::nullopt;
  return claim_regular_file(path);
}

// A directory named as a PATH of Flume or Canal stands for its files of
// the group's kind, each decoded on its own: a Flume channel's replay needs
// its directories named by --checkpoint-dir and --data-dir.
std::vector<std::string> group_inputs(const PathGroup& g) {
  std::vector<std::string> files;
  for (const std::string& path : g.paths) {
    std::error_code ec;
    if ((g.family != Family::kFlume && g.family != Family::kCanal) || !fs::is_directory(path, ec)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> entries;
    for (const auto& entry : fs::directory_iterator(path, ec)) {
      const std::string file = entry.path().string();
      const auto claim = entry.is_regular_file(ec) ? claim_path(file) : std::nullopt;
      if (claim && claim->group == g.key) entries.push_back(file);
    }
    std::sort(entries.begin(), entries.end());
    files.insert(files.end(), entries.begin(), entries.end());
  }
  return files;
}

ExitCode for_each_family(const std::vector<std::string>& paths,
                         const std::function<ExitCode(const std::vector<std::string>&)>& run) {
  FindingList unclaimed;
  const auto groups = group_by_family(paths, &unclaimed);
  StderrReporter diagnostics;
  for (const Finding& f : unclaimed.findings()) diagnostics.report(f);
  ExitCode status = unclaimed.findings().empty() ? ExitCode::kOk : ExitCode::kIoError;
  for (const PathGroup& g : groups) status = worse(status, run(group_inputs(g)));
  return status;
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
