// Splitting text that arrives in pieces (an inflating gzip stream, a file
// read through a buffer) into lines, holding at most one line: a line that
// lies within a piece is passed on as a view of that piece, and only a line
// cut by a piece's end is copied, so memory is bounded by the longest line
// and not by the text.
//
// A line longer than the bound is not kept: it is passed on once it ends,
// with its length and an empty text, for the caller to report, so a file
// without newlines cannot make the copy grow without limit.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace qjt::canal {

// Canal's lines are about 150 bytes; a GTID set of a few hundred servers is
// tens of KiB. Longer is not a meta.log line.
inline constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

struct TextLine {
  std::string_view text;     // without its "\n"; empty when too_long()
  std::uint64_t number = 0;  // 1-based
  std::uint64_t offset = 0;  // of its first byte in the text
  std::uint64_t length = 0;  // bytes before the "\n"
  bool too_long() const { return length > text.size(); }
};

class LineSplitter {
 public:
  // `on_line` returns false to stop: feed() and finish() then pass nothing
  // more and return false.
  using LineSink = std::function<bool(const TextLine&)>;
  explicit LineSplitter(LineSink on_line, std::size_t max_line = kMaxLineBytes)
      : on_line_(std::move(on_line)), max_line_(max_line) {}

  // The next piece of the text.
  bool feed(std::string_view piece);
  // The end of the text: passes on a last line that has no "\n".
  bool finish();

 private:
  bool emit(std::string_view text);

  LineSink on_line_;
  std::size_t max_line_;
  std::string partial_;               // the line begun in an earlier piece (at most max_line_ bytes)
  std::uint64_t partial_length_ = 0;  // its length so far, bytes not kept included
  std::uint64_t offset_ = 0;          // of the next byte fed
  std::uint64_t number_ = 0;          // of the last line passed on
  bool stopped_ = false;
};

}  // namespace qjt::canal
