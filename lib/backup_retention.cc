#include "backup_retention.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "path_name.h"

namespace qjt {
namespace {

namespace fs = std::filesystem;

// "<stem><digits>": the stem, and the digits as a number; nullopt when the
// name does not end in digits after a '.' or '-'.
struct SeriesName {
  std::string stem;
  std::uint64_t ms = 0;
};

std::optional<SeriesName> series_name(std::string_view name) {
  const std::size_t digits = name.find_last_not_of("0123456789") + 1;
  if (digits == 0 || digits == name.size() || name.size() - digits > 19) return std::nullopt;
  if (name[digits - 1] != '.' && name[digits - 1] != '-') return std::nullopt;
  SeriesName s{std::string(name.substr(0, digits)), 0};
  for (char c : name.substr(digits)) s.ms = s.ms * 10 + static_cast<std::uint64_t>(c - '0');
  return s;
}

}  // namespace

PrunedBackups prune_backups(const std::string& backup, std::size_t keep) {
  PrunedBackups result;
  const fs::path place(backup);
  const auto own = series_name(base_name(backup));
  if (!own || keep == 0) return result;
  std::vector<std::pair<std::uint64_t, fs::path>> series;
  std::error_code ec;
  const bool directories = is_directory(backup);
  for (const auto& entry : fs::directory_iterator(place.parent_path().empty() ? "." : place.parent_path(), ec)) {
    const auto name = series_name(entry.path().filename().string());
    // Of the same kind as the new one, so that a --backup-to shared with
    // other files never loses a file that merely has a backup-like name.
    std::error_code kind_error;
    if (name && name->stem == own->stem && entry.is_directory(kind_error) == directories)
      series.emplace_back(name->ms, entry.path());
  }
  if (ec) {
    result.failures.push_back(fmt::format("cannot list {}: {}", place.parent_path().string(), ec.message()));
    return result;
  }
  std::sort(series.begin(), series.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = keep; i < series.size(); ++i) {
    const fs::path& old = series[i].second;
    fs::remove_all(old, ec);
    if (ec) {
      result.failures.push_back(fmt::format("cannot remove the old backup {}: {}", old.string(), ec.message()));
    } else {
      result.removed.push_back(old.string());
    }
  }
  return result;
}

}  // namespace qjt
