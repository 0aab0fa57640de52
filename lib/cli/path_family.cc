#include "path_family.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "command_support.h"
#include "input_file.h"
#include "path_name.h"
#include "progress.h"
#include "stream_buffer.h"

namespace qjt::cli {
namespace {

namespace fs = std::filesystem;

// How much of standard input tells its family: any magic fits.
constexpr std::uint64_t kStreamHead = 4096;

bool is_regular(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// nullopt with *error when the file cannot be opened, as when no family
// claims it (error empty).
std::optional<PathClaim> claim_regular_file(const std::string& path, Registry drivers, std::string* error) {
  const Progress::Pause sniffing;  // a claim reads a file's first bytes, not the file
  const auto input = InputFile::open(path, error);
  if (!input) return std::nullopt;
  return claim_file(path, input->bytes(), drivers);
}

// How much a claim says: a positive one over a weak one, and a family with
// evidence of its own over the registry's last, which takes what is left.
int weight(const PathClaim& claim, Registry drivers) {
  return (claim.positive ? 2 : 0) + (claim.driver != drivers.back() ? 1 : 0);
}

// What a family reads of `path`: a directory of a family that does not
// read directories as a whole stands for its files of the claim's group.
std::vector<std::string> inputs_of(const std::string& path, const DirectoryScan& scan) {
  if (!scan.claim || scan.claim->driver->reads_directories()) return {path};
  std::vector<std::string> files;
  for (const auto& [file, claim] : scan.files)
    if (claim.group == scan.claim->group) files.push_back(file);
  return files;
}

}  // namespace

std::optional<Finding> unreadable_file(const std::string& path, const PathClaim& claim, Registry drivers) {
  if (claim.positive) return std::nullopt;
  if (claim.driver != drivers.back())
    return Finding{Severity::kError, "broken_record", path, 0, fmt::format("the file is {}", claim.evidence)};
  if (!claim.unrecognised) return std::nullopt;
  std::string looked_for;
  for (std::size_t i = 0; i < drivers.size(); ++i)
    looked_for += fmt::format("{}{}", i == 0 ? "" : i + 1 == drivers.size() ? ", or " : ", ", drivers[i]->looks_for());
  return Finding{Severity::kError, "unknown_format", path, std::nullopt,
                 fmt::format("expected {}; found none: {}", looked_for, claim.evidence)};
}

DirectoryScan scan_directory(const std::string& dir, Registry drivers) {
  DirectoryScan scan;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string file = entry.path().string();
    if (!is_regular(file)) continue;
    std::string error;
    if (auto claim = claim_regular_file(file, drivers, &error)) {
      scan.files.emplace_back(file, std::move(*claim));
    } else if (!error.empty()) {
      scan.unreadable.push_back(Finding{Severity::kError, "io_error", file, std::nullopt, error});
    }
  }
  std::sort(scan.files.begin(), scan.files.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [file, claim] : scan.files) {
    if (!claim.makes_directory || (scan.claim && weight(claim, drivers) <= weight(*scan.claim, drivers))) continue;
    scan.claim = claim;
    scan.claim->evidence = fmt::format("a directory holding {}, {}", file, claim.evidence);
  }
  return scan;
}

std::optional<PathClaim> claim_file(const std::string& path, ByteSpan bytes, Registry drivers) {
  std::optional<PathClaim> weak;
  for (Driver* driver : drivers) {
    auto claim = driver->claim(path, bytes);
    if (!claim || (!claim->positive && weak)) continue;
    PathClaim found;
    static_cast<Claim&>(found) = std::move(*claim);
    found.driver = driver;
    if (found.positive) return found;
    weak = std::move(found);
  }
  return weak;
}

std::function<bool(const std::string& path)> not_of_family(Registry drivers, std::string_view family) {
  return [drivers, family = std::string(family)](const std::string& path) {
    if (drivers.empty()) return false;
    std::string error;
    const auto claim = claim_regular_file(path, drivers, &error);
    return claim && (claim->unrecognised || (claim->positive && claim->driver->name() != family));
  };
}

std::optional<PathClaim> claim_input(const std::string& path, Registry drivers) {
  if (path != "-") return claim_path(path, drivers);
  const Progress::Pause sniffing;
  Finding failure;
  const auto input = InputFile::open(path, &failure, InputFile::StreamReading::kOnDemand);
  if (!input) return std::nullopt;
  // A stream's first bytes only, kept for its reader (input_file.h).
  StreamBuffer* stream = input->stream_on_demand();
  if (stream != nullptr) stream->fill_to(kStreamHead);
  const ByteSpan head = stream != nullptr ? stream->view(0, static_cast<std::size_t>(stream->size())) : input->bytes();
  auto claim = claim_file(path, head, drivers);
  if (!claim || claim->driver == drivers.back()) return std::nullopt;
  return claim;
}

std::optional<PathClaim> claim_path(const std::string& path, Registry drivers) {
  if (path == "-") return std::nullopt;
  if (is_directory(path)) return scan_directory(path, drivers).claim;
  if (!is_regular(path)) return std::nullopt;
  std::string error;
  return claim_regular_file(path, drivers, &error);
}

std::vector<PathGroup> group_by_family(const std::vector<std::string>& paths, Reporter* unclaimed, Registry drivers,
                                       Driver* unopened_owner, Reporter* unreadable) {
  std::vector<PathGroup> groups;
  for (const std::string& path : paths) {
    const bool directory = is_directory(path);
    const DirectoryScan scan = directory ? scan_directory(path, drivers) : DirectoryScan{};
    // A read tells standard input's family by its first bytes.
    const auto claim = directory               ? scan.claim
                       : unreadable != nullptr ? claim_input(path, drivers)
                                               : claim_path(path, drivers);
    // A family that reads a directory lists it itself and reports what it
    // cannot open; one that is given the directory's files gets only those
    // claimed, so what no one could read is reported here.
    if (!claim || !claim->driver->reads_directories())
      for (const Finding& f : scan.unreadable) unclaimed->report(f);
    if (!claim && directory) {
      unclaimed->report(Finding{Severity::kError, "io_error", path, std::nullopt,
                                "expected a journal, channel or checkpoint file in this directory, found none"});
      continue;
    }
    if (unreadable != nullptr && claim && !directory) {
      if (auto finding = unreadable_file(path, *claim, drivers)) {
        unreadable->report(std::move(*finding));
        for (const Driver* driver : drivers)
          for (Finding& stray : driver->stray(path, drivers)) unreadable->report(std::move(stray));
        continue;
      }
    }
    Driver* driver = claim ? claim->driver : unopened_owner != nullptr ? unopened_owner : drivers.back();
    const std::string key = claim ? claim->group : std::string(driver->name());
    auto group = std::find_if(groups.begin(), groups.end(), [&](const PathGroup& g) { return g.key == key; });
    if (group == groups.end()) group = groups.insert(groups.end(), PathGroup{key, driver, {}, {}, {}});
    group->paths.push_back(path);
    const auto inputs = directory ? inputs_of(path, scan) : std::vector<std::string>{path};
    group->inputs.insert(group->inputs.end(), inputs.begin(), inputs.end());
    if (claim && !claim->positive) group->unproven.push_back({path, claim->evidence});
  }
  return groups;
}

std::optional<ExitCode> refuse_foreign(std::string_view command, std::string_view family,
                                       const std::vector<std::string>& paths, Registry drivers, WeakFiles weak_files) {
  bool refused = false;
  for (const std::string& path : paths) {
    auto claim = claim_path(path, drivers);
    // A directory of files of no known format makes no family's directory,
    // and is no writer's either.
    if (!claim && is_directory(path)) {
      const DirectoryScan scan = scan_directory(path, drivers);
      const auto unknown =
          std::find_if(scan.files.begin(), scan.files.end(), [](const auto& file) { return file.second.unrecognised; });
      if (unknown != scan.files.end()) {
        claim = unknown->second;
        claim->evidence = fmt::format("a directory holding {}, {}", unknown->first, unknown->second.evidence);
      }
    }
    if (!claim) continue;
    if (claim->driver->name() == family &&
        (claim->positive || (weak_files == WeakFiles::kAccepted && !is_directory(path))))
      continue;
    const std::string what =
        claim->positive ? fmt::format("a {} input", claim->driver->name()) : std::string("of no known format");
    usage_error(command, fmt::format("refused: {} is {} ({}), not a {} input; nothing was changed "
                                     "(qjt help formats says which commands take each format)",
                                     path, what, claim->evidence, family));
    refused = true;
  }
  if (refused) return ExitCode::kUsage;
  return std::nullopt;
}

}  // namespace qjt::cli
