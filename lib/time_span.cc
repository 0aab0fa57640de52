#include "time_span.h"

#include "whole_number.h"

namespace qjt {
namespace {

struct Unit {
  std::string_view name;
  std::int64_t ms;
};

constexpr std::int64_t kSecond = 1000, kMinute = 60 * kSecond, kHour = 60 * kMinute, kDay = 24 * kHour;
// systemd's month and year: 30.44 and 365.25 days.
constexpr std::int64_t kMonth = 2'629'800'000, kYear = 31'557'600'000;
constexpr Unit kUnits[] = {
    {"ms", 1},           {"msec", 1},          {"s", kSecond},     {"sec", kSecond},
    {"second", kSecond}, {"seconds", kSecond}, {"m", kMinute},     {"min", kMinute},
    {"minute", kMinute}, {"minutes", kMinute}, {"h", kHour},       {"hr", kHour},
    {"hour", kHour},     {"hours", kHour},     {"d", kDay},        {"day", kDay},
    {"days", kDay},      {"w", 7 * kDay},      {"week", 7 * kDay}, {"weeks", 7 * kDay},
    {"M", kMonth},       {"month", kMonth},    {"months", kMonth}, {"y", kYear},
    {"year", kYear},     {"years", kYear},
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

std::optional<std::int64_t> unit_ms(std::string_view name) {
  for (const Unit& unit : kUnits)
    if (unit.name == name) return unit.ms;
  return std::nullopt;
}

// The run of characters at the start of `text` that `in_run` accepts.
template <class Predicate>
std::string_view take_run(std::string_view* text, Predicate in_run) {
  std::size_t n = 0;
  while (n < text->size() && in_run((*text)[n])) ++n;
  const std::string_view run = text->substr(0, n);
  text->remove_prefix(n);
  return run;
}

}  // namespace

std::optional<std::int64_t> parse_time_span_ms(std::string_view text) {
  std::int64_t total = 0;
  bool any = false;
  while (!text.empty()) {
    const auto count = whole_number<std::uint32_t>(take_run(&text, is_digit));
    take_run(&text, [](char c) { return c == ' '; });
    const auto unit = unit_ms(take_run(&text, is_letter));
    take_run(&text, [](char c) { return c == ' '; });
    if (!count || !unit || *count > kMaxTimeSpanMs / *unit) return std::nullopt;
    total += *count * *unit;
    if (total > kMaxTimeSpanMs) return std::nullopt;
    any = true;
  }
  return any ? std::optional<std::int64_t>(total) : std::nullopt;
}

}  // namespace qjt
