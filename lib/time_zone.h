// A time zone as a value: the offset from UTC of every instant, and the
// instant of a local time. Nothing here reads or sets the process's TZ
// through the C library (no tzset, localtime_r or mktime), so zones can
// differ between threads, or between the inputs of one run.
//
// A zone is UTC, a fixed offset, a TZif file of the zone database (tzif.h)
// with its footer's rule for the times after its table, or a POSIX TZ
// string (posix_tz.h). TimeZone::load takes, in this order:
//   - ":NAME", read as NAME (POSIX's implementation-defined form);
//   - +HH:MM or -HH:MM, a fixed offset EAST of UTC as ISO 8601 writes it
//     (+08:00 is 8 hours ahead);
//   - an IANA name (Asia/Shanghai, UTC, Etc/GMT-8): the file of that name
//     under $TZDIR, else /usr/share/zoneinfo; a name that is absolute or
//     holds ".." is refused, so that --tz reads no other file;
//   - UTC, when there is no file of that name;
//   - a POSIX TZ string, CST-8 or EST5EDT,M3.2.0,M11.1.0 (its offsets are
//     WEST of UTC, as POSIX counts them).
// Anything else, and a file that is not valid TZif, is an error: glibc
// reads an unknown name as UTC without a word, which for --tz would hide a
// typo.
//
// Copies are cheap and share the zone's immutable tables; a TimeZone may be
// used from several threads at once.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "byte_span.h"
#include "posix_tz.h"

namespace qjt {

// A local date and time as a log writes it. Fields out of their range are
// carried as mktime carries them (month 13 is January of the next year,
// day 0 the last day of the month before, second 60 the next minute's 0).
struct CivilTime {
  int year = 1970;
  int month = 1;  // 1 to 12
  int day = 1;    // 1 to 31
  int hour = 0;
  int minute = 0;
  int second = 0;
};

class TimeZone {
 public:
  // UTC.
  TimeZone();

  static TimeZone utc();
  // `seconds` east of UTC, within a day either way (clamped to
  // kMinTzifOffset..kMaxTzifOffset); named +HH:MM.
  static TimeZone fixed(std::int32_t seconds);

  // `name` in one of the forms above; nullopt with *error saying why it
  // names no zone.
  static std::optional<TimeZone> load(std::string_view name, std::string* error);

  // This machine's zone, as the C library would take it: the TZ
  // variable's (":NAME", an IANA name, an absolute path to a TZif file,
  // or a POSIX TZ string; empty is UTC), else /etc/localtime, else UTC.
  // What names no zone is UTC here, as glibc has it, not an error.
  static TimeZone local();

  // A TZif file's bytes, read as `name`; nullopt with *error when they are
  // not a valid TZif file.
  static std::optional<TimeZone> from_tzif(ByteSpan bytes, std::string_view name, std::string* error);
  // A POSIX TZ string; nullopt with *error when it is not one.
  static std::optional<TimeZone> from_posix_tz(std::string_view text, std::string* error);

  // As given: "Asia/Shanghai", "+08:00", "CST-8", "UTC".
  const std::string& name() const;

  // Seconds east of UTC in effect at an instant (any int64). Before the
  // table's first transition, the first type that is not DST, as glibc
  // has it; from its last transition on, the footer's rule if it has one,
  // else the last transition's type.
  std::int32_t offset_at_utc(std::int64_t epoch_seconds) const;
  // Whether that offset is daylight saving time.
  bool dst_at_utc(std::int64_t epoch_seconds) const;

  // The instant at which this zone's clocks showed `local`: what mktime
  // returns with tm_isdst = -1 under TZ set to this zone, for any local
  // time glibc's answer does not depend on its earlier calls:
  //   - a local time that occurs once: that instant;
  //   - one that occurs twice (clocks set back): the earlier instant, on
  //     the offset in effect before the change. glibc gives the instant
  //     on the offset its previous call found, which for a log read in
  //     order is the same; the answer here does not depend on the order;
  //   - one that never occurs (clocks set forward over it): read with
  //     the offset in effect before the change, so that 02:30 in a one-hour
  //     gap at 02:00 is 03:30 after it; except where DST is in effect
  //     before the change and not after it (Europe/Dublin, whose winter
  //     time is its DST): then with the offset after it, 01:30 being 00:30
  //     before it. glibc prefers the DST side of a gap; where both sides
  //     or neither is DST, it answers as here when its previous call was
  //     before the change.
  std::int64_t utc_from_local(const CivilTime& local) const;

 private:
  struct Data;
  explicit TimeZone(std::shared_ptr<const Data> data);

  LocalOffset at(std::int64_t epoch_seconds) const;
  // The first instant after `epoch_seconds` at which at() may change.
  std::int64_t next_change_after(std::int64_t epoch_seconds) const;

  std::shared_ptr<const Data> data_;
};

}  // namespace qjt
