#include "flume/channel_root.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <vector>

namespace qjt::flume {
namespace {

namespace fs = std::filesystem;

// The names of the regular files in `dir`.
std::set<std::string> file_names(const fs::path& dir) {
  std::set<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (it->is_regular_file(type_ec)) names.insert(it->path().filename().string());
  }
  return names;
}

bool holds_log(const std::set<std::string>& names) {
  return std::any_of(names.begin(), names.end(), [](const std::string& name) {
    std::optional<std::int32_t> id;
    const std::string log = name.ends_with(".meta") ? name.substr(0, name.size() - 5) : name;
    return is_log_name(log, &id);
  });
}

bool holds_any(const std::set<std::string>& names, std::initializer_list<const char*> wanted) {
  return std::any_of(wanted.begin(), wanted.end(), [&](const char* name) { return names.count(name) != 0; });
}

// The subdirectories of `dir` that are not hidden, by name.
std::vector<fs::path> subdirectories(const std::string& dir) {
  std::vector<fs::path> dirs;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (it->is_directory(type_ec) && !it->path().filename().string().starts_with(".")) dirs.push_back(it->path());
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

// The directories of a channel root, by what each holds.
struct RootScan {
  std::vector<std::string> data_dirs, checkpoints, backups;
};

RootScan scan_root(const std::string& dir) {
  RootScan scan;
  std::vector<std::string> named_checkpoint;
  for (const fs::path& sub : subdirectories(dir)) {
    const std::set<std::string> names = file_names(sub);
    if (holds_log(names)) scan.data_dirs.push_back(sub.string());
    if (holds_any(names, {"backupComplete", "checkpoint.snappy"})) {
      scan.backups.push_back(sub.string());
    } else if (holds_any(names, {"checkpoint", "checkpoint.meta"})) {
      scan.checkpoints.push_back(sub.string());
    } else if (sub.filename() == "checkpoint") {
      named_checkpoint.push_back(sub.string());
    }
  }
  if (scan.checkpoints.empty()) scan.checkpoints = named_checkpoint;
  return scan;
}

}  // namespace

std::optional<ChannelDirs> find_channel_root(const std::string& dir) {
  const RootScan scan = scan_root(dir);
  if (scan.data_dirs.empty() || scan.checkpoints.size() > 1 || scan.backups.size() > 1) return std::nullopt;
  ChannelDirs found{"", scan.data_dirs, std::nullopt};
  if (!scan.checkpoints.empty()) found.checkpoint_dir = scan.checkpoints.front();
  if (!scan.backups.empty()) found.backup_dir = scan.backups.front();
  return found;
}

std::vector<ChannelDirs> channel_root_candidates(const std::string& dir) {
  const RootScan scan = scan_root(dir);
  if (scan.data_dirs.empty() || (scan.checkpoints.size() <= 1 && scan.backups.size() <= 1)) return {};
  std::vector<std::optional<std::string>> backups(scan.backups.begin(), scan.backups.end());
  if (backups.empty()) backups.emplace_back();
  std::vector<std::string> checkpoints = scan.checkpoints;
  if (checkpoints.empty()) checkpoints.emplace_back();  // none yet: named by no option
  std::vector<ChannelDirs> candidates;
  for (const std::string& checkpoint : checkpoints)
    for (const auto& backup : backups) candidates.push_back(ChannelDirs{checkpoint, scan.data_dirs, backup});
  return candidates;
}

}  // namespace qjt::flume
