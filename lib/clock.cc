#include "clock.h"

#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace qjt {
namespace {

// QJT_NOW_MS as a whole integer, or nothing when unset or not one.
std::optional<std::int64_t> fixed_now() {
  const char* text = std::getenv("QJT_NOW_MS");
  if (text == nullptr) return std::nullopt;
  const char* end = text + std::strlen(text);
  std::int64_t value = 0;
  const auto [stop, error] = std::from_chars(text, end, value);
  if (error != std::errc() || stop != end || stop == text) return std::nullopt;
  return value;
}

}  // namespace

std::int64_t now_ms() {
  if (const auto fixed = fixed_now()) return *fixed;
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace qjt
