#include "path_walk.h"

#include <fnmatch.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "path_family.h"
#include "path_name.h"

namespace qjt::cli {
namespace {

namespace fs = std::filesystem;

// What a walk passes over: hidden entries, the backups qjt keeps of what
// it changed (a second copy of a queue, not a queue of its own), and what
// --exclude names: a GLOB matching the base name, or the path below the
// walk's `root` (where * stops at a slash), as ripgrep's -g '!GLOB'.
bool passed_over(const fs::path& entry, const std::string& root, const std::vector<std::string>& excluded) {
  const std::string name = entry.filename().string();
  if (name.starts_with(".") || name.find(".qjt-backup") != std::string::npos) return true;
  const std::string below = entry.lexically_relative(root).generic_string();
  return std::any_of(excluded.begin(), excluded.end(), [&](const std::string& glob) {
    return ::fnmatch(glob.c_str(), name.c_str(), 0) == 0 || ::fnmatch(glob.c_str(), below.c_str(), FNM_PATHNAME) == 0;
  });
}

// Whether --exclude passes over `path` or a directory it is in, below
// `root`: a site's files (a Canal destination's meta.dat) are found by
// discovery, not by the walk's listing.
bool passed_over_within(const fs::path& path, const std::string& root, const std::vector<std::string>& excluded) {
  const fs::path top = fs::path(root).lexically_normal();
  for (fs::path p = path.lexically_normal(); p.has_relative_path() && p != top; p = p.parent_path())
    if (passed_over(p, root, excluded)) return true;
  return false;
}

struct Entries {
  std::vector<std::string> files, dirs;  // each by name
};

// The entries of `dir` a walk looks at: regular files (a link to one too),
// and directories that are not links.
Entries entries_of(const std::string& dir, const std::string& root, const std::vector<std::string>& excluded) {
  Entries entries;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (passed_over(it->path(), root, excluded)) continue;
    std::error_code status_ec;
    const fs::file_status own = it->symlink_status(status_ec);
    if (fs::is_directory(own)) {
      entries.dirs.push_back(it->path().string());
    } else if (fs::is_regular_file(fs::is_symlink(own) ? it->status(status_ec) : own)) {
      entries.files.push_back(it->path().string());
    }
  }
  std::sort(entries.files.begin(), entries.files.end());
  std::sort(entries.dirs.begin(), entries.dirs.end());
  return entries;
}

class Walk {
 public:
  Walk(Registry drivers, std::optional<unsigned> max_depth, const std::vector<std::string>& excluded, Expansion* out)
      : drivers_(drivers), max_depth_(max_depth), excluded_(excluded), out_(out) {}

  // Adds the units of `dir`, `depth` levels below `root`, its PATH;
  // returns whether it found any.
  bool directory(const std::string& dir, const std::string& root, unsigned depth) {
    const std::size_t before = out_->units.size();
    const std::vector<std::string> covered = sites(dir, root);
    const Entries entries = entries_of(dir, root, excluded_);
    const DirectoryScan scan = scan_directory(dir, drivers_);
    // A file of no known format makes no directory its family's.
    if (covered.empty() && scan.claim && !scan.claim->unrecognised && scan.claim->driver->reads_directories()) {
      out_->units.push_back(ReadUnit{dir, nullptr, "", {dir}, {}, depth == 0});
      // The family leaves out what is not its own (not_of_family).
      for (const auto& [file, claim] : scan.files)
        if (claim.unrecognised && std::find(entries.files.begin(), entries.files.end(), file) != entries.files.end())
          out_->skipped.push_back(file);
    } else {
      claimed_files(dir, entries.files, covered, scan, depth == 0);
    }
    if (!max_depth_ || depth < *max_depth_)
      for (const std::string& sub : entries.dirs)
        if (std::find(covered.begin(), covered.end(), sub) == covered.end()) directory(sub, root, depth + 1);
    return out_->units.size() > before;
  }

 private:
  // The installations families discover in `dir`, each a unit; returns
  // the entries they cover.
  std::vector<std::string> sites(const std::string& dir, const std::string& root) {
    std::vector<std::string> covered;
    for (Driver* driver : drivers_) {
      for (Site& site : driver->discover(dir)) {
        covered.insert(covered.end(), site.covers.begin(), site.covers.end());
        const bool excluded = !site.paths.empty() && std::all_of(site.paths.begin(), site.paths.end(), [&](auto& p) {
          return passed_over_within(p, root, excluded_);
        });
        if (excluded) continue;
        std::string where = site.where.empty() ? dir : std::move(site.where);
        out_->units.push_back(ReadUnit{std::move(where), driver, std::move(site.what), std::move(site.paths),
                                       std::move(site.settings), false});
      }
    }
    return covered;
  }

  // The files of `dir` that families claim, as one unit (a file that could
  // not be opened too: its reader reports why); the others are skipped.
  // Beside an installation, whose unit is `dir` already, each is a unit
  // of its own, so that no two units have one path.
  void claimed_files(const std::string& dir, const std::vector<std::string>& files,
                     const std::vector<std::string>& covered, const DirectoryScan& scan, bool given) {
    std::map<std::string, const PathClaim*> claims;
    for (const auto& [file, claim] : scan.files) claims.emplace(file, &claim);
    std::vector<std::string> unit;
    for (const std::string& file : files) {
      if (std::find(covered.begin(), covered.end(), file) != covered.end()) continue;
      const auto claim = claims.find(file);
      const bool unopened =
          std::any_of(scan.unreadable.begin(), scan.unreadable.end(), [&](const Finding& f) { return f.file == file; });
      if (unopened || (claim != claims.end() && !claim->second->unrecognised)) {
        unit.push_back(file);
      } else {
        out_->skipped.push_back(file);
      }
    }
    if (covered.empty()) {
      if (!unit.empty()) out_->units.push_back(ReadUnit{dir, nullptr, "", std::move(unit), {}, given});
      return;
    }
    for (std::string& file : unit) out_->units.push_back(ReadUnit{file, nullptr, "", {file}, {}, false});
  }

  Registry drivers_;
  std::optional<unsigned> max_depth_;
  const std::vector<std::string>& excluded_;
  Expansion* out_;
};

}  // namespace

Expansion expand_paths(const std::vector<std::string>& paths, Registry drivers, std::optional<unsigned> max_depth,
                       const std::vector<std::string>& excluded) {
  Expansion expansion;
  Walk walk(drivers, max_depth, excluded, &expansion);
  for (const std::string& path : paths) {
    const std::size_t skipped = expansion.skipped.size();
    if (path != "-" && is_directory(path) && walk.directory(path, path, 0)) continue;
    // Nothing found: the PATH is read as given, as are its files.
    expansion.only_unknown.insert(expansion.only_unknown.end(),
                                  std::next(expansion.skipped.begin(), static_cast<std::ptrdiff_t>(skipped)),
                                  expansion.skipped.end());
    expansion.skipped.resize(skipped);
    expansion.units.push_back(ReadUnit{path, nullptr, "", {path}, {}, true});
  }
  expansion.found = !expansion.skipped.empty() || std::any_of(expansion.units.begin(), expansion.units.end(),
                                                              [](const ReadUnit& u) { return !u.given; });
  return expansion;
}

}  // namespace qjt::cli
