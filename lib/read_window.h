// ReadWindow: views of a file's bytes for a decoder that walks it forward.
//
// Why not just the mapping: a decoder that reads one record header per
// payload touches a new page of the mapping every record or two, and each
// first touch costs a TLB miss and a cache miss (on a virtual machine, a
// nested page walk). A 1 GiB journal walked that way took 0.47 s where
// `cat` takes 0.07 s; read into a reused buffer that stays in the CPU
// cache, the same walk takes 0.06 s (formats/kestrel/README.md, "Memory
// and speed"). So views are read with pread(2) into one buffer, and the
// mapping serves only what the buffer cannot: a view longer than the buffer
// and inputs that have no file to read.
//
// Contract:
//  - view(offset, length) needs offset + length <= size() and returns
//    exactly those bytes. The view is valid until the next call to view()
//    or the window's destruction; callers that keep bytes keep positions.
//  - A view within the buffer costs nothing; a forward one past it, one
//    pread of a buffer's worth; one behind it (a reader seeking back), one
//    pread of just the bytes asked for (at least a page), so that random
//    access does not read whole buffers. No view allocates.
//  - A view longer than the buffer, or one that cannot be read (an I/O
//    error, a file shrunk under us), comes from the mapping, so the bytes
//    are always those of InputFile::bytes(): past the end of a file that
//    shrank, zeros, since the mapping is guarded and the change reported
//    (InputFile::change), never SIGBUS. for_each_piece() reads a range
//    of any length through the buffer instead, leaving the mapping alone:
//    what a copy of a large item uses, so that its pages never become
//    resident in this process.
//  - Progress (progress.h): each read counts the input's bytes up to its
//    end, and the records its decoder counted with count_record() since
//    the last read; the records left are counted when the window goes.
//    So a record costs its decoder one increment, and the progress line's
//    work happens once per buffer.
//  - A window over a ByteSpan, or over an input that has no file to read
//    (InputFile::open_for_reading: read into memory, previewed, or no
//    longer named by its path), views those bytes directly and never reads.
//  - A window over a stream read on demand (InputFile::StreamReading)
//    reads it as far as its views reach, so a decoder asks available()
//    before it views, rather than size(), which reads the stream to its
//    end; available() may move the window (as a view does), so views taken
//    before it are views no more. With Lookback::kNone the window lets go
//    of the bytes before the offset its reader gives release_before() (the
//    start of each record, say): memory stays constant in the stream's
//    length, and nothing before that offset may be viewed again. A file's window
//    ignores the lookback: its bytes can always be read again.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "byte_span.h"

namespace qjt {

class InputFile;
class StreamBuffer;

class ReadWindow {
 public:
  static constexpr std::size_t kDefaultCapacity = 256 << 10;  // fits a core's L2 cache
  // Whether the window's reader may view bytes before its last view again.
  enum class Lookback { kKept, kNone };

  explicit ReadWindow(ByteSpan bytes) : bytes_(bytes), data_(bytes.data()), end_(bytes.size()) {}
  explicit ReadWindow(const InputFile& file, std::size_t capacity = kDefaultCapacity,
                      Lookback lookback = Lookback::kKept);
  ~ReadWindow();
  ReadWindow(ReadWindow&& other) noexcept;
  ReadWindow& operator=(ReadWindow&&) = delete;

  // The input's size; a stream read on demand is read to its end first.
  std::size_t size();

  // How many of the `want` bytes from `offset` on the input has (fewer only
  // at its end), reading a stream as far as that: what a decoder checks a
  // length against.
  std::size_t available(std::size_t offset, std::size_t want) {
    if (stream_ != nullptr) return available_in_stream(offset, want);
    return offset < bytes_.size() ? std::min(want, bytes_.size() - offset) : 0;
  }

  // The reader will not view bytes before `offset` again: with
  // Lookback::kNone, a stream's memory of them may go. Nothing for a file.
  void release_before(std::size_t offset);

  // Whether the input is a stream read on demand.
  bool on_stream() const { return stream_ != nullptr; }

  // One more record decoded from the window's bytes, for progress.
  void count_record() { ++records_; }

  ByteSpan view(std::size_t offset, std::size_t length) {
    if (offset >= start_ && offset + length <= end_) return ByteSpan(data_ + (offset - start_), length);
    return fill(offset, length);
  }

  // Calls f(piece) for consecutive views that together are [offset,
  // offset + length), each at most a buffer long; stops early, returning
  // false, when f returns false.
  template <typename F>
  bool for_each_piece(std::size_t offset, std::size_t length, F&& f) {
    const std::size_t most = fd_ < 0 && stream_ == nullptr ? length : capacity_;
    do {
      const std::size_t n = std::min(length, most);
      if (!f(view(offset, n))) return false;
      offset += n;
      length -= n;
    } while (length > 0);
    return true;
  }

 private:
  ByteSpan fill(std::size_t offset, std::size_t length);
  ByteSpan fill_from_stream(std::size_t offset, std::size_t length);
  void hold_stream_bytes();  // views what the stream holds now
  std::size_t available_in_stream(std::size_t offset, std::size_t want);
  void report_records();

  ByteSpan bytes_;                  // the whole input, as mapped
  int fd_ = -1;                     // owned; -1: never read, view bytes_
  StreamBuffer* stream_ = nullptr;  // of a stream read on demand
  Lookback lookback_ = Lookback::kKept;
  const InputFile* file_ = nullptr;
  std::uint64_t records_ = 0;  // count_record() since the last report to progress
  std::size_t capacity_ = 0;
  std::unique_ptr<std::uint8_t[]> buffer_;
  const std::uint8_t* data_ = nullptr;  // holds bytes [start_, end_) of the input
  std::size_t start_ = 0;
  std::size_t end_ = 0;
};

}  // namespace qjt
