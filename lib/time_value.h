// Time values: how every option that takes a time (--since, --until, --at,
// --add-time, --to-timestamp, ...) reads it, and how text output shows one.
//
// Accepted forms, journalctl's (systemd.time(7)) and ISO 8601's, all turned
// into milliseconds since the Unix epoch:
//   - epoch milliseconds: 1610779748123 (an optional leading minus), or
//     epoch seconds after an @: @1610779748, @1610779748.123;
//   - ISO 8601 with a zone: 2021-01-16T06:49:08Z,
//     2021-01-16T06:49:08.123+08:00; " UTC" may stand for the Z;
//   - a date and time without a zone, read in the local zone (below):
//     2021-01-16 14:49:08, 2021-01-16T14:49, 2021-01-16 (its midnight), or
//     a time alone, 14:49[:08[.123]], which is today's. A space or a T
//     separates date and time; seconds and their fraction may be left out;
//   - now; today, yesterday and tomorrow: midnight starting that day in
//     the local zone;
//   - a time relative to now (lib/clock's, which QJT_NOW_MS fixes for
//     tests), as a span of time_span.h: before now when bare, after a -
//     or followed by " ago" (2h, -2h, 2h ago, 1h 30min, 1w); after now
//     after a + or followed by " left" (+2h, 2h left). journalctl refuses
//     the bare form; qjt reads it as the only direction --since and
//     --until are typed for.
// The local zone is the run's (set_local_zone(): --tz), else this
// machine's (TimeZone::local(): the TZ variable's, else /etc/localtime).
// A local time the clocks skipped or showed twice when they changed is
// read as mktime reads it (TimeZone::utc_from_local): in a gap, with the
// offset before the change (02:30 in a one-hour gap at 02:00 is 03:30
// after it); in an overlap, the earlier of the two instants.
//
// Text output shows a time as ISO 8601 UTC with milliseconds
// (2021-01-16T06:49:08.123Z), or, once show_local_time(true) was called
// (--local-time), in the local zone with its offset
// (2021-01-16T14:49:08.123+08:00). JSON keeps integers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "time_zone.h"

namespace qjt {

// The forms parse_time_value accepts, for usage messages.
inline constexpr std::string_view kTimeValueForms =
    "epoch milliseconds (1610779748123) or @seconds, ISO 8601 with Z or an offset (2021-01-16T06:49:08Z, "
    "2021-01-16T06:49:08.123+08:00), a local date and time (2021-01-16 14:49:08, 2021-01-16, 14:49), now, "
    "today, yesterday, tomorrow, or a time relative to now (2h or -2h or 2h ago before it, +2h after it; units "
    "s, min, h, d, w)";

// `text` in one of the forms above as epoch milliseconds: relative times
// and today's dates counted from `now_ms`, local times read in `zone`;
// nullopt when it is none of them.
std::optional<std::int64_t> parse_time_value(std::string_view text, std::int64_t now_ms, const TimeZone& zone);
// parse_time_value at lib/clock's now in local_zone(): how options read.
std::optional<std::int64_t> parse_time_option(std::string_view text);

// The usage message for an option whose value is not a time.
std::string time_value_error(std::string_view option, std::string_view text);

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

// The run's local zone, set like show_local_time, from --tz: where times
// typed without a zone are read, where --local-time shows times, and
// where Canal's meta.log times are read.
void set_local_zone(TimeZone zone);
// The current run's (set_local_zone), else TimeZone::local(), read on
// first use.
const TimeZone& local_zone();

}  // namespace qjt
