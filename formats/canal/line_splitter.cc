#include "canal/line_splitter.h"

namespace qjt::canal {

bool LineSplitter::emit(std::string_view text) {
  TextLine line;
  line.length = partial_length_ + text.size();
  line.offset = offset_ - partial_length_;
  line.number = ++number_;
  if (partial_length_ == 0) {
    line.text = line.length > max_line_ ? std::string_view() : text;
  } else if (line.length <= max_line_) {
    partial_.append(text);
    line.text = partial_;
  }
  stopped_ = !on_line_(line);
  partial_.clear();  // only now: line.text may view it
  partial_length_ = 0;
  return !stopped_;
}

bool LineSplitter::feed(std::string_view piece) {
  while (!stopped_ && !piece.empty()) {
    const auto newline = piece.find('\n');
    if (newline == std::string_view::npos) {
      // Keep the start of a long line only while it may still fit.
      if (partial_length_ + piece.size() <= max_line_) partial_.append(piece);
      partial_length_ += piece.size();
      offset_ += piece.size();
      return true;
    }
    const bool go_on = emit(piece.substr(0, newline));
    offset_ += newline + 1;
    piece.remove_prefix(newline + 1);
    if (!go_on) break;
  }
  return !stopped_;
}

bool LineSplitter::finish() {
  if (stopped_) return false;
  return partial_length_ == 0 || emit({});
}

}  // namespace qjt::canal
