#include "stream_buffer.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace qjt {

std::unique_ptr<StreamBuffer> StreamBuffer::read(int fd, std::uint64_t limit, Status* status, int* err) {
  std::unique_ptr<StreamBuffer> buffer(new StreamBuffer());
  // One byte past the limit tells a stream of exactly `limit` bytes from a
  // longer one.
  const std::size_t most = static_cast<std::size_t>(std::min<std::uint64_t>(limit, SIZE_MAX - 1)) + 1;
  for (;;) {
    if (buffer->size_ == buffer->capacity_ && !buffer->grow(buffer->size_ + 1, most, err)) {
      *status = Status::kError;
      return buffer;
    }
    char* const end = static_cast<char*>(buffer->data_) + buffer->size_;
    const ssize_t n = ::read(fd, end, buffer->capacity_ - buffer->size_);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *err = errno;
      *status = Status::kError;
      return buffer;
    }
    if (n == 0) break;
    buffer->size_ += static_cast<std::size_t>(n);
    if (buffer->size_ > limit) {
      buffer->size_ = static_cast<std::size_t>(limit);
      *status = Status::kOverLimit;
      return buffer;
    }
  }
  if (buffer->data_ != nullptr) ::mprotect(buffer->data_, buffer->capacity_, PROT_READ);
  *status = Status::kComplete;
  return buffer;
}

// Doubles the capacity (from 1 MiB), to at least `at_least` and at most `most`.
bool StreamBuffer::grow(std::size_t at_least, std::size_t most, int* err) {
  constexpr std::size_t kFirst = 1 << 20;
  const std::size_t wanted = std::min(most, std::max({at_least, kFirst, capacity_ > most / 2 ? most : capacity_ * 2}));
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

StreamBuffer::~StreamBuffer() {
  if (data_ != nullptr) ::munmap(data_, capacity_);
}

}  // namespace qjt
