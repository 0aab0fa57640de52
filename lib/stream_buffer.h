// StreamBuffer: the bytes of an input that is not a regular file (a pipe,
// a FIFO, a character device such as /dev/zero), read as far as a decoder
// asks, never beyond a limit.
//
// Why read on demand: a decoder that stops at the first broken record
// (/dev/zero, random bytes) must not wait for the stream's end, and one that
// walks a long stream forward must not hold what it has passed. So bytes
// are read when asked for (fill_to), and a reader that never looks back
// lets go of what lies behind it (discard_before), which keeps memory
// constant in the stream's length.
//
// Why not a std::string: a string grown by doubling copies everything at
// each step and briefly holds three times what it read; an endless stream
// then ends in std::bad_alloc. The buffer here is an anonymous mapping grown
// with mremap(2), which moves pages instead of copying them, and never
// beyond the limit, so memory is bounded by the limit and what the limit
// refuses is a status, not an exception.
//
// Contract:
//  - Offsets are the stream's own: byte N is the Nth byte read, however
//    much was discarded before it.
//  - fill_to(end) reads `fd` (closed with the buffer when `owns_fd`) until size() >= end, the
//    stream ends, a read fails, or more than `limit` bytes were read; it
//    returns size(). size() never exceeds the limit.
//  - view(offset, length) needs held_from() <= offset and offset + length
//    <= size(). A view is valid until the next fill_to() or
//    discard_before(): the mapping may move as it grows.
//  - discard_before(offset): the bytes before `offset` are no longer
//    needed; their memory is reused by later reads. From the first call
//    on, forgets() is true: the stream can no longer be read from its start.
//  - status(): kReading until the stream ends (kComplete), runs past the
//    limit (kOverLimit: nothing after the first `limit` bytes is kept) or
//    fails (kError: error() is the errno of the failed read or allocation,
//    ENOMEM when memory runs out before the limit).
#pragma once

#include <cstddef>
#include <cstdint>

#include "byte_span.h"

namespace qjt {

class StreamBuffer {
 public:
  enum class Status { kReading, kComplete, kOverLimit, kError };

  StreamBuffer(int fd, bool owns_fd, std::uint64_t limit) : fd_(fd), owns_fd_(owns_fd), limit_(limit) {}
  ~StreamBuffer();
  StreamBuffer(const StreamBuffer&) = delete;
  StreamBuffer& operator=(const StreamBuffer&) = delete;

  std::uint64_t fill_to(std::uint64_t end);
  std::uint64_t fill_all() { return fill_to(UINT64_MAX); }

  std::uint64_t size() const { return base_ + held_; }
  bool forgets() const { return forgets_; }
  // The first byte still in memory: bytes [held_from(), size()) can be viewed.
  std::uint64_t held_from() const { return base_; }
  Status status() const { return status_; }
  int error() const { return error_; }
  std::uint64_t limit() const { return limit_; }

  ByteSpan view(std::uint64_t offset, std::size_t length) const {
    return ByteSpan(static_cast<const std::uint8_t*>(data_) + (offset - base_), length);
  }
  void discard_before(std::uint64_t offset);

 private:
  bool make_room(int* err);
  bool read_once();
  bool finish(Status status);

  int fd_;
  bool owns_fd_;
  std::uint64_t limit_;
  void* data_ = nullptr;  // mapping of capacity_ bytes: bytes [base_, base_ + held_)
  std::size_t capacity_ = 0;
  std::uint64_t base_ = 0;
  std::size_t held_ = 0;
  std::uint64_t keep_from_ = 0;  // bytes before it may be dropped
  bool forgets_ = false;
  Status status_ = Status::kReading;
  int error_ = 0;
};

}  // namespace qjt
