// Guards for the commands that write: who else has the files open, and an
// advisory lock so two qjt runs never change one directory at once.
//
// Files are matched by device and inode, so any path spelling matches. The
// lock is flock(2) on the directory itself: qjt creates no lock file that
// the owning system could take for one of its own files.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace qjt {

struct OpenFileHolder {
  int pid = 0;
  std::string command;  // from /proc/<pid>/cmdline (or comm)
  std::string path;     // which of the given files it holds
};

// Processes other than this one with any of `paths` open (/proc/*/fd and
// memory mappings). Processes whose /proc entries cannot be read are
// skipped, so run as the queue's owner or root to see them all.
std::vector<OpenFileHolder> find_open_holders(const std::vector<std::string>& paths);

// "pid 1234 (java -jar kestrel.jar) has /var/spool/kestrel/q open"
std::string describe_holder(const OpenFileHolder& holder);

class DirectoryLock {
 public:
  // Locks `dir` without waiting. On failure returns nullptr and sets *error:
  // naming the qjt process that holds the lock when /proc/locks tells.
  static std::unique_ptr<DirectoryLock> try_acquire(const std::string& dir, std::string* error);
  ~DirectoryLock();
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;

 private:
  explicit DirectoryLock(int fd) : fd_(fd) {}
  int fd_;
};

}  // namespace qjt
