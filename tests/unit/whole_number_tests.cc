// Unit tests for lib/whole_number.h: the whole text or nothing, no sign an
// unsigned type cannot have, and no overflow read as 0 or as a cut value.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "whole_number.h"

using qjt::whole_number;

TEST_CASE("whole numbers: plain decimal") {
  CHECK(whole_number<int>("0") == 0);
  CHECK(whole_number<int>("42") == 42);
  CHECK(whole_number<std::uint64_t>("0042") == 42u);
  CHECK(whole_number<std::int64_t>("-17") == -17);
}

TEST_CASE("whole numbers: an empty text is none") {
  CHECK_FALSE(whole_number<int>(""));
  CHECK_FALSE(whole_number<std::uint64_t>(""));
  CHECK_FALSE(whole_number<std::uint64_t>("", 16));
  CHECK_FALSE(whole_number<int>("-"));
}

TEST_CASE("whole numbers: signs") {
  CHECK_FALSE(whole_number<int>("+1"));
  CHECK_FALSE(whole_number<std::uint32_t>("+1"));
  CHECK_FALSE(whole_number<std::uint32_t>("-1"));
  CHECK_FALSE(whole_number<std::uint64_t>("-0"));
  CHECK_FALSE(whole_number<std::uint8_t>("-1"));
  CHECK(whole_number<std::int32_t>("-0") == 0);
  CHECK_FALSE(whole_number<std::int32_t>("--1"));
  CHECK_FALSE(whole_number<std::int32_t>("-+1"));
}

TEST_CASE("whole numbers: bytes before or after the digits") {
  CHECK_FALSE(whole_number<int>("12abc"));
  CHECK_FALSE(whole_number<int>("12 "));
  CHECK_FALSE(whole_number<int>(" 12"));
  CHECK_FALSE(whole_number<int>("12\n"));
  CHECK_FALSE(whole_number<int>("1.5"));
  CHECK_FALSE(whole_number<int>("1e3"));
  CHECK_FALSE(whole_number<int>("0x10"));
  CHECK_FALSE(whole_number<std::uint64_t>("12", 2));
  // A NUL inside the view is a byte like any other.
  CHECK_FALSE(whole_number<int>(std::string_view("12\0", 3)));
  // Only the view is read, not what follows it in memory.
  CHECK(whole_number<int>(std::string_view("123", 2)) == 12);
}

TEST_CASE("whole numbers: the largest and smallest values of each width") {
  CHECK(whole_number<std::uint8_t>("255") == 255);
  CHECK(whole_number<std::int8_t>("127") == 127);
  CHECK(whole_number<std::int8_t>("-128") == -128);
  CHECK(whole_number<std::uint16_t>("65535") == 65535);
  CHECK(whole_number<std::int16_t>("-32768") == -32768);
  CHECK(whole_number<std::uint32_t>("4294967295") == 4294967295u);
  CHECK(whole_number<std::int32_t>("2147483647") == 2147483647);
  CHECK(whole_number<std::int32_t>("-2147483648") == std::numeric_limits<std::int32_t>::min());
  CHECK(whole_number<std::uint64_t>("18446744073709551615") == std::numeric_limits<std::uint64_t>::max());
  CHECK(whole_number<std::int64_t>("9223372036854775807") == std::numeric_limits<std::int64_t>::max());
  CHECK(whole_number<std::int64_t>("-9223372036854775808") == std::numeric_limits<std::int64_t>::min());
}

TEST_CASE("whole numbers: one past each width is refused, not wrapped or read as 0") {
  CHECK_FALSE(whole_number<std::uint8_t>("256"));
  CHECK_FALSE(whole_number<std::int8_t>("128"));
  CHECK_FALSE(whole_number<std::int8_t>("-129"));
  CHECK_FALSE(whole_number<std::uint16_t>("65536"));
  CHECK_FALSE(whole_number<std::int16_t>("32768"));
  CHECK_FALSE(whole_number<std::int16_t>("-32769"));
  CHECK_FALSE(whole_number<std::uint32_t>("4294967296"));
  CHECK_FALSE(whole_number<std::int32_t>("2147483648"));
  CHECK_FALSE(whole_number<std::int32_t>("-2147483649"));
  CHECK_FALSE(whole_number<std::uint64_t>("18446744073709551616"));
  CHECK_FALSE(whole_number<std::int64_t>("9223372036854775808"));
  CHECK_FALSE(whole_number<std::int64_t>("-9223372036854775809"));
  CHECK_FALSE(whole_number<std::uint64_t>("99999999999999999999999999999"));
  // Overflow followed by more bytes is refused too.
  CHECK_FALSE(whole_number<std::uint8_t>("300x"));
}

TEST_CASE("whole numbers: base 16") {
  CHECK(whole_number<std::uint64_t>("ff", 16) == 255u);
  CHECK(whole_number<std::uint64_t>("FF", 16) == 255u);
  CHECK(whole_number<std::uint64_t>("0", 16) == 0u);
  CHECK(whole_number<std::uint64_t>("ffffffffffffffff", 16) == std::numeric_limits<std::uint64_t>::max());
  CHECK_FALSE(whole_number<std::uint64_t>("10000000000000000", 16));
  CHECK(whole_number<std::uint8_t>("ff", 16) == 255);
  CHECK_FALSE(whole_number<std::uint8_t>("100", 16));
  CHECK(whole_number<std::int32_t>("-80000000", 16) == std::numeric_limits<std::int32_t>::min());
  CHECK_FALSE(whole_number<std::int32_t>("80000000", 16));
  CHECK_FALSE(whole_number<std::uint64_t>("0x10", 16));
  CHECK_FALSE(whole_number<std::uint64_t>("fg", 16));
  CHECK_FALSE(whole_number<std::uint64_t>("ff", 10));
}
