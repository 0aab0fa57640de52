#include "time_value.h"

#include <chrono>

#include <fmt/format.h>

#include "run_context.h"
#include "whole_number.h"

namespace qjt {
namespace {

// `n` digits at text[at], or nullopt.
std::optional<int> digits(std::string_view text, std::size_t at, std::size_t n) {
  if (text.size() < at + n) return std::nullopt;
  for (std::size_t i = at; i < at + n; ++i)
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
  return whole_number<int>(text.substr(at, n));
}

// -15s, -30m, -2h, -7d: before now.
std::optional<std::int64_t> relative_time(std::string_view text, std::int64_t now_ms) {
  if (text.size() < 3 || text[0] != '-') return std::nullopt;
  std::int64_t unit_ms = 0;
  switch (text.back()) {
    case 's':
      unit_ms = 1000;
      break;
    case 'm':
      unit_ms = 60'000;
      break;
    case 'h':
      unit_ms = 3'600'000;
      break;
    case 'd':
      unit_ms = 86'400'000;
      break;
    default:
      return std::nullopt;
  }
  const auto count = whole_number<std::uint32_t>(text.substr(1, text.size() - 2));
  if (!count) return std::nullopt;
  return now_ms - static_cast<std::int64_t>(*count) * unit_ms;
}

// Z, +HH:MM, -HH:MM, +HHMM or +HH as seconds east of UTC.
std::optional<int> zone_offset_seconds(std::string_view zone) {
  if (zone == "Z" || zone == "z") return 0;
  if (zone.size() < 3 || (zone[0] != '+' && zone[0] != '-')) return std::nullopt;
  const auto hours = digits(zone, 1, 2);
  std::optional<int> minutes = 0;
  if (zone.size() == 6 && zone[3] == ':') {
    minutes = digits(zone, 4, 2);
  } else if (zone.size() == 5) {
    minutes = digits(zone, 3, 2);
  } else if (zone.size() != 3) {
    return std::nullopt;
  }
  if (!hours || !minutes || *hours > 23 || *minutes > 59) return std::nullopt;
  return (zone[0] == '-' ? -1 : 1) * (*hours * 3600 + *minutes * 60);
}

bool valid_date(int year, int month, int day) {
  using namespace std::chrono;
  return year_month_day{std::chrono::year{year}, std::chrono::month{static_cast<unsigned>(month)},
                        std::chrono::day{static_cast<unsigned>(day)}}
      .ok();
}

// YYYY-MM-DD, or YYYY-MM-DD(T| )HH:MM[:SS[.fff]] followed by a zone.
std::optional<std::int64_t> iso_time(std::string_view text) {
  const auto year = digits(text, 0, 4), month = digits(text, 5, 2), day = digits(text, 8, 2);
  if (text.size() < 10 || text[4] != '-' || text[7] != '-' || !year || !month || !day ||
      !valid_date(*year, *month, *day))
    return std::nullopt;
  if (text.size() == 10) return utc_ms(*year, *month, *day, 0, 0, 0, 0);
  if (text[10] != 'T' && text[10] != 't' && text[10] != ' ') return std::nullopt;
  const auto hour = digits(text, 11, 2), minute = digits(text, 14, 2);
  if (text.size() < 16 || text[13] != ':' || !hour || !minute || *hour > 23 || *minute > 59) return std::nullopt;
  std::size_t at = 16;
  int second = 0, millisecond = 0;
  if (at < text.size() && text[at] == ':') {
    const auto s = digits(text, at + 1, 2);
    if (!s || *s > 60) return std::nullopt;
    second = *s;
    at += 3;
    if (at < text.size() && (text[at] == '.' || text[at] == ',')) {
      std::size_t end = ++at;
      while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
      if (end == at || end - at > 9) return std::nullopt;
      // Milliseconds: the first three digits of the fraction, padded.
      const std::string fraction = std::string(text.substr(at, std::min<std::size_t>(end - at, 3))) + "00";
      millisecond = *whole_number<int>(std::string_view(fraction).substr(0, 3));
      at = end;
    }
  }
  const auto offset = zone_offset_seconds(text.substr(at));
  if (!offset) return std::nullopt;
  return utc_ms(*year, *month, *day, *hour, *minute, second, millisecond) - std::int64_t{*offset} * 1000;
}

// Years 0 to 9999, which ISO 8601 writes with four digits; the calendar
// arithmetic below would overflow on what a damaged record can hold.
constexpr std::int64_t kFirstShownMs = -62'167'219'200'000;  // 0000-01-01T00:00:00Z
constexpr std::int64_t kLastShownMs = 253'402'300'799'999;   // 9999-12-31T23:59:59.999Z
bool shown_as_date(std::int64_t ms) { return ms >= kFirstShownMs + 86'400'000 && ms <= kLastShownMs - 86'400'000; }

// The civil fields of a time already shifted by its zone's offset (of
// less than a day).
std::string format_shifted(std::int64_t ms, std::string_view zone) {
  using namespace std::chrono;
  const sys_time<milliseconds> t{milliseconds{ms}};
  const auto day = floor<days>(t);
  const year_month_day date{day};
  const hh_mm_ss<milliseconds> time{t - day};
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}{}", static_cast<int>(date.year()),
                     static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()), time.hours().count(),
                     time.minutes().count(), time.seconds().count(), time.subseconds().count(), zone);
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

}  // namespace

std::int64_t utc_ms(int year, int month, int day, int hour, int minute, int second, int millisecond) {
  using namespace std::chrono;
  const sys_days date{year_month_day{std::chrono::year{year}, std::chrono::month{static_cast<unsigned>(month)},
                                     std::chrono::day{static_cast<unsigned>(day)}}};
  return (date.time_since_epoch().count() * 86'400LL + hour * 3600LL + minute * 60LL + second) * 1000 + millisecond;
}

std::optional<std::int64_t> parse_time_value(std::string_view text, std::int64_t now_ms) {
  if (const auto ms = whole_number<std::int64_t>(text)) return ms;
  if (const auto ms = relative_time(text, now_ms)) return ms;
  return iso_time(text);
}

std::string time_value_error(std::string_view option, std::string_view text) {
  return fmt::format("{} {}: expected {}", option, text, kTimeValueForms);
}

std::string format_utc_time(std::int64_t ms) {
  if (!shown_as_date(ms)) return fmt::format("{}ms", ms);
  return format_shifted(ms, "Z");
}

std::string format_zoned_time(std::int64_t ms, const TimeZone& zone) {
  if (!shown_as_date(ms)) return fmt::format("{}ms", ms);
  const std::int32_t offset = zone.offset_at_utc(floor_div(ms, 1000));
  const std::int32_t minutes = (offset < 0 ? -offset : offset) / 60;
  return format_shifted(ms + std::int64_t{offset} * 1000,
                        fmt::format("{}{:02}:{:02}", offset < 0 ? '-' : '+', minutes / 60, minutes % 60));
}

std::string format_local_time(std::int64_t ms) { return format_zoned_time(ms, display_zone()); }

std::string format_time(std::int64_t ms) {
  return RunContext::current().settings().local_time ? format_local_time(ms) : format_utc_time(ms);
}

void show_local_time(bool local) { RunContext::process().settings().local_time = local; }

void set_display_zone(TimeZone zone) { RunContext::process().settings().display_zone = std::move(zone); }

const TimeZone& display_zone() {
  if (const auto& chosen = RunContext::current().settings().display_zone) return *chosen;
  static const TimeZone local = TimeZone::local();
  return local;
}

}  // namespace qjt
