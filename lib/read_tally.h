// ReadTally: what a decoder that walks a span of an input's bytes (the
// mapping, InputFile::bytes()) tells the progress line (progress.h): the
// records it decoded and how far into the input it has read.
//
// Contract:
//  - record(end) counts one record ending at offset `end` of the span: an
//    increment and a comparison. Once the records counted reach kBatch
//    bytes past the last report, they are reported with the input's bytes
//    up to `end` (InputFile::count_mapped_read_through), so the progress
//    line's work happens once per batch, never per record.
//  - done(end), at a decoder's terminal record (at offset `end`), reports
//    the records left, if any: a decoder that meets its end at once (a
//    scan trying every offset) costs nothing more.
//  - Records never reported (a decoder that stops early, or re-reads a
//    record or two from an offset) are not counted; the input's bytes are
//    counted all the same when it is closed. Over a span that is no open
//    input's bytes, only records are counted.
#pragma once

#include <cstddef>
#include <cstdint>

#include "byte_span.h"

namespace qjt {

class ReadTally {
 public:
  // `start`: the offset in `span` the decoder starts at.
  explicit ReadTally(ByteSpan span, std::size_t start = 0) : span_(span), report_at_(start + kBatch) {}

  void record(std::size_t end) {
    ++records_;
    if (end >= report_at_) [[unlikely]]
      report(end);
  }
  void done(std::size_t end) {
    if (records_ > 0) report(end);
  }
  // After a decoder's next(): done(end) when it returned its terminal
  // record, else record(end).
  void after_next(bool terminal, std::size_t end) { terminal ? done(end) : record(end); }

 private:
  static constexpr std::size_t kBatch = 256 << 10;  // as a ReadWindow's buffer

  void report(std::size_t end);

  ByteSpan span_;
  std::size_t report_at_;
  std::uint64_t records_ = 0;
};

}  // namespace qjt
