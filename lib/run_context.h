// RunContext: the state of one run of a command, or of one job of a run
// under -j (lib/cli/jobs.h), that used to live in process-wide statics:
// where its standard output and standard error go, its display settings
// (quiet, colour, local time and its zone, big numbers, folded findings,
// JSON errors, the stream limit), and the inputs it has open with the changes they saw.
//
// Contract:
//  - main() fills the process's context (RunContext::process()) from the
//    command line before the command runs; nothing changes its settings
//    afterwards.
//  - A job gets a context of its own, a copy of its parent's settings with
//    a sink of its own, bound to the thread that runs it (Bind). The code
//    below a command reaches the context of the job it runs in through
//    current(): a thread bound to none is the process's.
//  - What stays per process, by its nature: the progress line (progress.h,
//    one line on one terminal, its counters the run's totals), the signal
//    handlers and their tables (interrupt.h), the failpoints' count
//    (failpoint.h, which counts the steps of the whole run) and the guard
//    of mapped files (mapping_guard.h). Each is safe to use from several
//    jobs at once.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "colour.h"
#include "finding.h"
#include "time_zone.h"

namespace qjt {

class InputFile;

// How a run reads and shows what it does: set from the command line, the
// same for every job of the run.
struct RunSettings {
  bool quiet = false;  // --quiet: only errors on standard error
  ColourMode colour = ColourMode::kAuto;
  bool local_time = false;                              // --local-time
  std::optional<TimeZone> local_zone{};                 // --tz: typed and shown local times; else the machine's
  bool big_numbers_as_strings = false;                  // --json-big-numbers=string
  bool all_findings = false;                            // --all-findings: none folded
  bool json_errors = false;                             // --json: errors as JSON objects too
  std::uint64_t stream_limit = std::uint64_t{4} << 30;  // --max-input (InputFile::kDefaultStreamLimit)
  unsigned jobs = 1;                                    // -j: jobs at once (lib/cli/jobs.h); 0, as many as cores
  std::optional<unsigned> max_depth{};                  // --max-depth: how deep a walk of PATHs goes (path_walk.h)
  std::vector<std::string> excluded{};                  // --exclude GLOB: what a walk passes over (path_walk.h)
};

// Where a run's output goes: the process's standard streams, or a job's
// buffer (lib/cli/jobs.h).
class OutputSink {
 public:
  enum class Stream { kStdout, kStderr };
  virtual ~OutputSink() = default;
  // Writes all of `bytes`; false when the stream refused them (a full
  // disk, a closed pipe).
  virtual bool write(Stream stream, std::string_view bytes) = 0;
};

// The process's standard output and standard error, unbuffered (Output
// buffers): each write first clears the progress line.
OutputSink& process_streams();

// True once anything was written to the process's standard output: what
// lets main() keep the promise that --json always gives JSON.
bool process_stdout_written();

class RunContext {
 public:
  RunContext(OutputSink* sink, const RunSettings& settings) : settings_(settings), sink_(sink) {}
  RunContext(const RunContext&) = delete;
  RunContext& operator=(const RunContext&) = delete;

  // The context of the whole run, whose sink is the process's streams.
  static RunContext& process();
  // The context of the job this thread runs, else the process's.
  static RunContext& current();

  // Binds `context` to the calling thread for its lifetime (they nest).
  class Bind {
   public:
    explicit Bind(RunContext* context);
    ~Bind();
    Bind(const Bind&) = delete;
    Bind& operator=(const Bind&) = delete;

   private:
    RunContext* before_;
  };

  const RunSettings& settings() const { return settings_; }
  RunSettings& settings() { return settings_; }

  bool write(OutputSink::Stream stream, std::string_view bytes) { return sink_->write(stream, bytes); }

  // The inputs open now, and the changes of those already closed
  // (InputFile: take_changes).
  std::vector<const InputFile*>& open_inputs() { return open_inputs_; }
  std::vector<Finding>& input_changes() { return input_changes_; }

 private:
  RunSettings settings_;
  OutputSink* sink_;
  std::vector<const InputFile*> open_inputs_;
  std::vector<Finding> input_changes_;
};

// One line (its newline included) on the current run's standard error.
void write_stderr(std::string_view line);

}  // namespace qjt
