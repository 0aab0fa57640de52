#include "canal/deployer_layout.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <tuple>

#include "canal/tsdb_store.h"
#include "whole_number.h"

namespace qjt::canal {
namespace {

namespace fs = std::filesystem;

bool is_file(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

// The entries of `dir` that are directories (`dirs`) or regular files,
// not hidden, by name.
std::vector<fs::path> entries(const fs::path& dir, bool dirs) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    const bool is_dir = it->is_directory(type_ec);
    if (is_dir == dirs && !it->path().filename().string().starts_with(".")) found.push_back(it->path());
  }
  std::sort(found.begin(), found.end());
  return found;
}

// A rotation of meta.log: meta-<date>-<i>.log, gzip'd or not.
bool is_rotation(const std::string& name) {
  return name.starts_with("meta-") && (name.ends_with(".log") || name.ends_with(".log.gz"));
}

// Rotations in the order the logger wrote them: by day, then by <i>
// as a number (meta-...-10 after meta-...-9).
std::tuple<std::string, std::uint64_t, std::string> rotation_order(const fs::path& file) {
  const std::string name = file.filename().string();
  const std::string stem = name.substr(0, name.find(".log"));
  const std::size_t dash = stem.rfind('-');
  const auto index = whole_number<std::uint64_t>(std::string_view(stem).substr(dash + 1));
  return {file.parent_path().filename().string(), index.value_or(0), name};
}

struct LogHistory {
  std::vector<std::string> files;     // rotations, oldest first, then meta.log
  std::vector<std::string> day_dirs;  // the directories of the rotations
};

LogHistory log_history(const fs::path& dir) {
  LogHistory history;
  std::vector<fs::path> rotations;
  for (const fs::path& day : entries(dir, true)) {
    const std::size_t before = rotations.size();
    for (const fs::path& file : entries(day, false))
      if (is_rotation(file.filename().string())) rotations.push_back(file);
    if (rotations.size() > before) history.day_dirs.push_back(day.string());
  }
  std::sort(rotations.begin(), rotations.end(),
            [](const fs::path& a, const fs::path& b) { return rotation_order(a) < rotation_order(b); });
  for (const fs::path& file : rotations) history.files.push_back(file.string());
  if (is_file(dir / "meta.log")) history.files.push_back((dir / "meta.log").string());
  return history;
}

std::vector<DestinationFiles> deployer_root(const fs::path& root) {
  std::map<std::string, DestinationFiles> found;
  for (const fs::path& conf : entries(root / "conf", true)) {
    if (!is_file(conf / "meta.dat")) continue;
    DestinationFiles& destination = found[conf.filename().string()];
    destination.dir = conf.string();
    destination.files.push_back((conf / "meta.dat").string());
  }
  for (const fs::path& logs : entries(root / "logs", true)) {
    const LogHistory history = log_history(logs);
    if (history.files.empty()) continue;
    DestinationFiles& destination = found[logs.filename().string()];
    if (destination.dir.empty()) destination.dir = logs.string();
    destination.files.insert(destination.files.end(), history.files.begin(), history.files.end());
  }
  std::vector<DestinationFiles> destinations;
  for (auto& [name, destination] : found) {
    if (destination.files.empty()) continue;
    destination.name = name;
    for (const char* part : {"conf", "logs"})
      if (fs::exists(root / part)) destination.covers.push_back((root / part).string());
    destinations.push_back(std::move(destination));
  }
  return destinations;
}

}  // namespace

std::vector<DestinationFiles> find_destinations(const std::string& dir) {
  const fs::path root(dir);
  if (auto destinations = deployer_root(root); !destinations.empty()) return destinations;
  const LogHistory history = log_history(root);
  const bool dat = is_file(root / "meta.dat");
  if (history.files.size() + (dat ? 1 : 0) < 2) return {};
  DestinationFiles one;
  one.dir = dir;
  one.name = fs::absolute(root).lexically_normal().filename().string();
  if (one.name.empty()) one.name = fs::absolute(root).lexically_normal().parent_path().filename().string();
  if (dat) one.files.push_back((root / "meta.dat").string());
  one.files.insert(one.files.end(), history.files.begin(), history.files.end());
  one.covers = one.files;
  one.covers.insert(one.covers.end(), history.day_dirs.begin(), history.day_dirs.end());
  // The destination's own other files, which verify reads beside meta.dat:
  // its configuration and its table-meta store.
  for (const fs::path& file : entries(root, false)) {
    const std::string name = file.filename().string();
    if (name == "instance.properties" || is_store_file_name(name)) one.covers.push_back(file.string());
  }
  return {one};
}

}  // namespace qjt::canal
