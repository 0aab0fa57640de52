#include "path_name.h"

#include <filesystem>
#include <system_error>

namespace qjt {

bool is_directory(const std::string& path) {
  std::error_code ec;  // any failure to look is "not a directory"
  return std::filesystem::is_directory(path, ec);
}

std::string base_name(std::string_view path) {
  const auto last = path.find_last_not_of('/');
  if (last == std::string_view::npos) return "";
  path = path.substr(0, last + 1);
  const auto slash = path.find_last_of('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

}  // namespace qjt
