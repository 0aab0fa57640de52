// Progress: one line on standard error, redrawn in place, that tells how
// far a long run is: the bytes and records read, the rate, the share of
// the inputs' total and an ETA where that total is known, and the bytes
// written.
//
// Contract:
//  - Off until main() turns it on (standard error a terminal, or
//    QJT_PROGRESS=always for tests; never with --quiet or --no-progress).
//    While off, every hook is one inline branch.
//  - The hooks: expect() when an input is opened (its size makes the
//    total), read() where bytes are read or records decoded, wrote() where
//    bytes are written (FileWriter::append). They never draw by themselves
//    more than once every kCheckEvery units: only then do they read the
//    clock.
//  - No hook runs per record: decoders count their records in a counter of
//    their own and report them in batches, with the bytes read: a decoder
//    that reads through a ReadWindow at each refill of the window
//    (read_window.h), one that walks a mapping once per ReadTally batch
//    (read_tally.h); the bytes of an input nothing counted are counted when
//    it is closed (InputFile). So the line's records lag the decoder by at
//    most a batch (a window that never reads, over bytes in memory: until
//    it goes), and with progress on or off a run does the same work per
//    record.
//  - One line per process: the jobs of a run under -j (lib/cli/jobs.h)
//    count into the same totals, from their own threads; the counters are
//    atomic, the drawing is one thread's at a time, and Pause is the
//    calling thread's alone.
//  - Nothing is drawn in the first second of a run (unless enable() says
//    at once), then at most ten times a second. A drawn line is "\r" + the
//    text + "clear to end of line"; clear() erases it, and whatever writes
//    a line to standard output or standard error calls clear() first
//    (Output, StderrReporter, report_error), and main() at the end, so no
//    line is ever written over it or left behind. A signal handler that
//    writes a line (interrupt.h) calls clear_from_signal_handler() instead.
#pragma once

#include <atomic>
#include <cstdint>

namespace qjt {

class Progress {
 public:
  // Turns progress on or off and starts the run's clock; `at_once` leaves
  // out the quiet first second (QJT_PROGRESS=always: tests, which must not
  // depend on how long a run takes).
  static void enable(bool on, bool at_once = false);

  static void expect(std::uint64_t bytes) {
    if (counting()) [[unlikely]]
      total_.fetch_add(bytes, std::memory_order_relaxed);
  }
  static void read(std::uint64_t bytes, std::uint64_t records) {
    if (counting()) [[unlikely]] {
      read_.fetch_add(bytes, std::memory_order_relaxed);
      records_.fetch_add(records, std::memory_order_relaxed);
      count(bytes + records * kRecordWeight);
    }
  }
  static void wrote(std::uint64_t bytes) {
    if (counting()) [[unlikely]] {
      written_.fetch_add(bytes, std::memory_order_relaxed);
      count(bytes);
    }
  }
  static void clear() {
    if (shown_.load(std::memory_order_relaxed)) [[unlikely]]
      erase();
  }
  // clear() for a signal handler: async-signal-safe (one write(2) to
  // standard error, nothing allocated). Leaves the line marked as shown:
  // the handler ends the process.
  static void clear_from_signal_handler();

  // While one lives, the hooks of this thread count nothing: for reads
  // that are no part of the work, such as a claim sniffing the first bytes
  // of a file.
  class Pause {
   public:
    Pause() : was_paused_(paused_) { paused_ = true; }
    ~Pause() { paused_ = was_paused_; }
    Pause(const Pause&) = delete;
    Pause& operator=(const Pause&) = delete;

   private:
    bool was_paused_;
  };

  // While one lives, the line is erased and no thread redraws it: for a
  // write to standard output or standard error (lib/run_context.h).
  class Hold {
   public:
    Hold();
    ~Hold();
    Hold(const Hold&) = delete;
    Hold& operator=(const Hold&) = delete;
  };

 private:
  // A record counts as this many bytes towards the next look at the clock.
  static constexpr std::uint64_t kRecordWeight = 64;
  static constexpr std::uint64_t kCheckEvery = 1 << 20;

  static bool counting() { return on_ && !paused_; }
  static void count(std::uint64_t units) {
    if (pending_.fetch_add(units, std::memory_order_relaxed) + units >= kCheckEvery) tick();
  }
  static void tick();
  static void erase();

  static inline bool on_ = false;  // set by main() before any job starts
  static inline thread_local bool paused_ = false;
  // Lock-free, so that a signal handler may read it.
  static inline std::atomic<bool> shown_ = false;
  static inline std::atomic<std::uint64_t> pending_ = 0;
  static inline std::atomic<std::uint64_t> total_ = 0, read_ = 0, records_ = 0, written_ = 0;
};

}  // namespace qjt
