#include "jobs.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "interrupt.h"
#include "run_context.h"

namespace qjt::cli {
namespace {

using Stream = OutputSink::Stream;

// What one job printed and the caller has not yet written, in order.
class JobBuffer : public OutputSink {
 public:
  bool write(Stream stream, std::string_view bytes) override {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return held_ < kHoldLimit || dropped_; });
    if (dropped_) return true;
    if (stream == Stream::kStdout && refused_) return false;
    chunks_.emplace_back(stream, bytes);
    held_ += bytes.size();
    changed_.notify_all();
    return true;
  }

  // The job ended: no more chunks come.
  void close() {
    const std::lock_guard lock(mutex_);
    closed_ = true;
    changed_.notify_all();
  }

  // Drops what is held and what is still to come, and lets the job run on.
  void drop() {
    const std::lock_guard lock(mutex_);
    dropped_ = true;
    chunks_.clear();
    held_ = 0;
    changed_.notify_all();
  }

  // Writes the chunks to `sink` as they come, until the job has ended;
  // false when the sink refused standard output (later writes of the job
  // are refused too, as the caller's would be).
  bool drain(RunContext* sink) {
    bool written = true;
    std::unique_lock lock(mutex_);
    for (;;) {
      changed_.wait(lock, [this] { return !chunks_.empty() || closed_; });
      if (chunks_.empty()) return written;
      auto [stream, bytes] = std::move(chunks_.front());
      chunks_.pop_front();
      held_ -= bytes.size();
      changed_.notify_all();
      lock.unlock();
      const bool ok = sink->write(stream, bytes);
      lock.lock();
      if (!ok && stream == Stream::kStdout) refused_ = true, written = false;
    }
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::pair<Stream, std::string>> chunks_;
  std::size_t held_ = 0;
  bool closed_ = false, dropped_ = false, refused_ = false;
};

// One job: its buffer, its context, and how it ended.
struct Job {
  explicit Job(const RunSettings& settings) : context(&buffer, settings) {}
  JobBuffer buffer;
  RunContext context;
  JobEnd end = JobEnd::kGoOn;
  std::exception_ptr error;  // what it threw, thrown again in its turn
};

class Runner {
 public:
  Runner(std::size_t count, const std::function<JobEnd(std::size_t)>& job) : run_(job), parent_(RunContext::current()) {
    for (std::size_t i = 0; i < count; ++i) jobs_.push_back(std::make_unique<Job>(parent_.settings()));
  }

  JobsDone run(unsigned workers) {
    std::vector<std::thread> threads;
    {
      const BlockInterrupts block;  // the workers inherit it: signals go to this thread
      for (unsigned w = 0; w < workers; ++w) threads.emplace_back([this] { work(); });
    }
    JobsDone done;
    std::exception_ptr error;
    for (auto& job : jobs_) {
      if (stopped_) {
        job->buffer.drop();
        continue;
      }
      done.written = job->buffer.drain(&parent_) && done.written;
      ++done.kept;
      auto& changes = job->context.input_changes();
      parent_.input_changes().insert(parent_.input_changes().end(), changes.begin(), changes.end());
      if (job->end == JobEnd::kStop) stop();
      if (job->error) error = job->error;
    }
    for (std::thread& t : threads) t.join();
    if (error) std::rethrow_exception(error);
    return done;
  }

 private:
  void work() {
    for (;;) {
      const std::size_t i = next_.fetch_add(1);
      if (i >= jobs_.size() || stopped_) return;
      Job& job = *jobs_[i];
      {
        const RunContext::Bind bind(&job.context);
        try {
          job.end = run_(i);
        } catch (...) {  // as a serial run would, the run stops there (main() tells why)
          job.error = std::current_exception();
          job.end = JobEnd::kStop;
        }
      }
      job.buffer.close();
    }
  }

  // No job starts any more; those running print into the void.
  void stop() {
    stopped_ = true;
    next_.store(jobs_.size());
  }

  const std::function<JobEnd(std::size_t)>& run_;
  RunContext& parent_;
  std::vector<std::unique_ptr<Job>> jobs_;
  std::atomic<std::size_t> next_{0};
  std::atomic<bool> stopped_{false};
};

}  // namespace

unsigned job_workers(unsigned requested) {
  if (requested != 0) return requested;
  return std::max(1U, std::thread::hardware_concurrency());
}

JobsDone run_jobs(std::size_t count, unsigned workers, const std::function<JobEnd(std::size_t)>& job) {
  if (workers <= 1 || count <= 1) {
    JobsDone done;
    while (done.kept < count)
      if (job(done.kept++) == JobEnd::kStop) break;
    return done;
  }
  Runner runner(count, job);
  return runner.run(static_cast<unsigned>(std::min<std::size_t>(workers, count)));
}

}  // namespace qjt::cli
