#include "output.h"

#include <sys/stat.h>
#include <unistd.h>

#include "run_context.h"

namespace qjt {

void Output::flush() {
  if (!failed_ && !buffer_.empty()) failed_ = !RunContext::current().write(OutputSink::Stream::kStdout, buffer_);
  buffer_.clear();
}

bool stdout_is_terminal() { return ::isatty(STDOUT_FILENO) == 1; }

bool stdout_is_stderr_terminal() {
  struct stat out {
  }, err{};
  return stdout_is_terminal() && ::isatty(STDERR_FILENO) == 1 && ::fstat(STDOUT_FILENO, &out) == 0 &&
         ::fstat(STDERR_FILENO, &err) == 0 && out.st_rdev == err.st_rdev;
}

}  // namespace qjt
