#include "time_value.h"

#include <chrono>

#include <fmt/format.h>

#include "civil_calendar.h"
#include "clock.h"
#include "run_context.h"
#include "time_span.h"
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

bool strip_prefix(std::string_view* text, std::string_view prefix) {
  if (!text->starts_with(prefix)) return false;
  text->remove_prefix(prefix.size());
  return true;
}

bool strip_suffix(std::string_view* text, std::string_view suffix) {
  if (!text->ends_with(suffix)) return false;
  text->remove_suffix(suffix.size());
  return true;
}

// @1610779748 or @1610779748.123: epoch seconds, as journalctl takes them.
std::optional<std::int64_t> epoch_seconds(std::string_view text) {
  if (!strip_prefix(&text, "@")) return std::nullopt;
  const std::size_t dot = text.find('.');
  const auto seconds = whole_number<std::int64_t>(text.substr(0, dot));
  if (!seconds || *seconds > kMaxTimeSpanMs / 1000 || *seconds < -kMaxTimeSpanMs / 1000) return std::nullopt;
  if (dot == std::string_view::npos) return *seconds * 1000;
  const std::string_view fraction = text.substr(dot + 1);
  if (fraction.empty() || fraction.size() > 9 || !whole_number<std::uint32_t>(fraction)) return std::nullopt;
  const int ms = *whole_number<int>((std::string(fraction) + "00").substr(0, 3));
  return *seconds * 1000 + (text[0] == '-' ? -ms : ms);
}

// 2h, -2h, 2h ago: before now; +2h, 2h left: after now.
std::optional<std::int64_t> relative_time(std::string_view text, std::int64_t now_ms) {
  std::int64_t direction = -1;
  if (strip_prefix(&text, "+")) {
    direction = 1;
  } else if (!strip_prefix(&text, "-") && !strip_suffix(&text, " ago") && strip_suffix(&text, " left")) {
    direction = 1;
  }
  const auto span = parse_time_span_ms(text);
  if (!span) return std::nullopt;
  return now_ms + direction * *span;
}

