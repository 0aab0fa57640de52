// Unit tests for lib/cli/jobs.h: jobs run on several threads print as if
// they ran one after the other, a job that stops the run stops it there,
// and what a job throws reaches the caller in its turn. Run also under
// ThreadSanitizer (QJT_TSAN, .ci/test).
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "jobs.h"
#include "run_context.h"

using namespace qjt;
using namespace qjt::cli;

namespace {

// Collects what the jobs print, in the order it reaches the caller.
class Collect final : public OutputSink {
 public:
  bool write(Stream stream, std::string_view bytes) override {
    (stream == Stream::kStdout ? out : err).append(bytes);
    return true;
  }
  std::string out, err;
};

// Each job prints its number on both streams, in pieces, later jobs
// faster than earlier ones, so that they end in reverse order.
JobEnd print_pieces(std::size_t i, std::size_t count) {
  std::this_thread::sleep_for(std::chrono::milliseconds(2 * (count - i)));
  auto& context = RunContext::current();
  for (int piece = 0; piece < 3; ++piece) {
    context.write(OutputSink::Stream::kStdout, std::to_string(i) + ".");
    context.write(OutputSink::Stream::kStderr, std::to_string(i) + "!");
  }
  return JobEnd::kGoOn;
}

// The run of `count` jobs on `workers` workers, into a context of its own.
Collect run_printing(std::size_t count, unsigned workers) {
  Collect collect;
  RunContext context(&collect, RunSettings{});
  const RunContext::Bind bind(&context);
  const JobsDone done = run_jobs(count, workers, [count](std::size_t i) { return print_pieces(i, count); });
  CHECK(done.kept == count);
  CHECK(done.written);
  return collect;
}

}  // namespace

TEST_CASE("jobs: the output of any number of workers is the output of one, in job order") {
  const Collect one = run_printing(12, 1);
  CHECK(one.out.substr(0, 12) == "0.0.0.1.1.1.");
  for (unsigned workers : {2U, 3U, 8U}) {
    const Collect many = run_printing(12, workers);
    CHECK(many.out == one.out);
    CHECK(many.err == one.err);
  }
}

TEST_CASE("jobs: a job that stops the run is the last one that counts") {
  for (unsigned workers : {1U, 2U, 4U}) {
    Collect collect;
    RunContext context(&collect, RunSettings{});
    const RunContext::Bind bind(&context);
    std::atomic<int> ran{0};
    const JobsDone done = run_jobs(10, workers, [&](std::size_t i) {
      ++ran;
      RunContext::current().write(OutputSink::Stream::kStdout, std::to_string(i));
      return i == 3 ? JobEnd::kStop : JobEnd::kGoOn;
    });
    CHECK(done.kept == 4);
    CHECK(collect.out == "0123");
    CHECK(ran.load() >= 4);
  }
}

TEST_CASE("jobs: each job has its own context with the caller's settings; its input changes join the caller's") {
  Collect collect;
  RunSettings settings;
  settings.quiet = true;
  RunContext context(&collect, settings);
  const RunContext::Bind bind(&context);
  std::vector<const RunContext*> seen(6, nullptr);
  run_jobs(6, 3, [&](std::size_t i) {
    RunContext& own = RunContext::current();
    seen[i] = &own;
    CHECK(own.settings().quiet);
    Finding change;
    change.file = std::to_string(i);
    own.input_changes().push_back(change);
    return JobEnd::kGoOn;
  });
  for (const RunContext* job : seen) CHECK(job != &context);
  REQUIRE(context.input_changes().size() == 6);
  for (std::size_t i = 0; i < 6; ++i) CHECK(context.input_changes()[i].file == std::to_string(i));
}

TEST_CASE("jobs: what a job throws is thrown to the caller after the jobs before it printed") {
  Collect collect;
  RunContext context(&collect, RunSettings{});
  const RunContext::Bind bind(&context);
  CHECK_THROWS_AS(run_jobs(5, 2,
                           [](std::size_t i) {
                             if (i == 2) throw std::runtime_error("job 2");
                             RunContext::current().write(OutputSink::Stream::kStdout, std::to_string(i));
                             return JobEnd::kGoOn;
                           }),
                  std::runtime_error);
  CHECK(collect.out == "01");
}

TEST_CASE("jobs: a job that prints more than it may hold waits for its turn, and nothing is lost") {
  Collect collect;
  RunContext context(&collect, RunSettings{});
  const RunContext::Bind bind(&context);
  const std::string block(1 << 20, 'x');
  const std::size_t blocks = kHoldLimit / block.size() + 8;
  run_jobs(3, 3, [&](std::size_t i) {
    if (i == 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    for (std::size_t b = 0; b < blocks; ++b) RunContext::current().write(OutputSink::Stream::kStdout, block);
    return JobEnd::kGoOn;
  });
  CHECK(collect.out.size() == 3 * blocks * block.size());
}

TEST_CASE("jobs: -j 0 is one worker per core") {
  CHECK(job_workers(0) >= 1);
  CHECK(job_workers(3) == 3);
}
