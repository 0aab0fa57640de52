#include "output.h"

#include <unistd.h>

#include <cerrno>

#include "progress.h"

namespace qjt {

namespace {
bool written = false;
}  // namespace

void Output::flush() {
  written = written || !buffer_.empty();
  if (!buffer_.empty()) Progress::clear();
  const char* p = buffer_.data();
  std::size_t left = buffer_.size();
  while (left > 0 && !failed_) {
    const ssize_t n = ::write(STDOUT_FILENO, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      failed_ = true;
      break;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  buffer_.clear();
}

bool stdout_is_terminal() { return ::isatty(STDOUT_FILENO) == 1; }

bool stdout_written() { return written; }

}  // namespace qjt
