// A span of time as journalctl reads one (systemd.time(7)): one or more
// whole counts, each followed by its unit, with spaces allowed between
// them: "2h", "90s", "1h 30min", "1w2d".
//
// Units, as systemd spells and counts them: ms, msec; s, sec, second(s);
// m, min, minute(s); h, hr, hour(s); d, day(s); w, week(s); M, month(s)
// (30.44 days); y, year(s) (365.25 days). "m" is minutes, "M" months.
// A count without a unit is refused: a bare number is a time of its own
// (epoch milliseconds), not a span.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace qjt {

// Spans longer than this (10,000 years) are refused, so that now plus or
// minus one stays far inside int64 milliseconds.
inline constexpr std::int64_t kMaxTimeSpanMs = 315'576'000'000'000;

// `text` as milliseconds; nullopt when it is not a span in the form above.
std::optional<std::int64_t> parse_time_span_ms(std::string_view text);

}  // namespace qjt
