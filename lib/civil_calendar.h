// The proleptic Gregorian calendar as day counts, for the time zone code:
// days since 1970-01-01 of a civil date and back, weekdays, and floor
// division. 64-bit throughout, so that any year an int can hold, and any
// instant an int64 can hold, converts without overflow (H. Hinnant's
// algorithms, "chrono-Compatible Low-Level Date Algorithms").
#pragma once

#include <cstdint>

namespace qjt::calendar {

inline constexpr std::int64_t kSecondsPerDay = 86'400;
// The calendar repeats every 400 years, weekdays included.
inline constexpr std::int64_t kDaysPer400Years = 146'097;

// a / b and a mod b rounded towards minus infinity (b > 0).
constexpr std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a / b - ((a % b != 0) && (a < 0)); }
// (Not a - floor_div(a, b) * b, which overflows for a near INT64_MIN.)
constexpr std::int64_t floor_mod(std::int64_t a, std::int64_t b) { return a % b < 0 ? a % b + b : a % b; }

constexpr bool is_leap(std::int64_t year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

// 1 <= month <= 12.
constexpr int days_in_month(std::int64_t year, int month) {
  constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap(year) ? 29 : kDays[month - 1];
}

// Days since 1970-01-01 of year-month-day; 1 <= month <= 12, and `day`
// may run past the month (day 32 of January is February 1st).
constexpr std::int64_t days_from_civil(std::int64_t year, int month, std::int64_t day) {
  year -= month <= 2;
  const std::int64_t era = (year >= 0 ? year : year - 399) / 400;
  const std::int64_t year_of_era = year - era * 400;
  const std::int64_t day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5;
  const std::int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * kDaysPer400Years + day_of_era - 719'468 + (day - 1);
}

struct CivilDate {
  std::int64_t year = 1970;
  int month = 1;  // 1 to 12
  int day = 1;    // 1 to 31
};

constexpr CivilDate civil_from_days(std::int64_t days) {
  days += 719'468;
  const std::int64_t era = (days >= 0 ? days : days - 146'096) / kDaysPer400Years;
  const std::int64_t day_of_era = days - era * kDaysPer400Years;
  const std::int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36'524 - day_of_era / 146'096) / 365;
  const std::int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const std::int64_t mp = (5 * day_of_year + 2) / 153;
  const int month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  return CivilDate{year_of_era + era * 400 + (month <= 2), month,
                   static_cast<int>(day_of_year - (153 * mp + 2) / 5 + 1)};
}

// 0 for Sunday to 6 for Saturday (1970-01-01 was a Thursday).
constexpr int weekday(std::int64_t days) { return static_cast<int>(floor_mod(days + 4, 7)); }

}  // namespace qjt::calendar
