#include "stream_buffer.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace qjt {
namespace {

constexpr std::size_t kFirstCapacity = 1 << 20;
// The least free space a read is given: a pipe's whole buffer.
constexpr std::size_t kReadRoom = 64 << 10;

}  // namespace

std::uint64_t StreamBuffer::fill_to(std::uint64_t end) {
  while (status_ == Status::kReading && size() < end && read_once()) {
  }
  return size();
}

// One read(2) into the free space after the bytes held; false once the
// stream is done (ended, failed or past the limit).
bool StreamBuffer::read_once() {
  if (!make_room(&error_)) return finish(Status::kError);
  // One byte past the limit tells a stream of exactly `limit` bytes from a
  // longer one.
  const std::uint64_t allowed = limit_ - size() + 1;
  const std::size_t room = static_cast<std::size_t>(std::min<std::uint64_t>(capacity_ - held_, allowed));
  ssize_t n = 0;
  do {
    n = ::read(fd_, static_cast<char*>(data_) + held_, room);
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    error_ = errno;
    return finish(Status::kError);
  }
  if (n == 0) return finish(Status::kComplete);
  held_ += static_cast<std::size_t>(n);
  if (size() > limit_) {
    held_ = static_cast<std::size_t>(limit_ - base_);
    return finish(Status::kOverLimit);
  }
  return true;
}

// Nothing more will be read: the descriptor goes now, not with the buffer.
bool StreamBuffer::finish(Status status) {
  status_ = status;
  if (owns_fd_) ::close(fd_);
  owns_fd_ = false;
  return false;
}

// Free space for one read: the discarded bytes' place when they are at
// least half of what is held (moving the rest down), else a mapping twice
// as large (from 1 MiB), never larger than the limit needs.
bool StreamBuffer::make_room(int* err) {
  if (capacity_ - held_ >= kReadRoom) return true;
  const std::uint64_t droppable = keep_from_ > base_ ? std::min<std::uint64_t>(keep_from_ - base_, held_) : 0;
  if (droppable > 0 && droppable >= held_ / 2) {
    const auto drop = static_cast<std::size_t>(droppable);
    std::memmove(data_, static_cast<char*>(data_) + drop, held_ - drop);
    base_ += drop;
    held_ -= drop;
    if (capacity_ - held_ >= kReadRoom) return true;
  }
  const std::size_t most = static_cast<std::size_t>(std::min<std::uint64_t>(limit_ - base_, SIZE_MAX - 1)) + 1;
  const std::size_t wanted = std::min(most, std::max({held_ + kReadRoom, kFirstCapacity, capacity_ * 2}));
  if (wanted <= capacity_) return capacity_ > held_;
  void* grown = data_ == nullptr ? ::mmap(nullptr, wanted, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                                 : ::mremap(data_, capacity_, wanted, MREMAP_MAYMOVE);
  if (grown == MAP_FAILED) {
    *err = errno;
    return false;
  }
  data_ = grown;
  capacity_ = wanted;
  return true;
}

void StreamBuffer::discard_before(std::uint64_t offset) {
  keep_from_ = std::max(keep_from_, offset);
  forgets_ = true;
}

StreamBuffer::~StreamBuffer() {
  if (data_ != nullptr) ::munmap(data_, capacity_);
  if (owns_fd_) ::close(fd_);
}

}  // namespace qjt
