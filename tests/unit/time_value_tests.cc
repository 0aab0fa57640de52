// Unit tests for lib/time_value.h (the one parser of time options and the
// one rendering of times in text) and for JsonWriter's big numbers. The
// expected epoch values were computed independently (date -u -d ... +%s).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "json_writer.h"
#include "time_value.h"

using namespace qjt;

namespace {

constexpr std::int64_t kNow = 1610779748123;  // 2021-01-16T06:49:08.123Z

}  // namespace

TEST_CASE("time values: epoch milliseconds") {
  CHECK(parse_time_value("1610779748123", kNow) == 1610779748123);
  CHECK(parse_time_value("0", kNow) == 0);
  CHECK(parse_time_value("-5", kNow) == -5);
}

TEST_CASE("time values: ISO 8601 with a zone") {
  CHECK(parse_time_value("2021-01-16T06:49:08Z", kNow) == 1610779748000);
  CHECK(parse_time_value("2021-01-16T06:49:08.123Z", kNow) == 1610779748123);
  CHECK(parse_time_value("2021-01-16T14:49:08.123+08:00", kNow) == 1610779748123);
  CHECK(parse_time_value("2021-01-16T01:49:08.1-05:00", kNow) == 1610779748100);
  CHECK(parse_time_value("2021-01-16 06:49:08.123456Z", kNow) == 1610779748123);
  CHECK(parse_time_value("2021-01-16T06:49Z", kNow) == 1610779740000);
  CHECK(parse_time_value("2021-01-16T14:49:08+0800", kNow) == 1610779748000);
  CHECK(parse_time_value("1969-12-31T23:59:59.999Z", kNow) == -1);
}

TEST_CASE("time values: a date alone is midnight UTC") {
  CHECK(parse_time_value("2021-01-16", kNow) == 1610755200000);
  CHECK(parse_time_value("2024-02-29", kNow) == 1709164800000);
}

TEST_CASE("time values: relative to now") {
  CHECK(parse_time_value("-15s", kNow) == kNow - 15'000);
  CHECK(parse_time_value("-30m", kNow) == kNow - 1'800'000);
  CHECK(parse_time_value("-2h", kNow) == kNow - 7'200'000);
  CHECK(parse_time_value("-7d", kNow) == kNow - 604'800'000);
}

TEST_CASE("time values: what is refused") {
  for (const char* bad : {"", "yesterday", "2021-01-16T06:49:08", "2021-02-30", "2021-13-01", "2021-01-16T24:00Z",
                          "2021-01-16T06:49:08+25:00", "-2x", "-h", "2h", "+2h", "2021-1-16", "1e3", "0x10",
                          "2021-01-16T06:49:08.Z", "2021-01-16T06:49:08Zjunk"}) {
    CAPTURE(bad);
    CHECK_FALSE(parse_time_value(bad, kNow));
  }
  const std::string message = time_value_error("--since", "soon");
  CHECK(message.find("--since soon: expected epoch milliseconds") == 0);
  CHECK(message.find("-2h") != std::string::npos);
}

TEST_CASE("time text: ISO 8601 UTC with milliseconds, or local with its offset") {
  CHECK(format_utc_time(1610779748123) == "2021-01-16T06:49:08.123Z");
  CHECK(format_utc_time(0) == "1970-01-01T00:00:00.000Z");
  CHECK(format_utc_time(-1) == "1969-12-31T23:59:59.999Z");
  CHECK(format_time(1610779748123) == "2021-01-16T06:49:08.123Z");
  CHECK(format_zoned_time(1610779748123, TimeZone::fixed(8 * 3600)) == "2021-01-16T14:49:08.123+08:00");
  set_display_zone(TimeZone::fixed(-(5 * 3600 + 30 * 60)));
  CHECK(format_local_time(1610779748123) == "2021-01-16T01:19:08.123-05:30");
  show_local_time(true);
  CHECK(format_time(1610779748123) == "2021-01-16T01:19:08.123-05:30");
  show_local_time(false);
  std::string error;
  const auto new_york = TimeZone::load("America/New_York", &error);
  REQUIRE_MESSAGE(new_york, error);
  CHECK(format_zoned_time(1610779748123, *new_york) == "2021-01-16T01:49:08.123-05:00");
  CHECK(format_zoned_time(1626418148123, *new_york) == "2021-07-16T02:49:08.123-04:00");
  set_display_zone(TimeZone::utc());
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
