// qjt_faults.so: an LD_PRELOAD shim that makes one file-system call fail,
// to prove that every writing command cleans up and reports an I/O error
// (exit 3) whichever step fails.
//
// The eligible calls are write on a regular file (never standard output or
// error, nor a pipe), fsync, fdatasync, ftruncate, rename, renameat, renameat2, link,
// linkat, unlink, unlinkat and mkdir, restricted to the comma-separated
// names in QJT_FAULT_OPS when it is set. Environment:
//
//   QJT_FAULT_AT=N       the N-th eligible call (from 1) fails
//   QJT_FAULT_ERRNO=E    ENOSPC, EIO or EDQUOT: the call fails with E;
//                        SHORT: a write writes half (at least 1 byte) and
//                        says so, which a correct writer must retry
//   QJT_FAULT_COUNT=F    at exit, the number of eligible calls is appended
//                        to F (a test runs once to learn its total)
//   QJT_FAULT_LOG=F      the failed call, "OP PATH", is written to F
//
// The shim's own files are written through the real calls, uncounted.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static long calls;
static long fault_at = -1;
static int fault_errno;  // 0: SHORT
static const char* ops;

static void load(void) __attribute__((constructor));
static void load(void) {
  const char* at = getenv("QJT_FAULT_AT");
  if (at) fault_at = atol(at);
  const char* e = getenv("QJT_FAULT_ERRNO");
  fault_errno = !e || strcmp(e, "ENOSPC") == 0 ? ENOSPC
                : strcmp(e, "EIO") == 0        ? EIO
                : strcmp(e, "EDQUOT") == 0     ? EDQUOT
                                               : 0;
  ops = getenv("QJT_FAULT_OPS");
}

static void* real(const char* name) { return dlsym(RTLD_NEXT, name); }

// Writes `text` to the file named by `env` through the real calls.
static void put(const char* env, const char* text) {
  const char* path = getenv(env);
  if (!path) return;
  int (*real_open)(const char*, int, ...) = real("open");
  ssize_t (*real_write)(int, const void*, size_t) = real("write");
  const int fd = real_open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;
  real_write(fd, text, strlen(text));
  close(fd);
}

static void report(void) __attribute__((destructor));
static void report(void) {
  char text[32];
  snprintf(text, sizeof text, "%ld\n", calls);
  put("QJT_FAULT_COUNT", text);
}

static int wanted(const char* op) {
  if (!ops) return 1;
  const size_t n = strlen(op);
  for (const char* p = strstr(ops, op); p; p = strstr(p + 1, op)) {
    if ((p == ops || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) return 1;
  }
  return 0;
}

// Counts an eligible call; true when this one is to fail.
static int hit(const char* op, const char* path) {
  if (!wanted(op)) return 0;
  if (++calls != fault_at) return 0;
  char line[4200];
  snprintf(line, sizeof line, "%s %s\n", op, path);
  put("QJT_FAULT_LOG", line);
  return 1;
}

static const char* fd_path(int fd, char* buf, size_t size) {
  char link[64];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  const ssize_t n = readlink(link, buf, size - 1);
  buf[n < 0 ? 0 : n] = '\0';
  return buf;
}

// A call on fd `fd` fails with the chosen errno (and returns nonzero).
static int fd_fault(const char* op, int fd) {
  char path[4096];
  if (!hit(op, fd_path(fd, path, sizeof path))) return 0;
  errno = fault_errno ? fault_errno : EIO;
  return 1;
}

ssize_t write(int fd, const void* data, size_t size) {
  static ssize_t (*next)(int, const void*, size_t);
  if (!next) next = real("write");
  struct stat st;
  if (fd > 2 && size > 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    char path[4096];
    if (hit("write", fd_path(fd, path, sizeof path))) {
      if (!fault_errno) return next(fd, data, size > 1 ? size / 2 : 1);
      errno = fault_errno;
      return -1;
    }
  }
  return next(fd, data, size);
}

int fsync(int fd) {
  static int (*next)(int);
  if (!next) next = real("fsync");
  return fd_fault("fsync", fd) ? -1 : next(fd);
}

int fdatasync(int fd) {
  static int (*next)(int);
  if (!next) next = real("fdatasync");
  return fd_fault("fdatasync", fd) ? -1 : next(fd);
}

int ftruncate(int fd, off_t length) {
  static int (*next)(int, off_t);
  if (!next) next = real("ftruncate");
  return fd_fault("ftruncate", fd) ? -1 : next(fd, length);
}

// A call on `path` fails with the chosen errno (and returns nonzero).
static int path_fault(const char* op, const char* path) {
  if (!hit(op, path)) return 0;
  errno = fault_errno ? fault_errno : EIO;
  return 1;
}

int rename(const char* from, const char* to) {
  static int (*next)(const char*, const char*);
  if (!next) next = real("rename");
  return path_fault("rename", to) ? -1 : next(from, to);
}

int renameat(int from_dir, const char* from, int to_dir, const char* to) {
  static int (*next)(int, const char*, int, const char*);
  if (!next) next = real("renameat");
  return path_fault("renameat", to) ? -1 : next(from_dir, from, to_dir, to);
}

int renameat2(int from_dir, const char* from, int to_dir, const char* to, unsigned int flags) {
  static int (*next)(int, const char*, int, const char*, unsigned int);
  if (!next) next = real("renameat2");
  return path_fault("renameat2", to) ? -1 : next(from_dir, from, to_dir, to, flags);
}

int link(const char* from, const char* to) {
  static int (*next)(const char*, const char*);
  if (!next) next = real("link");
  return path_fault("link", to) ? -1 : next(from, to);
}

int linkat(int from_dir, const char* from, int to_dir, const char* to, int flags) {
  static int (*next)(int, const char*, int, const char*, int);
  if (!next) next = real("linkat");
  return path_fault("linkat", to) ? -1 : next(from_dir, from, to_dir, to, flags);
}

int unlink(const char* path) {
  static int (*next)(const char*);
  if (!next) next = real("unlink");
  return path_fault("unlink", path) ? -1 : next(path);
}

int unlinkat(int dir, const char* path, int flags) {
  static int (*next)(int, const char*, int);
  if (!next) next = real("unlinkat");
  return path_fault("unlinkat", path) ? -1 : next(dir, path, flags);
}

int mkdir(const char* path, mode_t mode) {
  static int (*next)(const char*, mode_t);
  if (!next) next = real("mkdir");
  return path_fault("mkdir", path) ? -1 : next(path, mode);
}
