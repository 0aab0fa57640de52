// Unit tests for lib/time_value.h (the one parser of time options and the
// one rendering of times in text) and for JsonWriter's big numbers. The
// expected epoch values were computed independently (date -u -d ... +%s,
// and by hand from the zones' published changes).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "json_writer.h"
#include "time_span.h"
#include "time_value.h"

using namespace qjt;

namespace {

constexpr std::int64_t kNow = 1610779748123;  // 2021-01-16T06:49:08.123Z

TimeZone load(const char* name) {
  std::string error;
  const auto zone = TimeZone::load(name, &error);
  REQUIRE_MESSAGE(zone, error);
  return *zone;
}

}  // namespace

TEST_CASE("time values: epoch milliseconds, and seconds after an @") {
  CHECK(parse_time_value("1610779748123", kNow, TimeZone::utc()) == 1610779748123);
  CHECK(parse_time_value("0", kNow, TimeZone::utc()) == 0);
  CHECK(parse_time_value("-5", kNow, TimeZone::utc()) == -5);
  CHECK(parse_time_value("2", kNow, TimeZone::utc()) == 2);  // a bare number is a time, not a span
  CHECK(parse_time_value("@1610779748", kNow, TimeZone::utc()) == 1610779748000);
  CHECK(parse_time_value("@1610779748.123456", kNow, TimeZone::utc()) == 1610779748123);
  CHECK(parse_time_value("@-1.5", kNow, TimeZone::utc()) == -1500);
}

TEST_CASE("time values: ISO 8601 with a zone, whatever the local zone") {
  const TimeZone zone = load("America/New_York");
  CHECK(parse_time_value("2021-01-16T06:49:08Z", kNow, zone) == 1610779748000);
  CHECK(parse_time_value("2021-01-16T06:49:08.123Z", kNow, zone) == 1610779748123);
  CHECK(parse_time_value("2021-01-16T14:49:08.123+08:00", kNow, zone) == 1610779748123);
  CHECK(parse_time_value("2021-01-16T01:49:08.1-05:00", kNow, zone) == 1610779748100);
  CHECK(parse_time_value("2021-01-16 06:49:08.123456Z", kNow, zone) == 1610779748123);
  CHECK(parse_time_value("2021-01-16T06:49Z", kNow, zone) == 1610779740000);
  CHECK(parse_time_value("2021-01-16T14:49:08+0800", kNow, zone) == 1610779748000);
  CHECK(parse_time_value("2021-01-16 06:49:08 UTC", kNow, zone) == 1610779748000);
  CHECK(parse_time_value("1969-12-31T23:59:59.999Z", kNow, zone) == -1);
}

TEST_CASE("time values: without a zone, local in the zone given") {
  CHECK(parse_time_value("2021-01-16 06:49:08", kNow, TimeZone::utc()) == 1610779748000);
  CHECK(parse_time_value("2021-01-16T06:49:08.123", kNow, TimeZone::utc()) == 1610779748123);
  CHECK(parse_time_value("2021-01-16", kNow, TimeZone::utc()) == 1610755200000);
  CHECK(parse_time_value("2024-02-29", kNow, TimeZone::utc()) == 1709164800000);
  const TimeZone shanghai = load("Asia/Shanghai");
  CHECK(parse_time_value("2021-01-16 14:49:08", kNow, shanghai) == 1610779748000);
  CHECK(parse_time_value("2021-01-16", kNow, shanghai) == 1610726400000);  // 2021-01-15T16:00Z
  // A time alone is today's: 14:49 in Shanghai, where it is 14:49:08 now.
  CHECK(parse_time_value("14:49", kNow, shanghai) == 1610779740000);
  CHECK(parse_time_value("06:49:08.5", kNow, TimeZone::utc()) == 1610779748500);
}

