// LineInput: JSON Lines input for `qjt convert`, read one line at a time
// from a file or standard input ("-") in 64 KiB reads, so memory stays
// bounded by the longest line, with each line's byte offset for findings.
// Standard input, a pipe, a FIFO or a device is read no further than the
// stream limit (--max-input, InputFile::stream_limit): past it, the input
// fails with EFBIG, so an endless stream (/dev/zero: one endless line) is
// an I/O error instead of exhausted memory.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "input_file.h"

namespace qjt::cli {

class LineInput {
 public:
  static constexpr std::size_t kChunk = 1 << 16;

  static std::unique_ptr<LineInput> open(const std::string& path, std::string* error) {
    if (path == "-") return std::unique_ptr<LineInput>(new LineInput(STDIN_FILENO, false, limit_of(STDIN_FILENO)));
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      *error = open_failure(path, errno).message;
      return nullptr;
    }
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
      ::close(fd);
      *error = fmt::format("cannot read {}: it is a directory", path);
      return nullptr;
    }
    return std::unique_ptr<LineInput>(new LineInput(fd, true, limit_of(fd)));
  }
  ~LineInput() {
    if (owned_) ::close(fd_);
  }

  // The next line without its newline, and the byte offset where it
  // starts. False at the end of the input or on a read error (see failed()).
  // The view stays valid until the next call.
  bool next(std::string_view* line, std::uint64_t* offset) {
    for (;;) {
      const auto newline = buffer_.find('\n', scan_);
      if (newline != std::string::npos) return take(newline, newline + 1, line, offset);
      scan_ = buffer_.size();
      if (eof_) return start_ < buffer_.size() && take(buffer_.size(), buffer_.size(), line, offset);
      if (!fill()) return false;
    }
  }
  bool failed() const { return failed_; }
  int error_number() const { return errno_; }

 private:
  LineInput(int fd, bool owned, std::uint64_t limit) : fd_(fd), owned_(owned), limit_(limit) {}

  static std::uint64_t limit_of(int fd) {
    struct stat st {};
    const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    return regular ? UINT64_MAX : InputFile::stream_limit();
  }

  bool take(std::size_t end, std::size_t next_start, std::string_view* line, std::uint64_t* offset) {
    *line = std::string_view(buffer_).substr(start_, end - start_);
    *offset = buffer_offset_ + start_;
    start_ = scan_ = next_start;
    return true;
  }
  bool fill() {
    if (start_ > 0) {
      buffer_.erase(0, start_);
      buffer_offset_ += start_;
      scan_ -= start_;
      start_ = 0;
    }
    const std::size_t old = buffer_.size();
    if (buffer_offset_ + old > limit_) {
      errno_ = EFBIG;
      failed_ = true;
      return false;
    }
    buffer_.resize(old + kChunk);
    for (;;) {
      const ssize_t n = ::read(fd_, buffer_.data() + old, kChunk);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        errno_ = errno;
        failed_ = true;
        buffer_.resize(old);
        return false;
      }
      buffer_.resize(old + static_cast<std::size_t>(n));
      eof_ = n == 0;
      return true;
    }
  }

  int fd_;
  bool owned_;
  std::uint64_t limit_;  // of a stream; no limit for a regular file
  std::string buffer_;
  std::size_t start_ = 0;            // of the next line in buffer_
  std::size_t scan_ = 0;             // where the search for '\n' resumes
  std::uint64_t buffer_offset_ = 0;  // input offset of buffer_[0]
  bool eof_ = false;
  bool failed_ = false;
  int errno_ = 0;
};

// A line with nothing but spaces, tabs or a CR: skipped by the readers.
inline bool blank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

}  // namespace qjt::cli
