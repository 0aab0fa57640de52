// StreamBuffer: the bytes of an input that is not a regular file (a pipe,
// a FIFO, a character device such as /dev/zero), read once, to its end or
// to a limit.
//
// Why not a std::string: a stream's size is unknown until its end, and a
// string grown by doubling copies everything at each step and briefly holds
// three times what it read; an endless stream then ends in std::bad_alloc.
// The buffer here is an anonymous mapping grown with mremap(2), which moves
// pages instead of copying them, and never beyond the limit, so memory is
// bounded by the limit and what the limit refuses is a status, not an
// exception.
//
// Contract:
//  - read() reads `fd` (not closed) until end of input, a read error, or
//    more than `limit` bytes; bytes() is what was read, at most `limit`
//    bytes, and read-only once read() returns.
//  - kOverLimit: the stream has more than `limit` bytes; nothing after the
//    first `limit` is kept. kError: *err is the errno of the failed read or
//    allocation (ENOMEM when memory runs out before the limit).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "byte_span.h"

namespace qjt {

class StreamBuffer {
 public:
  enum class Status { kComplete, kOverLimit, kError };

  static std::unique_ptr<StreamBuffer> read(int fd, std::uint64_t limit, Status* status, int* err);

  ~StreamBuffer();
  StreamBuffer(const StreamBuffer&) = delete;
  StreamBuffer& operator=(const StreamBuffer&) = delete;

  ByteSpan bytes() const { return ByteSpan(static_cast<const std::uint8_t*>(data_), size_); }

 private:
  StreamBuffer() = default;
  bool grow(std::size_t at_least, std::size_t most, int* err);

  void* data_ = nullptr;  // mapping of capacity_ bytes; nullptr while empty
  std::size_t capacity_ = 0;
  std::size_t size_ = 0;
};

}  // namespace qjt
