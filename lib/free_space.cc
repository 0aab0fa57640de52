#include "free_space.h"

#include <sys/stat.h>
#include <sys/statvfs.h>

#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "whole_number.h"

namespace qjt {
namespace {

namespace fs = std::filesystem;

// `path`, or its nearest parent that exists.
std::string existing(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  while (!fs::exists(p, ec) && p.has_parent_path() && p.parent_path() != p) p = p.parent_path();
  return p.string();
}

std::optional<std::uint64_t> overridden() {
  const char* value = std::getenv("QJT_FREE_BYTES");
  if (value == nullptr) return std::nullopt;
  return whole_number<std::uint64_t>(value);
}

}  // namespace

std::optional<std::uint64_t> free_bytes(const std::string& path) {
  if (const auto forced = overridden()) return forced;
  struct statvfs st {};
  if (::statvfs(existing(path).c_str(), &st) != 0) return std::nullopt;
  return std::uint64_t{st.f_bavail} * st.f_frsize;
}

bool same_file_system(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  if (::stat(existing(a).c_str(), &sa) != 0 || ::stat(existing(b).c_str(), &sb) != 0) return false;
  return sa.st_dev == sb.st_dev;
}

}  // namespace qjt