TEST_CASE("time values: local times the clocks skipped or showed twice, as mktime reads them") {
  // New York's clocks went from 02:00 EST to 03:00 EDT on 2021-03-14
  // (07:00Z), and from 02:00 EDT back to 01:00 EST on 2021-11-07 (06:00Z).
  const TimeZone new_york = load("America/New_York");
  CHECK(parse_time_value("2021-03-14 01:59:59", kNow, new_york) == 1615705199000);  // 06:59:59Z
  CHECK(parse_time_value("2021-03-14 03:00", kNow, new_york) == 1615705200000);     // 07:00Z
  // In the gap: read with the offset before it (-05:00), 03:30 EDT.
  CHECK(parse_time_value("2021-03-14 02:30", kNow, new_york) == 1615707000000);  // 07:30Z
  // Twice: the earlier, on EDT.
  CHECK(parse_time_value("2021-11-07 01:30", kNow, new_york) == 1636263000000);  // 05:30Z, not 06:30Z
  // Berlin skipped 02:00 to 03:00 on 2021-03-28 (01:00Z): 02:30 is read at +01:00.
  CHECK(parse_time_value("2021-03-28 02:30", kNow, load("Europe/Berlin")) == 1616895000000);  // 01:30Z
}

TEST_CASE("time values: now, today, yesterday, tomorrow in the zone given") {
  CHECK(parse_time_value("now", kNow, TimeZone::utc()) == kNow);
  CHECK(parse_time_value("today", kNow, TimeZone::utc()) == 1610755200000);      // 2021-01-16T00:00Z
  CHECK(parse_time_value("yesterday", kNow, TimeZone::utc()) == 1610668800000);  // 2021-01-15T00:00Z
  CHECK(parse_time_value("tomorrow", kNow, TimeZone::utc()) == 1610841600000);   // 2021-01-17T00:00Z
  // 06:49Z is 01:49 in New York, 14:49 in Shanghai, 22:49 the day before
  // in Los Angeles: each its own day's midnight.
  const TimeZone new_york = load("America/New_York");
  CHECK(parse_time_value("today", kNow, new_york) == 1610773200000);                     // 2021-01-16T05:00Z
  CHECK(parse_time_value("yesterday", kNow, new_york) == 1610686800000);                 // 2021-01-15T05:00Z
  CHECK(parse_time_value("today", kNow, load("Asia/Shanghai")) == 1610726400000);        // 2021-01-15T16:00Z
  CHECK(parse_time_value("today", kNow, load("America/Los_Angeles")) == 1610697600000);  // 2021-01-15T08:00Z
  // On the day New York's clocks went forward, the day is 23 hours long.
  const std::int64_t spring_noon = 1615723200000;                               // 2021-03-14T12:00Z
  CHECK(parse_time_value("today", spring_noon, new_york) == 1615698000000);     // 2021-03-14T05:00Z
  CHECK(parse_time_value("tomorrow", spring_noon, new_york) == 1615780800000);  // 2021-03-15T04:00Z
}

