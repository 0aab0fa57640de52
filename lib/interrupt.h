// Interrupts: what SIGINT, SIGTERM and SIGHUP do to a run.
//
// The handlers, installed once by main(), remove every path the run is
// tracking (its temp files, and what it created that is not kept yet: a
// backup, a new output directory), close the lock descriptors it holds,
// erase a drawn progress line (progress.h), print one line on standard
// error and end the process with 128 + the signal's number (130 for
// SIGINT):
//
//   qjt compact: interrupted by SIGINT; removed 1 temp file, nothing changed
//
// A commit (the renames and removals that install the new state, with their
// directory fsyncs) runs inside a CommitSection: the signals wait until it
// is over, so a run is stopped either before it changed anything or after
// the whole change. Once the new state is installed, the writer calls
// note_committed() inside the section, and the line says what was installed
// instead of "nothing changed".
//
// Everything the handler reads is preallocated here, and it calls only
// async-signal-safe functions (unlink, rmdir, close, write, nanosleep,
// _exit). The jobs of a run under -j share the tables (see
// BlockInterrupts). A signal
// ignored when qjt starts (SIGHUP under nohup) stays ignored.
#pragma once

#include <signal.h>

#include <string>

namespace qjt {

// Installs the handlers; the message names argv's command word.
void install_interrupt_handlers(int argc, char** argv);

// A temp file: removed on an interrupt, whatever was committed, until
// untrack_path (renamed into place, or removed).
void track_temp(const std::string& path);
// A file or directory this run made that stands only once the run commits
// (a backup, a new output directory): removed on an interrupt before
// note_committed, kept after. Directories are removed only when empty, after
// the files tracked since.
void track_created(const std::string& path, bool directory = false);
void untrack_path(const std::string& path);

// A lock held through `fd` (flock), closed by the handler before it prints.
void track_lock(int fd);
void untrack_lock(int fd);

// Blocks the three signals for its lifetime (sections nest); a signal that
// arrived meanwhile is handled when the outermost section ends. Under -j,
// the handler waits for every job's section under way to end, and a job
// that would begin one once the handler runs waits for the process to end.
class CommitSection {
 public:
  CommitSection();
  ~CommitSection();
  CommitSection(const CommitSection&) = delete;
  CommitSection& operator=(const CommitSection&) = delete;
};

// The new state is installed: from now on an interrupt says `what` (a
// clause: "the new journal orders was installed, backup in DIR") instead of
// "nothing changed", and the paths this thread tracked with track_created
// are kept (another job's are still its own).
void note_committed(const std::string& what);

// Blocks the three signals in the calling thread while it lives: a thread
// started meanwhile inherits the block for its whole life, which leaves
// the signals to the run's main thread (the jobs of -j, lib/cli/jobs.h).
class BlockInterrupts {
 public:
  BlockInterrupts();
  ~BlockInterrupts();
  BlockInterrupts(const BlockInterrupts&) = delete;
  BlockInterrupts& operator=(const BlockInterrupts&) = delete;

 private:
  sigset_t before_;
};

// Sends `sig` (SIGINT, SIGTERM, SIGHUP) as if it came from outside, for a
// failpoint (failpoint.h): on the main thread it is handled at once, or
// when the commit section under way ends; from a job's thread, the main
// thread handles it, and outside a commit section the job waits for the
// process to end.
void raise_interrupt(int sig);

}  // namespace qjt
