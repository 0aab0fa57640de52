#include "interrupt.h"

#include <signal.h>
#include <unistd.h>

#include <climits>
#include <cstddef>
#include <cstring>

#include "progress.h"

namespace qjt {
namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

enum class Kind : char { kFree, kTemp, kCreatedFile, kCreatedDirectory };

struct Slot {
  Kind kind;
  char path[PATH_MAX];
};

// Preallocated, so that the handler reads plain memory. A path that does
// not fit (a table full of live entries, a path over PATH_MAX) goes
// untracked: it is left behind as before, which is all that can go wrong.
constexpr std::size_t kMaxPaths = 128;
constexpr std::size_t kMaxLocks = 32;
Slot g_paths[kMaxPaths];
std::size_t g_path_end = 0;  // slots in use are below; kept in tracking order
int g_locks[kMaxLocks];
std::size_t g_lock_count = 0;
char g_command[64] = "qjt";
char g_committed[2 * PATH_MAX];  // "" until note_committed
int g_section_depth = 0;
sigset_t g_mask_before_section;

sigset_t handled_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : kSignals) sigaddset(&set, sig);
  return set;
}

// The tables change with the signals blocked: the handler never sees a
// half-written slot.
class Blocked {
 public:
  Blocked() {
    const sigset_t set = handled_signals();
    sigprocmask(SIG_BLOCK, &set, &before_);
  }
  ~Blocked() { sigprocmask(SIG_SETMASK, &before_, nullptr); }

 private:
  sigset_t before_;
};

void copy_text(char* to, std::size_t capacity, const char* from) {
  std::strncpy(to, from, capacity - 1);
  to[capacity - 1] = '\0';
}

// Frees the slots of kept paths, keeping the order of the others.
void compact_slots() {
  std::size_t end = 0;
  for (std::size_t i = 0; i < g_path_end; ++i)
    if (g_paths[i].kind != Kind::kFree) g_paths[end++] = g_paths[i];
  g_path_end = end;
}

void track(const std::string& path, Kind kind) {
  if (path.size() >= PATH_MAX) return;
  Blocked blocked;
  for (std::size_t i = 0; i < g_path_end; ++i) {
    if (g_paths[i].kind != Kind::kFree && path == g_paths[i].path) g_paths[i].kind = Kind::kFree;
  }
  if (g_path_end == kMaxPaths) compact_slots();
  if (g_path_end == kMaxPaths) return;
  Slot& slot = g_paths[g_path_end++];
  copy_text(slot.path, sizeof slot.path, path.c_str());
  slot.kind = kind;
}

// ---- the handler: async-signal-safe calls and plain memory only ------------

class Line {
 public:
  void add(const char* text) {
    while (*text != '\0' && size_ < sizeof text_ - 1) text_[size_++] = *text++;
  }
  void add(unsigned n) {
    char digits[16];
    char* first = digits + sizeof digits;
    *--first = '\0';
    do {
      *--first = static_cast<char>('0' + n % 10);
      n /= 10;
    } while (n > 0);
    add(first);
  }
  void write_out() {
    text_[size_++] = '\n';
    const char* p = text_;
    std::size_t left = size_;
    while (left > 0) {
      const ssize_t n = ::write(STDERR_FILENO, p, left);
      if (n <= 0) return;
      p += n;
      left -= static_cast<std::size_t>(n);
    }
  }

 private:
  char text_[sizeof g_committed + 256];
  std::size_t size_ = 0;
};

const char* signal_name(int sig) {
  switch (sig) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "SIGHUP";
  }
}

// Temp files always go; what the run created goes only while nothing is
// committed. Newest first, so that a directory is empty when its turn comes.
unsigned remove_tracked(bool committed) {
  unsigned temps = 0;
  for (std::size_t i = g_path_end; i-- > 0;) {
    const Slot& slot = g_paths[i];
    if (slot.kind == Kind::kTemp) {
      if (::unlink(slot.path) == 0) ++temps;
    } else if (slot.kind == Kind::kCreatedFile && !committed) {
      ::unlink(slot.path);
    } else if (slot.kind == Kind::kCreatedDirectory && !committed) {
      ::rmdir(slot.path);
    }
  }
  return temps;
}

void on_signal(int sig) {
  const bool committed = g_committed[0] != '\0';
  const unsigned temps = remove_tracked(committed);
  for (std::size_t i = 0; i < g_lock_count; ++i) ::close(g_locks[i]);
  Line line;
  line.add(g_command);
  line.add(": interrupted by ");
  line.add(signal_name(sig));
  if (committed) {
    line.add(" after ");
    line.add(g_committed);
  }
  if (temps > 0) {
    line.add("; removed ");
    line.add(temps);
    line.add(temps == 1 ? " temp file" : " temp files");
  }
  if (!committed) line.add(temps > 0 ? ", nothing changed" : "; nothing changed");
  Progress::clear_from_signal_handler();  // the line starts on a clean line
  line.write_out();
  ::_exit(128 + sig);
}

}  // namespace

void install_interrupt_handlers(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '-') continue;
    copy_text(g_command + 4, sizeof g_command - 4, argv[i]);
    g_command[3] = ' ';
    break;
  }
  struct sigaction action {};
  action.sa_handler = on_signal;
  action.sa_mask = handled_signals();  // one handler at a time
  for (int sig : kSignals) {
    struct sigaction before {};
    sigaction(sig, nullptr, &before);
    if (before.sa_handler == SIG_IGN) continue;  // nohup's SIGHUP, say
    sigaction(sig, &action, nullptr);
  }
}

void track_temp(const std::string& path) { track(path, Kind::kTemp); }

void track_created(const std::string& path, bool directory) {
  track(path, directory ? Kind::kCreatedDirectory : Kind::kCreatedFile);
}

void untrack_path(const std::string& path) {
  Blocked blocked;
  for (std::size_t i = 0; i < g_path_end; ++i) {
    if (g_paths[i].kind != Kind::kFree && path == g_paths[i].path) g_paths[i].kind = Kind::kFree;
  }
  while (g_path_end > 0 && g_paths[g_path_end - 1].kind == Kind::kFree) --g_path_end;
}

void track_lock(int fd) {
  Blocked blocked;
  if (g_lock_count < kMaxLocks) g_locks[g_lock_count++] = fd;
}

void untrack_lock(int fd) {
  Blocked blocked;
  for (std::size_t i = 0; i < g_lock_count; ++i) {
    if (g_locks[i] != fd) continue;
    g_locks[i] = g_locks[--g_lock_count];
    return;
  }
}

CommitSection::CommitSection() {
  const sigset_t set = handled_signals();
  sigset_t before;
  sigprocmask(SIG_BLOCK, &set, &before);
  if (g_section_depth++ == 0) g_mask_before_section = before;
}

CommitSection::~CommitSection() {
  if (--g_section_depth == 0) sigprocmask(SIG_SETMASK, &g_mask_before_section, nullptr);
}

void note_committed(const std::string& what) {
  Blocked blocked;
  copy_text(g_committed, sizeof g_committed, what.c_str());
  for (std::size_t i = 0; i < g_path_end; ++i)
    if (g_paths[i].kind == Kind::kCreatedFile || g_paths[i].kind == Kind::kCreatedDirectory)
      g_paths[i].kind = Kind::kFree;
  compact_slots();
}

}  // namespace qjt
