// Guards for the commands that write: who else has the files open, and an
// advisory lock so two qjt runs never change one directory at once.
//
// Files are matched by device and inode, so any path spelling matches. The
// lock is flock(2) on the directory itself: qjt creates no lock file that
// the owning system could take for one of its own files.
#pragma once

#include <memory>
#include <optional>
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

// A process other than this one holding a lock on `path`: a POSIX record
// lock, which is what Java's FileChannel.tryLock takes on Flume's
// in_use.lock, or an OFD lock (both found with an F_GETLK write-lock probe,
// so exactly the locks that would make tryLock fail), else a flock(2) lock
// (from /proc/locks: tryLock does not conflict with it, but some process
// still claims the file). OFD locks carry no pid, so the holder named is
// then a process that has the file open (pid 0 when none can be seen).
// nullopt when no lock is held or `path` cannot be opened.
//
// The probe opens and closes `path`; under POSIX rules closing any
// descriptor of a file drops this process's own fcntl locks on it, so do not
// call it on a file this process has locked with fcntl.
std::optional<OpenFileHolder> find_lock_holder(const std::string& path);

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
