#include "run_context.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>

#include "progress.h"

namespace qjt {
namespace {

std::atomic<bool> stdout_written{false};

bool write_all(int fd, std::string_view bytes) {
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

class ProcessStreams : public OutputSink {
 public:
  bool write(Stream stream, std::string_view bytes) override {
    if (bytes.empty()) return true;
    const bool out = stream == Stream::kStdout;
    if (out) stdout_written.store(true, std::memory_order_relaxed);
    // No redraw of the progress line between its erasing and these bytes.
    const Progress::Hold hold;
    return write_all(out ? STDOUT_FILENO : STDERR_FILENO, bytes);
  }
};

thread_local RunContext* bound = nullptr;

}  // namespace

OutputSink& process_streams() {
  static ProcessStreams streams;
  return streams;
}

bool process_stdout_written() { return stdout_written.load(std::memory_order_relaxed); }

RunContext& RunContext::process() {
  static RunContext context(&process_streams(), RunSettings{});
  return context;
}

RunContext& RunContext::current() { return bound != nullptr ? *bound : process(); }

RunContext::Bind::Bind(RunContext* context) : before_(bound) { bound = context; }

RunContext::Bind::~Bind() { bound = before_; }

void write_stderr(std::string_view line) { RunContext::current().write(OutputSink::Stream::kStderr, line); }

}  // namespace qjt
