// Jobs: the units of work of one run (a queue, a channel, a file: the
// PATH groups dispatch forms), run several at once under -j N, with what
// they print as if they had run one after the other.
//
// Contract:
//  - run_jobs(count, workers, job) calls job(0) .. job(count - 1), each
//    once, on up to `workers` threads. With one worker, or one job, it
//    calls them in order on the calling thread and nothing else changes:
//    -j 1 is the run as it always was.
//  - Otherwise each job runs in a RunContext of its own (run_context.h):
//    a copy of the caller's settings, a sink that buffers what the job
//    writes. The calling thread writes the buffers to its own sink in job
//    order, each as soon as the jobs before it are done, so standard
//    output and standard error get the bytes -j 1 gives, and a long first
//    job streams while it runs. A job whose buffer holds kHoldLimit bytes
//    waits until it is the one being written: memory stays bounded.
//  - A job's input changes (InputFile::take_changes) join the caller's in
//    job order when it ends.
//  - A job that returns JobEnd::kStop ends the run there, as a failing
//    step of a serial run would: no later job starts, and what those
//    already running print is dropped.
//  - The workers run with SIGINT, SIGTERM and SIGHUP blocked
//    (BlockInterrupts), so the calling thread handles them, and the
//    handler cleans every job's tracked files (interrupt.h).
//  - Jobs share nothing but what is safe to share: the progress line
//    (progress.h), the interrupt tables, the failpoints' count. Two jobs
//    must never write the same file: dispatch runs a write command's jobs
//    one at a time when an option names an output of the whole run.
#pragma once

#include <cstddef>
#include <functional>

namespace qjt::cli {

enum class JobEnd { kGoOn, kStop };

// -j N as a count of workers: 0 is the machine's cores.
unsigned job_workers(unsigned requested);

// What one job may hold of its output before it waits for its turn.
inline constexpr std::size_t kHoldLimit = std::size_t{64} << 20;

struct JobsDone {
  std::size_t kept = 0;  // jobs 0 .. kept - 1 count; one that stopped the run is the last
  bool written = true;   // all they printed reached the caller's standard output
};

JobsDone run_jobs(std::size_t count, unsigned workers, const std::function<JobEnd(std::size_t)>& job);

}  // namespace qjt::cli
