// TZif, the compiled zone files of the time zone database
// (/usr/share/zoneinfo/Asia/Shanghai; RFC 9636, which obsoletes RFC 8536),
// versions 1 to 4, read into what a time zone needs: the transitions, the
// offset each switches to, and the footer's POSIX TZ string.
//
// Layout: a 44-byte header ("TZif", a version byte, 15 reserved bytes, six
// big-endian 32-bit counts: isutcnt, isstdcnt, leapcnt, timecnt, typecnt,
// charcnt) and a data block of 32-bit times (version 1). Versions 2 and up
// follow it with a second header and data block of 64-bit times, which is
// the one read here (the first is only skipped), then a footer: a newline,
// a POSIX TZ string (posix_tz.h) for the times after the last transition,
// possibly empty, and a newline.
//
// Every count is checked against the bytes that are there before anything
// is sized by it, so nothing is allocated beyond the file's size; then the
// RFC's constraints on what is read: at least one type, indicator counts
// of 0 or typecnt, transitions in strictly ascending order, type indices
// within typecnt, offsets within -89999 to 93599 seconds (the RFC's
// SHOULD, which keeps every offset under 26 hours), isdst 0 or 1,
// abbreviation indices within charcnt, and the footer's newlines and TZ
// string. Leap second records are checked for size and otherwise ignored:
// qjt's times are POSIX times, as Java's milliseconds are. A version byte
// beyond '4' is read as version 4, as glibc reads it; bytes after a version
// 1 data block are ignored, after a footer refused.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "byte_span.h"
#include "posix_tz.h"

namespace qjt {

struct Tzif {
  int version = 1;                    // 1 to 4
  std::vector<std::int64_t> times;    // transition instants, strictly ascending
  std::vector<std::uint8_t> type_of;  // per transition: its index into types
  std::vector<LocalOffset> types;     // at least one
  std::optional<std::string> footer;  // versions 2 and up; may be empty
  std::optional<PosixTz> rule;        // the footer's, when not empty
};

// Smallest and largest offsets a TZif type may have (RFC 9636 section 3.2).
inline constexpr std::int32_t kMinTzifOffset = -89'999;
inline constexpr std::int32_t kMaxTzifOffset = 93'599;

// `bytes` as a TZif file; nullopt with *error saying what is wrong and at
// which byte offset when it is not a valid one.
std::optional<Tzif> parse_tzif(ByteSpan bytes, std::string* error);

}  // namespace qjt
