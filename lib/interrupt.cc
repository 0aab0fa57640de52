#include "interrupt.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <csignal>
#include <cstddef>
#include <cstring>

#include "progress.h"

namespace qjt {
namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

enum class Kind : char { kFree, kTemp, kCreatedFile, kCreatedDirectory };

struct Slot {
  Kind kind;
  unsigned owner;  // the thread that tracked it (thread_token)
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

// The jobs of a run under -j (lib/cli/jobs.h) share the tables. Their
// threads block the signals (BlockInterrupts), so the handler runs on the
// run's main thread; a thread changes the tables with the signals blocked
// in it and this lock held, and the handler takes the lock too, so it never
// sees a half-written slot. A spin lock on a lock-free flag: the one kind
// a handler may wait on.
std::atomic_flag g_tables_busy = ATOMIC_FLAG_INIT;

// The threads inside a commit section, and kStopping once the handler
// began: it waits for the sections under way to end, and no new one begins.
constexpr unsigned kStopping = 1U << 31;
std::atomic<unsigned> g_sections{0};
thread_local int t_section_depth = 0;
thread_local sigset_t t_mask_before_section;

unsigned thread_token() {
  static std::atomic<unsigned> next{0};
  thread_local const unsigned token = next++;
  return token;
}

// What async-signal-safe code may do while it waits for another thread.
void wait_a_moment() {
  const timespec moment{0, 1000000};
  ::nanosleep(&moment, nullptr);
}

void lock_tables() {
  while (g_tables_busy.test_and_set(std::memory_order_acquire)) wait_a_moment();
}

void unlock_tables() { g_tables_busy.clear(std::memory_order_release); }

sigset_t handled_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : kSignals) sigaddset(&set, sig);
  return set;
}

// The tables change with the signals blocked in the changing thread and
// the tables' lock held.
class Changing {
 public:
  Changing() {
    const sigset_t set = handled_signals();
    pthread_sigmask(SIG_BLOCK, &set, &before_);
    lock_tables();
  }
  ~Changing() {
    unlock_tables();
    pthread_sigmask(SIG_SETMASK, &before_, nullptr);
  }
  Changing(const Changing&) = delete;
  Changing& operator=(const Changing&) = delete;

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
  Changing changing;
  for (std::size_t i = 0; i < g_path_end; ++i) {
    if (g_paths[i].kind != Kind::kFree && path == g_paths[i].path) g_paths[i].kind = Kind::kFree;
  }
  if (g_path_end == kMaxPaths) compact_slots();
  if (g_path_end == kMaxPaths) return;
  Slot& slot = g_paths[g_path_end++];
  copy_text(slot.path, sizeof slot.path, path.c_str());
  slot.kind = kind;
  slot.owner = thread_token();
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

// Temp files always go, and what the run created that no commit kept
// (note_committed untracks what it keeps). Newest first, so that a
// directory is empty when its turn comes.
unsigned remove_tracked() {
  unsigned temps = 0;
  for (std::size_t i = g_path_end; i-- > 0;) {
    const Slot& slot = g_paths[i];
    if (slot.kind == Kind::kTemp) {
      if (::unlink(slot.path) == 0) ++temps;
    } else if (slot.kind == Kind::kCreatedFile) {
      ::unlink(slot.path);
    } else if (slot.kind == Kind::kCreatedDirectory) {
      ::rmdir(slot.path);
    }
  }
  return temps;
}

// Waits for the commit sections under way to end, and keeps any other
// from beginning.
void stop_commits() {
  g_sections.fetch_or(kStopping);
  while ((g_sections.load() & ~kStopping) != 0) wait_a_moment();
}

void on_signal(int sig) {
  stop_commits();
  lock_tables();  // kept: the process ends here
  const bool committed = g_committed[0] != '\0';
  const unsigned temps = remove_tracked();
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
  Changing changing;
  for (std::size_t i = 0; i < g_path_end; ++i) {
    if (g_paths[i].kind != Kind::kFree && path == g_paths[i].path) g_paths[i].kind = Kind::kFree;
  }
  while (g_path_end > 0 && g_paths[g_path_end - 1].kind == Kind::kFree) --g_path_end;
}

void track_lock(int fd) {
  Changing changing;
  if (g_lock_count < kMaxLocks) g_locks[g_lock_count++] = fd;
}

void untrack_lock(int fd) {
  Changing changing;
  for (std::size_t i = 0; i < g_lock_count; ++i) {
    if (g_locks[i] != fd) continue;
    g_locks[i] = g_locks[--g_lock_count];
    return;
  }
}

CommitSection::CommitSection() {
  const sigset_t set = handled_signals();
  sigset_t before;
  pthread_sigmask(SIG_BLOCK, &set, &before);
  if (t_section_depth++ > 0) return;
  t_mask_before_section = before;
  unsigned sections = g_sections.load();
  do {
    // The handler runs: this job's thread waits for the process to end.
    while ((sections & kStopping) != 0) ::pause();
  } while (!g_sections.compare_exchange_weak(sections, sections + 1));
}

CommitSection::~CommitSection() {
  if (--t_section_depth > 0) return;
  g_sections.fetch_sub(1);
  pthread_sigmask(SIG_SETMASK, &t_mask_before_section, nullptr);
}

void note_committed(const std::string& what) {
  Changing changing;
  copy_text(g_committed, sizeof g_committed, what.c_str());
  // What this thread created stands now; another job's is still its own.
  for (std::size_t i = 0; i < g_path_end; ++i)
    if ((g_paths[i].kind == Kind::kCreatedFile || g_paths[i].kind == Kind::kCreatedDirectory) &&
        g_paths[i].owner == thread_token())
      g_paths[i].kind = Kind::kFree;
  compact_slots();
}

BlockInterrupts::BlockInterrupts() {
  const sigset_t set = handled_signals();
  pthread_sigmask(SIG_BLOCK, &set, &before_);
}

BlockInterrupts::~BlockInterrupts() { pthread_sigmask(SIG_SETMASK, &before_, nullptr); }

void raise_interrupt(int sig) {
  sigset_t base;
  if (t_section_depth > 0) {
    base = t_mask_before_section;
  } else {
    pthread_sigmask(SIG_BLOCK, nullptr, &base);
  }
  if (!sigismember(&base, sig)) {
    std::raise(sig);  // handled here, now or when the commit section ends
    return;
  }
  // A job's thread: the run's main thread handles it.
  struct sigaction action {};
  sigaction(sig, nullptr, &action);
  if (action.sa_handler == SIG_IGN) return;
  ::kill(::getpid(), sig);
  if (t_section_depth == 0) {
    for (;;) ::pause();  // the handler ends the process
  }
}

}  // namespace qjt