// Z, +HH:MM, -HH:MM, +HHMM, +HH or " UTC" as seconds east of UTC.
std::optional<int> zone_offset_seconds(std::string_view zone) {
  if (zone == "Z" || zone == "z" || zone == " UTC") return 0;
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

// A date and time as typed, before a zone makes it an instant.
struct TypedTime {
  CivilTime civil;
  int millisecond = 0;
};

// YYYY-MM-DD at the start of *text, taken off it.
std::optional<TypedTime> take_date(std::string_view* text) {
  const auto year = digits(*text, 0, 4), month = digits(*text, 5, 2), day = digits(*text, 8, 2);
  if (text->size() < 10 || (*text)[4] != '-' || (*text)[7] != '-' || !year || !month || !day ||
      !valid_date(*year, *month, *day))
    return std::nullopt;
  text->remove_prefix(10);
  TypedTime typed;
  typed.civil.year = *year;
  typed.civil.month = *month;
  typed.civil.day = *day;
  return typed;
}

// HH:MM[:SS[.fff]] at the start of *text, taken off it into *typed.
bool take_clock_time(std::string_view* text, TypedTime* typed) {
  const auto hour = digits(*text, 0, 2), minute = digits(*text, 3, 2);
  if (text->size() < 5 || (*text)[2] != ':' || !hour || !minute || *hour > 23 || *minute > 59) return false;
  typed->civil.hour = *hour;
  typed->civil.minute = *minute;
  text->remove_prefix(5);
  if (!strip_prefix(text, ":")) return true;
  const auto second = digits(*text, 0, 2);
  if (!second || *second > 60) return false;
  typed->civil.second = *second;
  text->remove_prefix(2);
  if (!strip_prefix(text, ".") && !strip_prefix(text, ",")) return true;
  std::size_t end = 0;
  while (end < text->size() && (*text)[end] >= '0' && (*text)[end] <= '9') ++end;
  if (end == 0 || end > 9) return false;
  // Milliseconds: the first three digits of the fraction, padded.
  const std::string fraction = std::string(text->substr(0, std::min<std::size_t>(end, 3))) + "00";
  typed->millisecond = *whole_number<int>(std::string_view(fraction).substr(0, 3));
  text->remove_prefix(end);
  return true;
}

// The local date of `now_ms` in `zone`, at midnight, `days_after` it.
TypedTime local_date(std::int64_t now_ms, const TimeZone& zone, int days_after) {
  const std::int64_t now_s = calendar::floor_div(now_ms, 1000);
  const auto date =
      calendar::civil_from_days(calendar::floor_div(now_s + zone.offset_at_utc(now_s), calendar::kSecondsPerDay));
  TypedTime typed;
  typed.civil.year = static_cast<int>(date.year);
  typed.civil.month = date.month;
  typed.civil.day = date.day + days_after;
  return typed;
}

std::int64_t local_ms(const TypedTime& typed, const TimeZone& zone) {
  return zone.utc_from_local(typed.civil) * 1000 + typed.millisecond;
}

// now; today, yesterday, tomorrow: their midnight in `zone`.
std::optional<std::int64_t> named_day(std::string_view text, std::int64_t now_ms, const TimeZone& zone) {
  if (text == "now") return now_ms;
  if (text == "today") return local_ms(local_date(now_ms, zone, 0), zone);
  if (text == "yesterday") return local_ms(local_date(now_ms, zone, -1), zone);
  if (text == "tomorrow") return local_ms(local_date(now_ms, zone, 1), zone);
  return std::nullopt;
}

// [YYYY-MM-DD[(T| )]][HH:MM[:SS[.fff]]][zone]: local in `zone` when no zone
// follows; a date alone is its midnight, a time alone today's.
std::optional<std::int64_t> calendar_time(std::string_view text, std::int64_t now_ms, const TimeZone& zone) {
  std::optional<TypedTime> typed = take_date(&text);
  if (!typed) {
    typed = local_date(now_ms, zone, 0);
    if (!take_clock_time(&text, &*typed)) return std::nullopt;
  } else if (!text.empty()) {
    if (!strip_prefix(&text, "T") && !strip_prefix(&text, "t") && !strip_prefix(&text, " ")) return std::nullopt;
    if (!take_clock_time(&text, &*typed)) return std::nullopt;
  }
  if (text.empty()) return local_ms(*typed, zone);
  const auto offset = zone_offset_seconds(text);
  if (!offset) return std::nullopt;
  return local_ms(*typed, TimeZone::fixed(*offset));
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

}  // namespace

std::optional<std::int64_t> parse_time_value(std::string_view text, std::int64_t now_ms, const TimeZone& zone) {
  if (const auto ms = whole_number<std::int64_t>(text)) return ms;
  if (const auto ms = epoch_seconds(text)) return ms;
  if (const auto ms = named_day(text, now_ms, zone)) return ms;
  if (const auto ms = relative_time(text, now_ms)) return ms;
  return calendar_time(text, now_ms, zone);
}

std::optional<std::int64_t> parse_time_option(std::string_view text) {
  return parse_time_value(text, now_ms(), local_zone());
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
  const std::int32_t offset = zone.offset_at_utc(calendar::floor_div(ms, 1000));
  const std::int32_t minutes = (offset < 0 ? -offset : offset) / 60;
  return format_shifted(ms + std::int64_t{offset} * 1000,
                        fmt::format("{}{:02}:{:02}", offset < 0 ? '-' : '+', minutes / 60, minutes % 60));
}

std::string format_local_time(std::int64_t ms) { return format_zoned_time(ms, local_zone()); }

std::string format_time(std::int64_t ms) {
  return RunContext::current().settings().local_time ? format_local_time(ms) : format_utc_time(ms);
}

void show_local_time(bool local) { RunContext::process().settings().local_time = local; }

void set_local_zone(TimeZone zone) { RunContext::process().settings().local_zone = std::move(zone); }

const TimeZone& local_zone() {
  if (const auto& chosen = RunContext::current().settings().local_zone) return *chosen;
  static const TimeZone local = TimeZone::local();
  return local;
}

}  // namespace qjt
