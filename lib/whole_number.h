// A whole number read from text: the one way the tools turn a count, an id,
// an offset or a name's digits into an integer.
//
// Accepted: the whole of `text`, non-empty, as digits in `base` (2 to 36;
// letters of either case above 9, no "0x" prefix), with a leading minus
// only when T is signed. Refused: an empty text, a plus sign, a minus sign
// for an unsigned T, any byte after the digits (a space, a newline, a
// fraction) and a value T cannot hold. A refusal is nullopt, never a 0 or
// a cut value: a caller that read std::from_chars alone would otherwise
// take an overflow or "12abc" for a number.
#pragma once

#include <charconv>
#include <optional>
#include <string_view>
#include <system_error>
#include <type_traits>

namespace qjt {

template <class T>
std::optional<T> whole_number(std::string_view text, int base = 10) {
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>, "whole_number reads an integer type");
  T value{};
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value, base);
  if (text.empty() || error != std::errc() || stop != end) return std::nullopt;
  return value;
}

}  // namespace qjt
