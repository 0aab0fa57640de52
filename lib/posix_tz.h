// A POSIX TZ string as a value: "CST-8", "EST5EDT,M3.2.0,M11.1.0",
// "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0". It is the rule a TZif file's
// footer gives for the times after its table, and a zone of its own when
// a name is no file (time_zone.h).
//
// The grammar (POSIX.1-2017 section 8.3, with RFC 9636's extension of the
// rule times):
//   std offset [dst [offset] [,start[/time],end[/time]]]
// - std, dst: three or more letters (CST), or <...> holding three or more
//   letters, digits, '+' or '-' (<+0330>);
// - offset: [+|-]hh[:mm[:ss]], hours 0 to 24, counted WEST of UTC as POSIX
//   does (CST-8 is 8 hours east); dst's defaults to one hour east of std's;
// - start, end: Jn (day 1 to 365, February 29th never counted), n (day 0 to
//   365, counted), or Mm.w.d (day d, 0 = Sunday, of week w, 1 to 5 where 5
//   is the last, of month m);
// - time: [+|-]hh[:mm[:ss]], hours 0 to 167, local time then in effect;
//   02:00 when left out.
// A dst without rules takes the US rules, M3.2.0,M11.1.0: glibc looks them
// up in the zone database's posixrules file, which is America/New_York, and
// these are its rules since 2007.
//
// Which offset is in effect is glibc's answer (tzset.c __tz_compute): the
// year's start and end instants are computed for the UTC year of the
// instant, and where start comes after end (the southern hemisphere), DST
// runs from start to the end of the year and from its beginning to end.
// glibc computes every year up to 1970 as if it were 1970; here each year is
// its own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace qjt {

// The offset from UTC in effect at an instant, and whether it is daylight
// saving time.
struct LocalOffset {
  std::int32_t seconds = 0;  // east of UTC
  bool dst = false;
  friend bool operator==(const LocalOffset&, const LocalOffset&) = default;
};

class PosixTz {
 public:
  // `text` read by the grammar above, all of it; nullopt with *error
  // saying what is wrong and at which character, when it is not one.
  static std::optional<PosixTz> parse(std::string_view text, std::string* error);

  // The offset in effect at `epoch_seconds`; any int64 is an instant.
  LocalOffset at(std::int64_t epoch_seconds) const;

  // An instant after `epoch_seconds` such that at() is the same from
  // epoch_seconds up to it (exclusive): the next change, or a year's end,
  // where at() may change; INT64_MAX when at() never changes again.
  std::int64_t next_change_after(std::int64_t epoch_seconds) const;

  bool has_dst() const { return has_dst_; }

 private:
  struct Rule {
    enum Kind { kJulianNoLeap, kJulian, kMonthWeekDay } kind = kMonthWeekDay;
    int day = 0;               // Jn: 1-365; n: 0-365; Mm.w.d: d, 0-6
    int month = 0, week = 0;   // Mm.w.d
    std::int32_t time = 7200;  // seconds after local midnight, -167h to 167h
  };

  static bool parse_rule(std::string_view* text, Rule* rule, std::string* error);
  // The instant of `rule` in `year`, local time being `offset` east of UTC.
  static std::int64_t change(const Rule& rule, std::int64_t year, std::int32_t offset);

  LocalOffset standard_;
  LocalOffset daylight_;
  bool has_dst_ = false;
  Rule start_, end_;
};

}  // namespace qjt
