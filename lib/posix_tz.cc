#include "posix_tz.h"

#include <limits>

#include <fmt/format.h>

#include "civil_calendar.h"

namespace qjt {
namespace {

using calendar::kDaysPer400Years;
using calendar::kSecondsPerDay;

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Up to `max_digits` decimal digits, at least one.
bool read_number(std::string_view* text, std::size_t max_digits, int* out) {
  std::size_t n = 0;
  int value = 0;
  while (n < text->size() && n < max_digits && is_digit((*text)[n])) value = value * 10 + ((*text)[n++] - '0');
  if (n == 0) return false;
  text->remove_prefix(n);
  *out = value;
  return true;
}

bool consume(std::string_view* text, char c) {
  if (text->empty() || text->front() != c) return false;
  text->remove_prefix(1);
  return true;
}

// hh[:mm[:ss]] in seconds, hours at most `max_hours`.
bool read_hms(std::string_view* text, int max_hours, std::int32_t* out) {
  int hours = 0, minutes = 0, seconds = 0;
  if (!read_number(text, 3, &hours) || hours > max_hours) return false;
  if (consume(text, ':')) {
    if (!read_number(text, 2, &minutes) || minutes > 59) return false;
    if (consume(text, ':') && (!read_number(text, 2, &seconds) || seconds > 59)) return false;
  }
  *out = hours * 3600 + minutes * 60 + seconds;
  return true;
}

// [+|-]hh[:mm[:ss]] with hours up to `max_hours`, the sign applied.
bool read_signed_hms(std::string_view* text, int max_hours, std::int32_t* out) {
  const bool negative = consume(text, '-');
  if (!negative) consume(text, '+');
  if (!read_hms(text, max_hours, out)) return false;
  if (negative) *out = -*out;
  return true;
}

// An abbreviation: three or more letters, or <...> holding three or more
// letters, digits, '+' or '-'. Only its syntax matters here.
bool read_name(std::string_view* text) {
  std::size_t n = 0;
  if (consume(text, '<')) {
    while (n < text->size() && (is_alpha((*text)[n]) || is_digit((*text)[n]) || (*text)[n] == '+' || (*text)[n] == '-'))
      ++n;
    if (n < 3 || n >= text->size() || (*text)[n] != '>') return false;
    text->remove_prefix(n + 1);
    return true;
  }
  while (n < text->size() && is_alpha((*text)[n])) ++n;
  if (n < 3) return false;
  text->remove_prefix(n);
  return true;
}

// An instant moved by whole 400-year cycles into the years 2000 to 2399,
// where the rule gives the same answer (the calendar repeats), and the
// days it moved by.
struct Reduced {
  std::int64_t seconds;
  std::int64_t shift_days;
};
Reduced reduce(std::int64_t t) {
  constexpr std::int64_t kYear2000 = calendar::days_from_civil(2000, 1, 1);
  const std::int64_t days = calendar::floor_div(t, kSecondsPerDay);
  const std::int64_t cycles = calendar::floor_div(days - kYear2000, kDaysPer400Years);
  const std::int64_t reduced_days = days - cycles * kDaysPer400Years;
  return Reduced{reduced_days * kSecondsPerDay + calendar::floor_mod(t, kSecondsPerDay), cycles * kDaysPer400Years};
}

std::int64_t utc_year(std::int64_t t) { return calendar::civil_from_days(calendar::floor_div(t, kSecondsPerDay)).year; }

}  // namespace

bool PosixTz::parse_rule(std::string_view* text, Rule* rule, std::string* error) {
  bool ok = false;
  if (consume(text, 'J')) {
    rule->kind = Rule::kJulianNoLeap;
    ok = read_number(text, 3, &rule->day) && rule->day >= 1 && rule->day <= 365;
  } else if (consume(text, 'M')) {
    rule->kind = Rule::kMonthWeekDay;
    ok = read_number(text, 2, &rule->month) && rule->month >= 1 && rule->month <= 12 && consume(text, '.') &&
         read_number(text, 1, &rule->week) && rule->week >= 1 && rule->week <= 5 && consume(text, '.') &&
         read_number(text, 1, &rule->day) && rule->day <= 6;
  } else {
    rule->kind = Rule::kJulian;
    ok = read_number(text, 3, &rule->day) && rule->day <= 365;
  }
  if (!ok) {
    *error = "expected a date rule: Jn (1 to 365), n (0 to 365) or Mm.w.d (month 1 to 12, week 1 to 5, day 0 to 6)";
    return false;
  }
  rule->time = 7200;
  if (consume(text, '/') && !read_signed_hms(text, 167, &rule->time)) {
    *error = "expected a time of day after '/': [+|-]hh[:mm[:ss]], hours 0 to 167";
    return false;
  }
  return true;
}

std::optional<PosixTz> PosixTz::parse(std::string_view text, std::string* error) {
  std::string_view rest = text;
  const auto fail = [&](std::string_view what) {
    *error = fmt::format("{} at character {}", what, text.size() - rest.size() + 1);
    return std::nullopt;
  };
  constexpr std::string_view kName = "expected a zone abbreviation (3 or more letters, or <...>)";
  constexpr std::string_view kOffset = "expected an offset west of UTC, [+|-]hh[:mm[:ss]] with hours 0 to 24";
  PosixTz tz;
  std::int32_t offset = 0;
  if (!read_name(&rest)) return fail(kName);
  if (!read_signed_hms(&rest, 24, &offset)) return fail(kOffset);
  tz.standard_ = LocalOffset{-offset, false};
  if (rest.empty()) return tz;
  if (!read_name(&rest)) return fail(kName);
  tz.has_dst_ = true;
  tz.daylight_ = LocalOffset{tz.standard_.seconds + 3600, true};
  if (!rest.empty() && rest.front() != ',') {
    if (!read_signed_hms(&rest, 24, &offset)) return fail(kOffset);
    tz.daylight_.seconds = -offset;
  }
  if (rest.empty()) {
    // posixrules' (America/New_York's) rules: see the header.
    tz.start_ = Rule{Rule::kMonthWeekDay, 0, 3, 2, 7200};
    tz.end_ = Rule{Rule::kMonthWeekDay, 0, 11, 1, 7200};
    return tz;
  }
  std::string why;
  if (!consume(&rest, ',')) return fail("expected ',' and the rules");
  if (!parse_rule(&rest, &tz.start_, &why)) return fail(why);
  if (!consume(&rest, ',')) return fail("expected ',' and the end rule");
  if (!parse_rule(&rest, &tz.end_, &why)) return fail(why);
  if (!rest.empty()) return fail("unexpected characters");
  return tz;
}

std::int64_t PosixTz::change(const Rule& rule, std::int64_t year, std::int32_t offset) {
  const std::int64_t first_of_year = calendar::days_from_civil(year, 1, 1);
  std::int64_t day = first_of_year;
  switch (rule.kind) {
    case Rule::kJulianNoLeap:
      day += rule.day - 1 + (rule.day >= 60 && calendar::is_leap(year));
      break;
    case Rule::kJulian:
      day += rule.day;
      break;
    case Rule::kMonthWeekDay: {
      const std::int64_t first_of_month = calendar::days_from_civil(year, rule.month, 1);
      const int month_days = calendar::days_in_month(year, rule.month);
      int in_month = (rule.day - calendar::weekday(first_of_month) + 7) % 7;
      // Week 5 is the last such day, whether the month has four or five.
      for (int week = 1; week < rule.week && in_month + 7 < month_days; ++week) in_month += 7;
      day = first_of_month + in_month;
      break;
    }
  }
  return day * kSecondsPerDay + rule.time - offset;
}

LocalOffset PosixTz::at(std::int64_t epoch_seconds) const {
  if (!has_dst_) return standard_;
  const std::int64_t t = reduce(epoch_seconds).seconds;
  const std::int64_t year = utc_year(t);
  const std::int64_t start = change(start_, year, standard_.seconds);
  const std::int64_t end = change(end_, year, daylight_.seconds);
  const bool dst = start > end ? (t < end || t >= start) : (t >= start && t < end);
  return dst ? daylight_ : standard_;
}

std::int64_t PosixTz::next_change_after(std::int64_t epoch_seconds) const {
  if (!has_dst_) return std::numeric_limits<std::int64_t>::max();
  const Reduced r = reduce(epoch_seconds);
  const std::int64_t year = utc_year(r.seconds);
  // Within a UTC year at() changes only at the year's start and end
  // instants; at the year's end the next year's are computed.
  std::int64_t next = calendar::days_from_civil(year + 1, 1, 1) * kSecondsPerDay;
  for (const std::int64_t c : {change(start_, year, standard_.seconds), change(end_, year, daylight_.seconds)})
    if (c > r.seconds && c < next) next = c;
  std::int64_t shift = 0, result = 0;
  if (__builtin_mul_overflow(r.shift_days, kSecondsPerDay, &shift) || __builtin_add_overflow(next, shift, &result))
    return std::numeric_limits<std::int64_t>::max();
  return result;
}

}  // namespace qjt
