// Output: buffered writing of command results to standard output.
//
// Data goes to stdout, diagnostics to stderr. A write error on stdout (a
// full disk, a closed pipe) is remembered so the command can exit with the
// I/O status instead of pretending it printed everything. The bytes go to
// the current run's sink (run_context.h): the process's standard output,
// or, under -j, the job's buffer; a progress line on the terminal
// (progress.h) is cleared before anything reaches the terminal.
#pragma once

#include <string>
#include <string_view>

namespace qjt {

class Output {
 public:
  Output() { buffer_.reserve(kFlushAt * 2); }
  ~Output() { flush(); }
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;

  // The buffer to append to; call commit() after appending.
  std::string* buffer() { return &buffer_; }
  void commit() {
    if (buffer_.size() >= kFlushAt) flush();
  }
  void write(std::string_view text) {
    buffer_.append(text);
    commit();
  }
  void flush();
  bool failed() const { return failed_; }

 private:
  static constexpr std::size_t kFlushAt = 1 << 16;
  std::string buffer_;
  bool failed_ = false;
};

// True when standard output is a terminal.
bool stdout_is_terminal();
// True when standard output and standard error are the same terminal: a
// line of the report on standard output is before the user's eyes there
// already, and needs no copy on standard error.
bool stdout_is_stderr_terminal();

}  // namespace qjt
