#include "clock.h"

#include <chrono>
#include <cstdlib>
#include <optional>

#include "whole_number.h"

namespace qjt {
namespace {

// QJT_NOW_MS as a whole integer, or nothing when unset or not one.
std::optional<std::int64_t> fixed_now() {
  const char* text = std::getenv("QJT_NOW_MS");
  if (text == nullptr) return std::nullopt;
  return whole_number<std::int64_t>(text);
}

}  // namespace

std::int64_t now_ms() {
  if (const auto fixed = fixed_now()) return *fixed;
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace qjt