TEST_CASE("time values: relative to now, journalctl's spans") {
  for (const char* before : {"2h", "-2h", "2h ago", "2 hours ago", "120min", "7200s", "1h 60m", "1h60min"}) {
    CAPTURE(before);
    CHECK(parse_time_value(before, kNow, TimeZone::utc()) == kNow - 7'200'000);
  }
  for (const char* after : {"+2h", "2h left", "+2hours"}) {
    CAPTURE(after);
    CHECK(parse_time_value(after, kNow, TimeZone::utc()) == kNow + 7'200'000);
  }
  CHECK(parse_time_value("-15s", kNow, TimeZone::utc()) == kNow - 15'000);
  CHECK(parse_time_value("-30m", kNow, TimeZone::utc()) == kNow - 1'800'000);
  CHECK(parse_time_value("-7d", kNow, TimeZone::utc()) == kNow - 604'800'000);
  CHECK(parse_time_value("1w", kNow, TimeZone::utc()) == kNow - 604'800'000);
  CHECK(parse_time_value("-1w", kNow, TimeZone::utc()) == kNow - 604'800'000);
  CHECK(parse_time_value("250ms", kNow, TimeZone::utc()) == kNow - 250);
  CHECK(parse_time_value("1M", kNow, TimeZone::utc()) == kNow - 2'629'800'000);   // systemd's 30.44 days
  CHECK(parse_time_value("1y", kNow, TimeZone::utc()) == kNow - 31'557'600'000);  // and 365.25
}

TEST_CASE("time text: ISO 8601 UTC with milliseconds, or local with its offset") {
  CHECK(format_utc_time(1610779748123) == "2021-01-16T06:49:08.123Z");
  CHECK(format_utc_time(0) == "1970-01-01T00:00:00.000Z");
  CHECK(format_utc_time(-1) == "1969-12-31T23:59:59.999Z");
  CHECK(format_time(1610779748123) == "2021-01-16T06:49:08.123Z");
  CHECK(format_zoned_time(1610779748123, TimeZone::fixed(8 * 3600)) == "2021-01-16T14:49:08.123+08:00");
  set_local_zone(TimeZone::fixed(-(5 * 3600 + 30 * 60)));
  CHECK(format_local_time(1610779748123) == "2021-01-16T01:19:08.123-05:30");
  show_local_time(true);
  CHECK(format_time(1610779748123) == "2021-01-16T01:19:08.123-05:30");
  show_local_time(false);
  std::string error;
  const auto new_york = TimeZone::load("America/New_York", &error);
  REQUIRE_MESSAGE(new_york, error);
  CHECK(format_zoned_time(1610779748123, *new_york) == "2021-01-16T01:49:08.123-05:00");
  CHECK(format_zoned_time(1626418148123, *new_york) == "2021-07-16T02:49:08.123-04:00");
  set_local_zone(TimeZone::utc());
  CHECK(format_local_time(1610779748123) == "2021-01-16T06:49:08.123+00:00");
}

// Found by fuzz_libkestrel_segment: a damaged add time overflowed the
// calendar arithmetic (UBSan); times outside the years 0 to 9999 show as ms.
TEST_CASE("time text: a time no calendar can show is its milliseconds") {
  CHECK(format_utc_time(INT64_MIN) == "-9223372036854775808ms");
  CHECK(format_utc_time(INT64_MAX) == "9223372036854775807ms");
  CHECK(format_local_time(INT64_MIN) == "-9223372036854775808ms");
  CHECK(format_utc_time(253'402'300'799'999) == "253402300799999ms");
  CHECK(format_utc_time(253'402'128'000'000) == "9999-12-30T00:00:00.000Z");
}

TEST_CASE("JsonWriter: integers beyond 2^53 as strings only when asked") {
  auto render = [](std::int64_t v, std::uint64_t u) {
    std::string out;
    JsonWriter(&out).begin_array().number(v).unsigned_number(u).end_array();
    return out;
  };
  CHECK(render(9007199254740993, 18446744073709551615ULL) == "[9007199254740993,18446744073709551615]");
  write_big_numbers_as_strings(true);
  CHECK(render(9007199254740993, 18446744073709551615ULL) == "[\"9007199254740993\",\"18446744073709551615\"]");
  CHECK(render(-9007199254740993, 9007199254740992) == "[\"-9007199254740993\",9007199254740992]");
  CHECK(render(INT64_MIN, 0) == "[\"-9223372036854775808\",0]");
  write_big_numbers_as_strings(false);
  CHECK(parse_big_number_string("9007199254740993") == 9007199254740993);
  CHECK(parse_big_number_string("-9223372036854775808") == INT64_MIN);
  CHECK_FALSE(parse_big_number_string("9007199254740992"));  // a number writes it
  CHECK_FALSE(parse_big_number_string("7"));
  CHECK_FALSE(parse_big_number_string("+9007199254740993"));
  CHECK_FALSE(parse_big_number_string("12a"));
  CHECK_FALSE(parse_big_number_string("99999999999999999999"));
  CHECK_FALSE(parse_big_number_string(""));
}
