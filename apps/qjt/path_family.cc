#include "path_family.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "input_file.h"

namespace qjt::app {
namespace {

namespace fs = std::filesystem;

bool is_regular(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool is_directory(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

std::optional<PathClaim> claim_regular_file(const std::string& path, Registry drivers) {
  std::string error;
  const auto input = InputFile::open(path, &error);
  if (!input) return std::nullopt;
  return claim_file(path, input->bytes(), drivers);
}

// How much a claim says: a positive one over a weak one, and a family with
// evidence of its own over the registry's last, which takes what is left.
int weight(const PathClaim& claim, Registry drivers) {
  return (claim.positive ? 2 : 0) + (claim.driver != drivers.back() ? 1 : 0);
}

// The weightiest claim on a file of `dir`, naming that file, the first of
// equals; for another family than the registry's last, one of its files is
// enough. nullopt when no file of `dir` is claimed.
std::optional<PathClaim> claim_directory(const std::string& dir, Registry drivers) {
  std::error_code ec;
  std::optional<PathClaim> best;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string file = entry.path().string();
    if (!is_regular(file)) continue;
    auto claim = claim_regular_file(file, drivers);
    if (!claim || (best && weight(*claim, drivers) <= weight(*best, drivers))) continue;
    claim->evidence = fmt::format("a directory holding {}, {}", file, claim->evidence);
    best = std::move(claim);
    if (weight(*best, drivers) == 3) break;
  }
  return best;
}

}  // namespace

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

std::optional<PathClaim> claim_path(const std::string& path, Registry drivers) {
  if (path == "-") return std::nullopt;
  if (is_directory(path)) return claim_directory(path, drivers);
  if (!is_regular(path)) return std::nullopt;
  return claim_regular_file(path, drivers);
}

std::vector<PathGroup> group_by_family(const std::vector<std::string>& paths, Reporter* unclaimed, Registry drivers,
                                       Driver* unopened_owner) {
  std::vector<PathGroup> groups;
  for (const std::string& path : paths) {
    const auto claim = claim_path(path, drivers);
    if (!claim && is_directory(path)) {
      unclaimed->report(Finding{Severity::kError, "io_error", path, std::nullopt,
                                "expected a journal, channel or checkpoint file in this directory, found none"});
      continue;
    }
    Driver* driver = claim ? claim->driver : unopened_owner != nullptr ? unopened_owner : drivers.back();
    const std::string key = claim ? claim->group : std::string(driver->name());
    auto group = std::find_if(groups.begin(), groups.end(), [&](const PathGroup& g) { return g.key == key; });
    if (group == groups.end()) group = groups.insert(groups.end(), PathGroup{key, driver, {}, {}});
    group->paths.push_back(path);
    if (claim && !claim->positive) group->unproven.push_back({path, claim->evidence});
  }
  return groups;
}

std::vector<std::string> group_inputs(const PathGroup& g, Registry drivers) {
  std::vector<std::string> files;
  for (const std::string& path : g.paths) {
    if (g.driver->reads_directories() || !is_directory(path)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> entries;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(path, ec)) {
      const std::string file = entry.path().string();
      const auto claim = entry.is_regular_file(ec) ? claim_path(file, drivers) : std::nullopt;
      if (claim && claim->group == g.key) entries.push_back(file);
    }
    std::sort(entries.begin(), entries.end());
    files.insert(files.end(), entries.begin(), entries.end());
  }
  return files;
}

std::optional<ExitCode> refuse_foreign(std::string_view command, std::string_view family,
                                       const std::vector<std::string>& paths, Registry drivers, WeakFiles weak_files) {
  bool refused = false;
  for (const std::string& path : paths) {
    const auto claim = claim_path(path, drivers);
    if (!claim) continue;
    if (claim->driver->name() == family &&
        (claim->positive || (weak_files == WeakFiles::kAccepted && !is_directory(path))))
      continue;
    const std::string what =
        claim->positive ? fmt::format("a {} input", claim->driver->name()) : std::string("of no known format");
    fmt::print(stderr,
               "qjt {}: refused: {} is {} ({}), not a {} input; nothing was changed "
               "(qjt help formats says which commands take each format)\n",
               command, path, what, claim->evidence, family);
    refused = true;
  }
  if (refused) return ExitCode::kUsage;
  return std::nullopt;
}

}  // namespace qjt::app
