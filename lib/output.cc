#include "output.h"

#include <unistd.h>

#include "run_context.h"

namespace qjt {

void Output::flush() {
  if (!failed_ && !buffer_.empty()) failed_ = !RunContext::current().write(OutputSink::Stream::kStdout, buffer_);
  buffer_.clear();
}

bool stdout_is_terminal() { return ::isatty(STDOUT_FILENO) == 1; }

}  // namespace qjt
