#include "read_window.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "input_file.h"
#include "progress.h"
#include "stream_buffer.h"

namespace qjt {

ReadWindow::ReadWindow(const InputFile& file, std::size_t capacity, Lookback lookback)
    : stream_(file.stream_on_demand()), lookback_(lookback), file_(&file), capacity_(capacity) {
  if (stream_ != nullptr) {
    if (lookback == Lookback::kNone) stream_->discard_before(0);  // no later open reads it from the start
    return;
  }
  bytes_ = file.bytes();
  // No larger than the file, and not zeroed: a reader of many small files
  // (a Flume channel's metadata, a fuzz target's logs) would otherwise pay
  // for 256 KiB of page faults and memset per file.
  capacity_ = std::min(capacity, bytes_.size());
  fd_ = capacity_ > 0 ? file.open_for_reading() : -1;
  if (fd_ < 0) {
    data_ = bytes_.data();
    end_ = bytes_.size();
    return;
  }
  buffer_ = std::make_unique_for_overwrite<std::uint8_t[]>(capacity_);
  data_ = buffer_.get();
}

ReadWindow::~ReadWindow() {
  report_records();
  if (fd_ >= 0) ::close(fd_);
}

ReadWindow::ReadWindow(ReadWindow&& other) noexcept
    : bytes_(other.bytes_),
      fd_(std::exchange(other.fd_, -1)),
      stream_(other.stream_),
      lookback_(other.lookback_),
      file_(other.file_),
      records_(std::exchange(other.records_, 0)),
      capacity_(other.capacity_),
      buffer_(std::move(other.buffer_)),
      data_(other.data_),
      start_(other.start_),
      end_(other.end_) {}

std::size_t ReadWindow::size() {
  if (stream_ == nullptr) return bytes_.size();
  // Reading to the end may move the stream's bytes (its buffer grows or
  // drops what was released): the window must view them where they are now.
  stream_->fill_all();
  hold_stream_bytes();
  return end_;
}

std::size_t ReadWindow::available_in_stream(std::size_t offset, std::size_t want) {
  if (want > end_ || offset > end_ - want) fill_from_stream(offset, want);
  return offset < end_ ? std::min(want, end_ - offset) : 0;
}

void ReadWindow::release_before(std::size_t offset) {
  if (stream_ != nullptr && lookback_ == Lookback::kNone) stream_->discard_before(offset);
}

void ReadWindow::hold_stream_bytes() {
  start_ = stream_->held_from();
  end_ = stream_->size();
  data_ = stream_->view(start_, end_ - start_).data();
  file_->count_read_through(end_);
  report_records();
}

// The bytes the stream holds from `offset` on, up to `length` of them:
// fewer at its end, none before what it let go of.
ByteSpan ReadWindow::fill_from_stream(std::size_t offset, std::size_t length) {
  stream_->fill_to(offset + std::min<std::uint64_t>(length, UINT64_MAX - offset));
  hold_stream_bytes();
  if (offset < start_ || offset > end_) return ByteSpan();
  return ByteSpan(data_ + (offset - start_), std::min(length, end_ - offset));
}

ByteSpan ReadWindow::fill(std::size_t offset, std::size_t length) {
  if (stream_ != nullptr) return fill_from_stream(offset, length);
  if (fd_ < 0 || length > capacity_) return bytes_.subspan(offset, length);
  const bool backward = offset < start_;
  // Keep what the buffer holds from `offset` on, then read after it.
  std::size_t kept = 0;
  if (!backward && offset < end_) {
    kept = end_ - offset;
    std::memmove(buffer_.get(), data_ + (offset - start_), kept);
  }
  data_ = buffer_.get();
  start_ = offset;
  end_ = offset + kept;
  constexpr std::size_t kSeekRead = 4096;
  const std::size_t want = backward ? std::min(capacity_, std::max(length, kSeekRead)) : capacity_;
  const std::size_t wanted = std::min(want, bytes_.size() - offset);
  while (end_ - start_ < wanted) {
    const ssize_t n = ::pread(fd_, buffer_.get() + (end_ - start_), wanted - (end_ - start_), static_cast<off_t>(end_));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    end_ += static_cast<std::size_t>(n);
  }
  file_->count_read_through(end_);
  report_records();
  if (offset + length <= end_) return ByteSpan(data_, length);
  // The file could not be read as far as it was mapped: forget what was read
  // and let the mapping answer, as it would have without the window.
  end_ = start_;
  return bytes_.subspan(offset, length);
}

void ReadWindow::report_records() { Progress::read(0, std::exchange(records_, 0)); }

}  // namespace qjt
