#include "byte_size.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iterator>

namespace qjt {

std::optional<std::uint64_t> parse_byte_size(std::string_view text) {
  // "KiB", "MB" and the like mean the same as "K" and "M" here.
  if (text.size() > 2 && text.substr(text.size() - 2) == "iB")
    text.remove_suffix(2);
  else if (text.size() > 1 && text.back() == 'B' && !std::isdigit(static_cast<unsigned char>(text[text.size() - 2])))
    text.remove_suffix(1);
  if (text.empty()) return std::nullopt;
  double scale = 1;
  switch (text.back()) {
    case 'k':
    case 'K':
      scale = 1024.0;
      break;
    case 'm':
    case 'M':
      scale = 1024.0 * 1024;
      break;
    case 'g':
    case 'G':
      scale = 1024.0 * 1024 * 1024;
      break;
    case 't':
    case 'T':
      scale = 1024.0 * 1024 * 1024 * 1024;
      break;
    default:
      break;
  }
  if (scale != 1) text.remove_suffix(1);
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !(value >= 0)) return std::nullopt;
  const double bytes = std::floor(value * scale);
  if (bytes >= 18446744073709551615.0) return std::nullopt;
  return static_cast<std::uint64_t>(bytes);
}

std::string format_byte_size(std::uint64_t bytes) {
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  std::string text = std::to_string(bytes) + " bytes";
  if (bytes < 1024) return text;
  double scaled = static_cast<double>(bytes) / 1024;
  std::size_t unit = 0;
  for (; scaled >= 1024 && unit + 1 < std::size(kUnits); ++unit) scaled /= 1024;
  char shown[32];
  std::snprintf(shown, sizeof shown, " (%.1f %s)", scaled, kUnits[unit]);
  return text + shown;
}

}  // namespace qjt
