#include "in_use.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>

#include <fmt/format.h>

#include "interrupt.h"

namespace qjt {
namespace {

namespace fs = std::filesystem;
using FileId = std::pair<dev_t, ino_t>;

std::string process_command(const std::string& pid) {
  std::ifstream cmdline("/proc/" + pid + "/cmdline", std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
  for (char& c : text)
    if (c == '\0') c = ' ';
  while (!text.empty() && text.back() == ' ') text.pop_back();
  if (!text.empty()) return text.size() > 120 ? text.substr(0, 117) + "..." : text;
  std::ifstream comm("/proc/" + pid + "/comm");
  std::getline(comm, text);
  return text;
}

// Files mapped into the process, by the "dev inode" columns of its maps.
void scan_maps(const std::string& pid, const std::map<FileId, std::string>& wanted,
               std::vector<OpenFileHolder>* holders) {
  std::ifstream maps("/proc/" + pid + "/maps");
  std::string line;
  while (std::getline(maps, line)) {
    std::istringstream fields(line);
    std::string range, perms, offset, dev;
    unsigned long inode = 0;
    if (!(fields >> range >> perms >> offset >> dev >> inode) || inode == 0) continue;
    unsigned major_no = 0, minor_no = 0;
    if (std::sscanf(dev.c_str(), "%x:%x", &major_no, &minor_no) != 2) continue;
    const auto it = wanted.find({makedev(major_no, minor_no), static_cast<ino_t>(inode)});
    if (it != wanted.end()) {
      holders->push_back(OpenFileHolder{std::stoi(pid), process_command(pid), it->second});
      return;
    }
  }
}

}  // namespace

std::vector<OpenFileHolder> find_open_holders(const std::vector<std::string>& paths) {
  std::map<FileId, std::string> wanted;
  for (const auto& path : paths) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) wanted[{st.st_dev, st.st_ino}] = path;
  }
  std::vector<OpenFileHolder> holders;
  if (wanted.empty()) return holders;
  const std::string self = std::to_string(::getpid());
  std::error_code ec;
  for (fs::directory_iterator proc("/proc", ec), end; !ec && proc != end; proc.increment(ec)) {
    const std::string pid = proc->path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos || pid == self) continue;
    const std::size_t before = holders.size();
    std::error_code fd_ec;
    for (fs::directory_iterator fd(proc->path() / "fd", fd_ec), fd_end; !fd_ec && fd != fd_end; fd.increment(fd_ec)) {
      struct stat st {};
      if (::stat(fd->path().c_str(), &st) != 0) continue;
      const auto it = wanted.find({st.st_dev, st.st_ino});
      if (it != wanted.end()) {
        holders.push_back(OpenFileHolder{std::stoi(pid), process_command(pid), it->second});
        break;
      }
    }
    if (holders.size() == before) scan_maps(pid, wanted, &holders);
  }
  return holders;
}

std::string describe_holder(const OpenFileHolder& holder) {
  return fmt::format("pid {} ({}) has {} open", holder.pid, holder.command, holder.path);
}

namespace {

// The pid of another process's flock(2) lock on (dev, ino) in /proc/locks
// ("1: FLOCK ADVISORY WRITE 1234 fd:01:5678 0 EOF"), 0 when there is none.
// fcntl's F_GETLK does not see these. Blocked waiters ("1: -> ...") hold
// nothing and are skipped.
int flock_holder(const struct stat& st) {
  std::ifstream locks("/proc/locks");
  const std::string self = std::to_string(::getpid());
  std::string line;
  while (std::getline(locks, line)) {
    std::istringstream fields(line);
    std::string id, kind, mode, access, pid, file;
    if (!(fields >> id >> kind >> mode >> access >> pid >> file)) continue;
    if (kind != "FLOCK" || pid == self) continue;
    unsigned major_no = 0, minor_no = 0;
    unsigned long inode = 0;
    if (std::sscanf(file.c_str(), "%x:%x:%lu", &major_no, &minor_no, &inode) != 3) continue;
    if (inode != st.st_ino || makedev(major_no, minor_no) != st.st_dev) continue;
    try {
      return std::stoi(pid);
    } catch (...) {
      continue;
    }
  }
  return 0;
}

OpenFileHolder holder_with_file_open(const std::string& path) {
  const auto holders = find_open_holders({path});
  if (!holders.empty()) return holders.front();
  return OpenFileHolder{0, "unknown process", path};
}

}  // namespace

std::optional<OpenFileHolder> find_lock_holder(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  const bool have_stat = ::fstat(fd, &st) == 0;
  struct flock probe {};
  probe.l_type = F_WRLCK;  // what Java's exclusive tryLock asks for
  probe.l_whence = SEEK_SET;
  probe.l_start = 0;
  probe.l_len = 0;  // the whole file
  const bool probed = ::fcntl(fd, F_GETLK, &probe) == 0;
  ::close(fd);
  if (probed && probe.l_type != F_UNLCK) {
    if (probe.l_pid > 0) {
      const std::string pid = std::to_string(probe.l_pid);
      return OpenFileHolder{probe.l_pid, process_command(pid), path};
    }
    return holder_with_file_open(path);  // an OFD lock: l_pid is -1
  }
  if (!have_stat) return std::nullopt;
  const int pid = flock_holder(st);
  if (pid > 0) return OpenFileHolder{pid, process_command(std::to_string(pid)), path};
  return std::nullopt;
}

std::unique_ptr<DirectoryLock> DirectoryLock::try_acquire(const std::string& dir, std::string* error) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    *error = fmt::format("cannot open directory {}: {}", dir, std::strerror(errno));
    return nullptr;
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
    track_lock(fd);  // an interrupt releases it before its message
    return std::unique_ptr<DirectoryLock>(new DirectoryLock(fd));
  }
  const int err = errno;
  struct stat st {};
  ::fstat(fd, &st);
  ::close(fd);
  if (err != EWOULDBLOCK) {
    *error = fmt::format("cannot lock {}: {}", dir, std::strerror(err));
    return nullptr;
  }
  // /proc/locks: "1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF"
  std::ifstream locks("/proc/locks");
  std::string line;
  std::string who = "another qjt";
  while (std::getline(locks, line)) {
    std::istringstream fields(line);
    std::string id, kind, mode, access, pid, file;
    if (!(fields >> id >> kind >> mode >> access >> pid >> file) || kind != "FLOCK") continue;
    unsigned major_no = 0, minor_no = 0;
    unsigned long inode = 0;
    if (std::sscanf(file.c_str(), "%x:%x:%lu", &major_no, &minor_no, &inode) == 3 && inode == st.st_ino &&
        makedev(major_no, minor_no) == st.st_dev) {
      who = fmt::format("pid {} ({})", pid, process_command(pid));
      break;
    }
  }
  *error = fmt::format("{} is changing {} (it holds qjt's lock on the directory)", who, dir);
  return nullptr;
}

DirectoryLock::~DirectoryLock() {
  untrack_lock(fd_);
  ::close(fd_);
}

}  // namespace qjt
