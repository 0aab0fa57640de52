// Time values: how every option that takes a time (--since, --until, --at,
// --add-time, --to-timestamp, ...) reads it, and how text output shows one.
//
// Accepted forms, all turned into milliseconds since the Unix epoch:
//   - epoch milliseconds: 1610779748123 (an optional leading minus);
//   - ISO 8601 with a zone: 2021-01-16T06:49:08Z,
//     2021-01-16T06:49:08.123+08:00 (a space may stand for the T; seconds
//     and their fraction may be left out);
//   - an ISO 8601 date alone, 2021-01-16: midnight UTC of that day;
//   - a time before now: -15s, -30m, -2h, -7d (now is lib/clock's, which
//     QJT_NOW_MS fixes for tests).
// A date and time without a zone is refused rather than guessed: which zone
// the user meant is not known.
//
// Text output shows a time as ISO 8601 UTC with milliseconds
// (2021-01-16T06:49:08.123Z), or, once show_local_time(true) was called
// (--local-time), in the display zone with its offset
// (2021-01-16T14:49:08.123+08:00): set_display_zone()'s (Canal's --tz),
// else this machine's (TimeZone::local(): the TZ variable's, else
// /etc/localtime). JSON keeps integers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "time_zone.h"

namespace qjt {

// The forms parse_time_value accepts, for usage messages.
inline constexpr std::string_view kTimeValueForms =
    "epoch milliseconds (1610779748123), ISO 8601 with Z or an offset (2021-01-16T06:49:08Z, "
    "2021-01-16T06:49:08.123+08:00), a date (2021-01-16) or a time before now (-15s, -30m, -2h, -7d)";

// `text` in one of the forms above as epoch milliseconds, relative times
// counted back from `now_ms`; nullopt when it is none of them.
std::optional<std::int64_t> parse_time_value(std::string_view text, std::int64_t now_ms);

// The usage message for an option whose value is not a time.
std::string time_value_error(std::string_view option, std::string_view text);

// Epoch milliseconds of a civil date and time in UTC (no range checks).
std::int64_t utc_ms(int year, int month, int day, int hour, int minute, int second, int millisecond);

// `ms` as 2021-01-16T06:49:08.123Z; a time outside the years 0 to 9999
// (a damaged or sentinel value) as its milliseconds, "-9223372036854775808ms".
std::string format_utc_time(std::int64_t ms);
// `ms` in `zone` with its offset there: 2021-01-16T14:49:08.123+08:00.
std::string format_zoned_time(std::int64_t ms, const TimeZone& zone);
// format_zoned_time in the display zone.
std::string format_local_time(std::int64_t ms);
// format_local_time under --local-time, else format_utc_time: the one
// rendering of a time in text output.
std::string format_time(std::int64_t ms);
// Sets the run's settings (run_context.h: RunContext::process(), copied
// into each job) from --local-time, before a command runs.
void show_local_time(bool local);

// The zone --local-time shows times in, set like show_local_time, from the
// options (Canal's --tz); the code that reads a zone's local times takes
// its own TimeZone instead.
void set_display_zone(TimeZone zone);
// The current run's (set_display_zone), else TimeZone::local(), read on
// first use.
const TimeZone& display_zone();

}  // namespace qjt
