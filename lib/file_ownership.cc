#include "file_ownership.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

namespace qjt {
namespace {

namespace fs = std::filesystem;

bool fail(std::string* error, const std::string& what, const std::string& path) {
  *error = fmt::format("cannot {} {}: {}", what, path, std::strerror(errno));
  return false;
}

// Not a sibling whose ownership a new file takes: qjt's and the queues'
// temp files ("~~" names) and hidden files (qjt's staging directories).
bool is_sibling_name(const std::string& name) { return !name.starts_with('.') && name.find("~~") == std::string::npos; }

std::size_t common_prefix(const std::string& a, const std::string& b) {
  return static_cast<std::size_t>(std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first - a.begin());
}

// The regular file beside `path` whose name shares the longest prefix with
// its name (the first by name among equals); "" when there is none.
std::string closest_sibling(const fs::path& path) {
  const std::string name = path.filename().string();
  std::string best;
  std::size_t best_prefix = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(path.parent_path().empty() ? "." : path.parent_path(), ec)) {
    const std::string sibling = entry.path().filename().string();
    if (!is_sibling_name(sibling) || !entry.is_regular_file(ec) || entry.is_symlink(ec)) continue;
    const std::size_t prefix = common_prefix(name, sibling);
    if (best.empty() || prefix > best_prefix || (prefix == best_prefix && sibling < fs::path(best).filename())) {
      best = entry.path().string();
      best_prefix = prefix;
    }
  }
  return best;
}

// Where the ownership kept at `path` comes from: `path` itself, else its
// closest sibling, else its directory (*from_directory set).
std::string ownership_source(const std::string& path, bool* from_directory) {
  *from_directory = false;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) return path;
  const fs::path p(path);
  if (std::string sibling = closest_sibling(p); !sibling.empty()) return sibling;
  *from_directory = true;
  return p.parent_path().empty() ? "." : p.parent_path().string();
}

// The attributes of `path` (none on a file system without them).
bool read_xattrs(const std::string& path, std::vector<std::pair<std::string, std::string>>* xattrs,
                 std::string* error) {
  const auto unsupported = [] { return errno == ENOTSUP; };
  ssize_t size = ::listxattr(path.c_str(), nullptr, 0);
  if (size < 0) return unsupported() || fail(error, "list the extended attributes of", path);
  std::string names(static_cast<std::size_t>(size), '\0');
  size = ::listxattr(path.c_str(), names.data(), names.size());
  if (size < 0) return fail(error, "list the extended attributes of", path);
  names.resize(static_cast<std::size_t>(size));
  for (std::size_t at = 0; at < names.size(); at = names.find('\0', at) + 1) {
    const std::string name = names.c_str() + at;
    ssize_t length = ::getxattr(path.c_str(), name.c_str(), nullptr, 0);
    std::string value(length > 0 ? static_cast<std::size_t>(length) : 0, '\0');
    if (length > 0) length = ::getxattr(path.c_str(), name.c_str(), value.data(), value.size());
    if (length < 0) return fail(error, fmt::format("read the extended attribute {} of", name), path);
    value.resize(static_cast<std::size_t>(length));
    xattrs->emplace_back(name, std::move(value));
  }
  return true;
}

// Whether the effective capabilities hold CAP_CHOWN (bit 0), which lets a
// process give a file to any user and group; without /proc, root's.
bool may_give_any_owner() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (!line.starts_with("CapEff:")) continue;
    return (std::strtoull(line.c_str() + 7, nullptr, 16) & 1U) != 0;
  }
  return ::geteuid() == 0;
}

bool in_own_groups(gid_t gid) {
  if (gid == ::getegid()) return true;
  const int count = ::getgroups(0, nullptr);
  std::vector<gid_t> groups(static_cast<std::size_t>(std::max(count, 0)));
  if (count <= 0 || ::getgroups(count, groups.data()) < 0) return false;
  return std::find(groups.begin(), groups.end(), gid) != groups.end();
}

}  // namespace

std::optional<FileOwnership> FileOwnership::kept_at(const std::string& path, std::string* error) {
  bool from_directory = false;
  const std::string source = ownership_source(path, &from_directory);
  struct stat st {};
  if (::stat(source.c_str(), &st) != 0) {
    fail(error, "read the owner of", source);
    return std::nullopt;
  }
  FileOwnership ownership;
  ownership.uid = st.st_uid;
  ownership.gid = st.st_gid;
  // A directory's execute bits let one enter it; a file does not need them.
  ownership.mode = st.st_mode & (from_directory ? 0666 : 07777);
  // Only the file replaced passes its attributes on: a new file gets the
  // ACL its directory's default gives and the label the policy gives.
  if (source == path && !read_xattrs(path, &ownership.xattrs, error)) return std::nullopt;
  return ownership;
}

bool FileOwnership::apply(int fd, const std::string& path, std::string* error) const {
  // Owner first: a change of owner may clear the set-id bits of the mode.
  if (::fchown(fd, uid, gid) != 0) return fail(error, fmt::format("give uid {} gid {}", uid, gid), path);
  if (::fchmod(fd, mode) != 0) return fail(error, fmt::format("set mode {:04o} on", mode), path);
  for (const auto& [name, value] : xattrs) {
    if (::fsetxattr(fd, name.c_str(), value.data(), value.size(), 0) == 0 || errno == ENOTSUP) continue;
    return fail(error, fmt::format("set the extended attribute {} on", name), path);
  }
  return true;
}

bool FileOwnership::apply_to(const std::string& path, std::string* error) const {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return fail(error, "open", path);
  const bool applied = apply(fd, path, error);
  ::close(fd);
  return applied;
}

bool can_keep_ownership(const std::string& path, std::string* error) {
  bool from_directory = false;
  const std::string source = ownership_source(path, &from_directory);
  struct stat st {};
  if (::stat(source.c_str(), &st) != 0) {
    // A directory the run makes first: its files are the running user's.
    return errno == ENOENT || fail(error, "read the owner of", source);
  }
  if (may_give_any_owner() || (st.st_uid == ::geteuid() && in_own_groups(st.st_gid))) return true;
  const std::string as = source == path ? "" : fmt::format(", as {} is", source);
  *error = fmt::format(
      "cannot keep the owner of {} (uid {} gid {}{}): qjt runs as uid {}, which cannot give a file to another user "
      "or group; run it as uid {} or as root (nothing was changed)",
      path, st.st_uid, st.st_gid, as, ::geteuid(), st.st_uid);
  return false;
}

}  // namespace qjt
