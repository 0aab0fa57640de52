// tzif: a TZif zone file (lib/tzif.h), as --tz and TZ name one. When it
// reads as a zone, every transition and the instants beside it, the far
// past and future (the footer's rule) and int64's ends are converted both
// ways: each offset must be one a zone may have, and the instant of a
// local time must be within a day of it. The same bytes are also read as
// a POSIX TZ string (lib/posix_tz.h), whose changes must move forward.
#include <limits>

#include "civil_calendar.h"
#include "fuzz_support.h"
#include "posix_tz.h"
#include "time_zone.h"
#include "tzif.h"

using namespace qjt;

namespace {

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

// The local time `t` shows in `zone` as fields, back to an instant.
void round_trip(const TimeZone& zone, std::int64_t t) {
  const std::int32_t offset = zone.offset_at_utc(t);
  FUZZ_CHECK(offset >= kMinTzifOffset && offset <= kMaxTzifOffset);
  (void)zone.dst_at_utc(t);
  // Fields only for instants an int year holds, with room for the offset.
  if (t < -(std::int64_t{1} << 55) || t > (std::int64_t{1} << 55)) return;
  const std::int64_t wall = t + offset;
  const std::int64_t days = calendar::floor_div(wall, calendar::kSecondsPerDay);
  const std::int64_t second_of_day = calendar::floor_mod(wall, calendar::kSecondsPerDay);
  const calendar::CivilDate date = calendar::civil_from_days(days);
  const CivilTime local{static_cast<int>(date.year),
                        date.month,
                        date.day,
                        static_cast<int>(second_of_day / 3600),
                        static_cast<int>(second_of_day / 60 % 60),
                        static_cast<int>(second_of_day % 60)};
  const std::int64_t back = zone.utc_from_local(local);
  FUZZ_CHECK(back - wall >= -kMaxTzifOffset - 1 && back - wall <= -kMinTzifOffset + 1);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string error;
  const ByteSpan bytes = fuzz::bytes(data, size);
  if (const auto tzif = parse_tzif(bytes, &error)) {
    FUZZ_CHECK(!tzif->types.empty() && tzif->times.size() == tzif->type_of.size());
    const auto zone = TimeZone::from_tzif(bytes, "fuzz", &error);
    FUZZ_CHECK(zone.has_value());
    std::size_t n = 0;
    for (const std::int64_t t : tzif->times) {
      if (++n > 64) break;
      for (const std::int64_t d : {std::int64_t{-1}, std::int64_t{0}, std::int64_t{1}})
        if ((d < 0 && t > kMin) || d == 0 || (d > 0 && t < kMax)) round_trip(*zone, t + d);
    }
    for (const std::int64_t t : {kMin, std::int64_t{-62'135'596'800}, std::int64_t{0}, std::int64_t{2'145'916'800},
                                 std::int64_t{253'402'300'799}, kMax})
      round_trip(*zone, t);
  } else {
    FUZZ_CHECK(!error.empty());
  }
  const std::string_view text = fuzz::text(data, size);
  if (const auto rule = PosixTz::parse(text, &error)) {
    for (const std::int64_t t : {kMin, std::int64_t{-1}, std::int64_t{1'600'000'000}, kMax - 1}) {
      const std::int64_t next = rule->next_change_after(t);
      FUZZ_CHECK(next > t);
      (void)rule->at(t);
    }
    const auto zone = TimeZone::from_posix_tz(text, &error);
    FUZZ_CHECK(zone.has_value());
    round_trip(*zone, 1'600'000'000);
  }
  return 0;
}
