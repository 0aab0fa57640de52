// Unit tests for lib/time_zone.h, lib/tzif.h and lib/posix_tz.h. The
// reference is glibc: here, and only here, TZ is set and localtime_r and
// mktime are called, to compare TimeZone with them over many instants of
// several zones (transitions found by bisection, far past, far future
// beyond the files' tables, where their footers' rules apply).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "posix_tz.h"
#include "time_zone.h"
#include "tzif.h"

using namespace qjt;

namespace {

// TZ set to `tz` for the life of the object, and glibc's answers under it.
class GlibcZone {
 public:
  explicit GlibcZone(const std::string& tz) {
    if (const char* old = std::getenv("TZ")) old_ = old;
    setenv("TZ", tz.c_str(), 1);
    tzset();
  }
  ~GlibcZone() {
    old_ ? setenv("TZ", old_->c_str(), 1) : unsetenv("TZ");
    tzset();
  }
  GlibcZone(const GlibcZone&) = delete;
  GlibcZone& operator=(const GlibcZone&) = delete;

  static std::tm local(std::int64_t t) {
    const std::time_t seconds = t;
    std::tm tm{};
    REQUIRE(localtime_r(&seconds, &tm) != nullptr);
    return tm;
  }

  // mktime with tm_isdst = -1, after a call for the same time a day
  // earlier: glibc's answer in an overlap depends on its previous call,
  // and this is the one a log read in order gives (time_zone.h).
  static std::int64_t make_time(const CivilTime& c) {
    std::tm day_before = fields(c);
    day_before.tm_mday -= 1;
    (void)std::mktime(&day_before);
    std::tm tm = fields(c);
    return std::mktime(&tm);
  }

 private:
  static std::tm fields(const CivilTime& c) {
    std::tm tm{};
    tm.tm_year = c.year - 1900;
    tm.tm_mon = c.month - 1;
    tm.tm_mday = c.day;
    tm.tm_hour = c.hour;
    tm.tm_min = c.minute;
    tm.tm_sec = c.second;
    tm.tm_isdst = -1;
    return tm;
  }

  std::optional<std::string> old_;
};

CivilTime civil(const std::tm& tm) {
  return CivilTime{tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec};
}

// The civil fields of `wall` read as UTC (a local time as seconds).
CivilTime civil_of_wall(std::int64_t wall) {
  const std::time_t seconds = wall;
  std::tm tm{};
  REQUIRE(gmtime_r(&seconds, &tm) != nullptr);
  return civil(tm);
}

std::string show(const CivilTime& c) {
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}", c.year, c.month, c.day, c.hour, c.minute, c.second);
}

std::int64_t utc(int year, int month, int day, int hour = 0, int minute = 0, int second = 0) {
  return TimeZone::utc().utc_from_local(CivilTime{year, month, day, hour, minute, second});
}

// Compares a zone with glibc; keeps the first few differences.
class Comparison {
 public:
  Comparison(const TimeZone& zone, const GlibcZone& glibc) : zone_(zone), glibc_(glibc) {}

  void instant(std::int64_t t) {
    const std::tm tm = glibc_.local(t);
    ++checks_;
    if (zone_.offset_at_utc(t) != tm.tm_gmtoff || zone_.dst_at_utc(t) != (tm.tm_isdst > 0))
      differ(fmt::format("at {}: offset {} dst {}, glibc {} dst {}", t, zone_.offset_at_utc(t), zone_.dst_at_utc(t),
                         tm.tm_gmtoff, tm.tm_isdst));
    local(civil(tm));
  }

  void local(const CivilTime& c) {
    ++checks_;
    const std::int64_t ours = zone_.utc_from_local(c), theirs = GlibcZone::make_time(c);
    if (ours != theirs) differ(fmt::format("local {}: {}, glibc mktime {}", show(c), ours, theirs));
  }

  // Around glibc's transition at T (its offset changes from `before` to
  // `after` there): the instants beside it, and the local times at the
  // edges and in the middle of the gap or overlap it makes.
  void transition(std::int64_t t, long before, long after) {
    ++transitions_;
    for (std::int64_t d = -2; d <= 2; ++d) instant(t + d);
    const std::int64_t low = t + std::min(before, after), high = t + std::max(before, after);
    for (const std::int64_t wall : {low - 1, low, low + 1, (low + high) / 2, high - 1, high, high + 1})
      local(civil_of_wall(wall));
  }

  // Every `step` seconds from `from` to `to`, and each transition glibc
  // shows between two steps, found by bisection.
  void sweep(std::int64_t from, std::int64_t to, std::int64_t step) {
    std::tm previous = glibc_.local(from);
    for (std::int64_t t = from; t <= to; t += step) {
      instant(t);
      const std::tm now = glibc_.local(t);
      if (t > from && (now.tm_gmtoff != previous.tm_gmtoff || now.tm_isdst != previous.tm_isdst)) {
        std::int64_t lo = t - step, hi = t;  // changed in (lo, hi]
        while (hi - lo > 1) {
          const std::int64_t mid = lo + (hi - lo) / 2;
          const std::tm m = glibc_.local(mid);
          (m.tm_gmtoff == previous.tm_gmtoff && m.tm_isdst == previous.tm_isdst ? lo : hi) = mid;
        }
        transition(hi, previous.tm_gmtoff, glibc_.local(hi).tm_gmtoff);
      }
      previous = now;
    }
  }

  int checks() const { return checks_; }
  int transitions() const { return transitions_; }
  int differences() const { return differences_; }
  const std::string& report() const { return report_; }

 private:
  void differ(const std::string& what) {
    if (++differences_ <= 10) report_ += what + "\n";
  }

  const TimeZone& zone_;
  const GlibcZone& glibc_;
  int checks_ = 0, transitions_ = 0, differences_ = 0;
  std::string report_;
};

// A zone against glibc: the far past, 1800 to 2060 daily, far beyond the
// table (the footer's rule) and random instants from year 100 to 9999.
// A POSIX TZ string is compared from 1971 on: glibc computes its rules for
// every year up to 1970 as for 1970 (posix_tz.h).
void compare_with_glibc(const std::string& name, bool posix_string = false) {
  std::string error;
  const auto zone = TimeZone::load(name, &error);
  REQUIRE_MESSAGE(zone, error);
  const GlibcZone glibc(name);
  Comparison c(*zone, glibc);
  const std::int64_t start = posix_string ? utc(1971, 1, 2) : utc(1800, 1, 1);
  if (!posix_string)
    for (const std::int64_t t : {utc(100, 3, 1), utc(1000, 7, 1), utc(1583, 1, 1), utc(1799, 12, 31, 23, 59, 59)})
      c.instant(t);
  // Daily steps that drift through the hours (a day, 1 h 7 min 13 s).
  c.sweep(start, utc(2060, 1, 1), 86'400 + 4033);
  // Far future: the footer's rule, years after the table's 2037, a
  // weekly sweep, then hourly through a few years centuries ahead.
  c.sweep(utc(2060, 1, 1), utc(2500, 1, 1), 7 * 86'400 + 3607);
  c.sweep(utc(2737, 1, 1), utc(2740, 1, 1), 3'600 + 7);
  c.sweep(utc(9997, 1, 1), utc(9999, 12, 31), 86'400 + 4033);
  std::mt19937_64 random(25);
  std::uniform_int_distribution<std::int64_t> anywhen(posix_string ? start : utc(100, 1, 1), utc(9999, 12, 31));
  for (int i = 0; i < 20'000; ++i) c.instant(anywhen(random));
  MESSAGE(name << ": " << c.checks() << " checks, " << c.transitions() << " transitions");
  INFO(name << ": " << c.differences() << " difference(s), the first:\n" << c.report());
  CHECK(c.differences() == 0);
}

// A TZif file put together field by field, for the reader's checks.
class TzifBuilder {
 public:
  struct Type {
    std::int32_t offset;
    std::uint8_t dst, abbreviation;
  };
  char version = '2';
  std::vector<std::int64_t> times;
  std::vector<std::uint8_t> type_of;
  std::vector<Type> types{{0, 0, 0}};
  std::string chars = std::string("UTC") + '\0';
  std::uint32_t leaps = 0;
  std::string footer = "\nUTC0\n";
  // Counts written in place of the true ones, when set.
  std::optional<std::uint32_t> timecnt, typecnt, isstdcnt;

  std::string bytes() const {
    std::string out;
    block(&out, 4, version == '\0' ? '\0' : version);
    if (version == '\0') return out;
    block(&out, 8, version);
    return out + footer;
  }

 private:
  static void be(std::string* out, std::uint64_t value, int size) {
    for (int i = size - 1; i >= 0; --i) out->push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  }
  void block(std::string* out, int time_size, char v) const {
    *out += "TZif";
    out->push_back(v);
    *out += std::string(15, '\0');
    be(out, 0, 4);                     // isutcnt
    be(out, isstdcnt.value_or(0), 4);  // isstdcnt
    be(out, leaps, 4);                 // leapcnt
    be(out, timecnt.value_or(static_cast<std::uint32_t>(times.size())), 4);
    be(out, typecnt.value_or(static_cast<std::uint32_t>(types.size())), 4);
    be(out, chars.size(), 4);
    for (const std::int64_t t : times) be(out, static_cast<std::uint64_t>(t), time_size);
    for (const std::uint8_t i : type_of) out->push_back(static_cast<char>(i));
    for (const Type& t : types) {
      be(out, static_cast<std::uint32_t>(t.offset), 4);
      out->push_back(static_cast<char>(t.dst));
      out->push_back(static_cast<char>(t.abbreviation));
    }
    *out += chars;
    for (std::uint32_t i = 0; i < leaps; ++i) {  // a leap second's time and correction
      be(out, 0, time_size);
      be(out, 0, 4);
    }
  }
};

std::string tzif_error(const TzifBuilder& b) {
  std::string error;
  const std::string bytes = b.bytes();
  CHECK_FALSE(parse_tzif(ByteSpan(bytes), &error));
  return error;
}

}  // namespace

TEST_CASE("time zone: UTC and a fixed offset agree with glibc") {
  compare_with_glibc("UTC");
  compare_with_glibc("CST-8", true);
  const TimeZone plus8 = TimeZone::fixed(8 * 3600);
  CHECK(plus8.name() == "+08:00");
  CHECK(plus8.offset_at_utc(0) == 28'800);
  CHECK(plus8.utc_from_local(CivilTime{2021, 1, 16, 14, 49, 8}) == 1610779748);
  CHECK(TimeZone::fixed(-(5 * 3600 + 30 * 60 + 7)).name() == "-05:30:07");
  CHECK(TimeZone::fixed(1'000'000).offset_at_utc(0) == kMaxTzifOffset);
  CHECK(TimeZone().name() == "UTC");
}

TEST_CASE("time zone: Asia/Shanghai agrees with glibc") { compare_with_glibc("Asia/Shanghai"); }
TEST_CASE("time zone: America/New_York agrees with glibc") { compare_with_glibc("America/New_York"); }
TEST_CASE("time zone: Europe/London agrees with glibc (double summer time: a gap DST on both sides)") {
  compare_with_glibc("Europe/London");
}
TEST_CASE("time zone: Australia/Lord_Howe agrees with glibc (half-hour DST)") {
  compare_with_glibc("Australia/Lord_Howe");
}
TEST_CASE("time zone: America/Sao_Paulo agrees with glibc (DST until 2019, none since)") {
  compare_with_glibc("America/Sao_Paulo");
}
TEST_CASE("time zone: Europe/Dublin (DST in winter) and Europe/Moscow (gaps without DST) agree with glibc") {
  compare_with_glibc("Europe/Dublin");
  compare_with_glibc("Europe/Moscow");
}
TEST_CASE("time zone: footers with rule times below 0 and beyond 24 h agree with glibc") {
  compare_with_glibc("America/Nuuk");    // M3.5.0/-1
  compare_with_glibc("Asia/Jerusalem");  // M3.4.4/26
}
TEST_CASE("time zone: POSIX TZ strings agree with glibc") {
  compare_with_glibc("EST5EDT,M3.2.0,M11.1.0", true);
  compare_with_glibc("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", true);  // southern: DST across the new year
  compare_with_glibc("<-03>3<-02>,J60/1,300/25", true);              // Jn and n rules
  compare_with_glibc("AAA-2:30BBB-3:45:30,M4.5.6/23:59:59,M9.1.1/0", true);
}

TEST_CASE("time zone: the rule for local times that occur twice or never") {
  std::string error;
  const auto new_york = TimeZone::load("America/New_York", &error);
  const auto dublin = TimeZone::load("Europe/Dublin", &error);
  const auto moscow = TimeZone::load("Europe/Moscow", &error);
  REQUIRE_MESSAGE((new_york && dublin && moscow), error);
  // New York, 2021-03-14 02:00 EST -> 03:00 EDT: 02:30 never happened; it
  // is read with EST's offset, 03:30 EDT.
  CHECK(new_york->utc_from_local(CivilTime{2021, 3, 14, 2, 30, 0}) == utc(2021, 3, 14, 7, 30));
  // 2021-11-07 02:00 EDT -> 01:00 EST: 01:30 happened twice; the first.
  CHECK(new_york->utc_from_local(CivilTime{2021, 11, 7, 1, 30, 0}) == utc(2021, 11, 7, 5, 30));
  // Dublin's winter time is its DST: 2021-03-28 01:00 GMT (DST) -> 02:00
  // IST (not DST). 01:30 is read with IST's offset: 00:30 GMT, before it.
  CHECK(dublin->dst_at_utc(utc(2021, 1, 1)));
  CHECK(dublin->utc_from_local(CivilTime{2021, 3, 28, 1, 30, 0}) == utc(2021, 3, 28, 0, 30));
  // Moscow, 2011-03-27 02:00 +03 -> 03:00 +04, DST on neither side: with
  // the offset before, 03:30 +04.
  CHECK(moscow->utc_from_local(CivilTime{2011, 3, 27, 2, 30, 0}) == utc(2011, 3, 26, 23, 30));
}

TEST_CASE("time zone: out-of-range fields are carried as mktime carries them") {
  std::string error;
  const auto zone = TimeZone::load("America/New_York", &error);
  REQUIRE_MESSAGE(zone, error);
  const GlibcZone glibc("America/New_York");
  for (const CivilTime c :
       {CivilTime{2021, 13, 1, 0, 0, 0}, CivilTime{2021, 0, 1, 0, 0, 0}, CivilTime{2021, 2, 31, 12, 0, 0},
        CivilTime{2021, 3, 0, 12, 0, 0}, CivilTime{2021, 1, 1, 25, 61, 0}, CivilTime{2021, 6, 30, 23, 59, 60},
        CivilTime{2021, 3, 14, 1, 59, 60}, CivilTime{2021, 1, 1, 0, 0, -1}, CivilTime{2021, -25, 400, -3, -70, 125},
        CivilTime{1, 1, 1, 0, 0, 0}}) {
    INFO(show(c));
    CHECK(zone->utc_from_local(c) == GlibcZone::make_time(c));
  }
}

TEST_CASE("time zone: any instant and any fields, without overflow") {
  std::string error;
  const auto zone = TimeZone::load("Australia/Lord_Howe", &error);
  REQUIRE_MESSAGE(zone, error);
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  for (const std::int64_t t : {kMin, kMin + 1, kMin / 2, std::int64_t{-1}, kMax / 2, kMax - 1, kMax}) {
    const std::int32_t offset = zone->offset_at_utc(t);
    CHECK((offset == 36'000 || offset == 37'800 || offset == 39'600 || offset == 38'180));
  }
  constexpr int kIntMax = std::numeric_limits<int>::max(), kIntMin = std::numeric_limits<int>::min();
  for (const CivilTime c : {CivilTime{kIntMax, kIntMax, kIntMax, kIntMax, kIntMax, kIntMax},
                            CivilTime{kIntMin, kIntMin, kIntMin, kIntMin, kIntMin, kIntMin}})
    (void)zone->utc_from_local(c);
  std::string posix_error;
  const auto rule = TimeZone::from_posix_tz("EST5EDT,M3.2.0,M11.1.0", &posix_error);
  REQUIRE(rule);
  for (const std::int64_t t : {kMin, kMax})
    CHECK((rule->offset_at_utc(t) == -18'000 || rule->offset_at_utc(t) == -14'400));
}

TEST_CASE("time zone: a zone is used from several threads at once") {
  std::string error;
  const auto zone = TimeZone::load("Europe/London", &error);
  REQUIRE_MESSAGE(zone, error);
  const TimeZone copy = *zone;
  std::int64_t sums[2] = {0, 0};
  std::thread other([&] {
    for (std::int64_t t = 0; t < 4'000'000'000; t += 100'003) sums[0] += copy.offset_at_utc(t);
  });
  for (std::int64_t t = 0; t < 4'000'000'000; t += 100'003) sums[1] += zone->offset_at_utc(t);
  other.join();
  CHECK(sums[0] == sums[1]);
}

TEST_CASE("time zone: load's forms, and what it refuses") {
  std::string error;
  CHECK(TimeZone::load("UTC", &error)->offset_at_utc(0) == 0);
  CHECK(TimeZone::load(":Asia/Shanghai", &error)->offset_at_utc(0) == 28'800);
  CHECK(TimeZone::load("+08:00", &error)->offset_at_utc(0) == 28'800);
  CHECK(TimeZone::load("-05:30", &error)->offset_at_utc(0) == -19'800);
  CHECK(TimeZone::load("CST-8", &error)->offset_at_utc(0) == 28'800);
  CHECK(TimeZone::load("Etc/GMT-8", &error)->offset_at_utc(0) == 28'800);
  CHECK(TimeZone::load("Asia/Shanghai", &error)->name() == "Asia/Shanghai");
  for (const char* bad : {"", ":", "Nowhere/Atlantis", "../etc/passwd", "Asia/../../etc/passwd", "/etc/localtime", "+8",
                          "+24:00", "zone.tab", "America", "EST5EDT,M3.2.0", "CST-8x"}) {
    INFO(bad);
    error.clear();
    CHECK_FALSE(TimeZone::load(bad, &error));
    CHECK_FALSE(error.empty());
  }
  CHECK_FALSE(TimeZone::load("zone.tab", &error));
  CHECK(error.find("not a valid TZif file") != std::string::npos);
  CHECK_FALSE(TimeZone::load("Mars/Olympus", &error));
  CHECK(error.find("no zone Mars/Olympus") == 0);
}

TEST_CASE("time zone: $TZDIR is the zone database when set") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / fmt::format("qjt-tzdir-{}", getpid());
  std::filesystem::create_directories(dir / "Test");
  std::filesystem::copy_file("/usr/share/zoneinfo/Asia/Tokyo", dir / "Test" / "Zone",
                             std::filesystem::copy_options::overwrite_existing);
  setenv("TZDIR", dir.c_str(), 1);
  std::string error;
  const auto zone = TimeZone::load("Test/Zone", &error);
  CHECK_FALSE(TimeZone::load("Asia/Shanghai", &error));
  unsetenv("TZDIR");
  std::filesystem::remove_all(dir);
  REQUIRE(zone);
  CHECK(zone->offset_at_utc(0) == 32'400);
}

TEST_CASE("time zone: local() is TZ's zone, as glibc reads TZ") {
  const char* old = std::getenv("TZ");
  const std::optional<std::string> saved = old ? std::optional<std::string>(old) : std::nullopt;
  const std::int64_t summer = utc(2021, 7, 1);
  const auto offset_under = [summer](const char* tz) {
    tz ? setenv("TZ", tz, 1) : unsetenv("TZ");
    return TimeZone::local().offset_at_utc(summer);
  };
  CHECK(offset_under("UTC-8") == 28'800);
  CHECK(offset_under(":Asia/Shanghai") == 28'800);
  CHECK(offset_under("Europe/London") == 3'600);
  CHECK(offset_under("/usr/share/zoneinfo/Asia/Tokyo") == 32'400);
  CHECK(offset_under("") == 0);
  CHECK(offset_under("Nowhere/Atlantis") == 0);  // glibc: UTC, without a word
  // Unset: /etc/localtime, compared with glibc's reading of it.
  const int expected = [&] {
    unsetenv("TZ");
    tzset();
    const std::time_t t = summer;
    std::tm tm{};
    localtime_r(&t, &tm);
    return static_cast<int>(tm.tm_gmtoff);
  }();
  CHECK(offset_under(nullptr) == expected);
  saved ? setenv("TZ", saved->c_str(), 1) : unsetenv("TZ");
  tzset();
}

TEST_CASE("POSIX TZ strings: the grammar, the defaults, and what is refused") {
  std::string error;
  const auto edt = PosixTz::parse("EST5EDT", &error);  // no rules: the US ones
  REQUIRE(edt);
  CHECK(edt->at(utc(2021, 3, 14, 6, 59, 59)) == LocalOffset{-18'000, false});
  CHECK(edt->at(utc(2021, 3, 14, 7)) == LocalOffset{-14'400, true});
  CHECK(edt->at(utc(2021, 11, 7, 5, 59, 59)) == LocalOffset{-14'400, true});
  CHECK(edt->at(utc(2021, 11, 7, 6)) == LocalOffset{-18'000, false});
  CHECK(edt->next_change_after(utc(2021, 1, 1)) == utc(2021, 3, 14, 7));
  CHECK(edt->next_change_after(utc(2021, 3, 14, 7)) == utc(2021, 11, 7, 6));
  CHECK(edt->next_change_after(utc(2021, 11, 7, 6)) == utc(2022, 1, 1));
  const auto plain = PosixTz::parse("<+0545>-5:45", &error);
  REQUIRE(plain);
  CHECK(plain->at(0) == LocalOffset{20'700, false});
  CHECK(plain->next_change_after(0) == std::numeric_limits<std::int64_t>::max());
  const auto defaulted = PosixTz::parse("AAA-1BBB,J1/0,J365/24", &error);  // DST one hour ahead of std
  REQUIRE(defaulted);
  CHECK(defaulted->at(utc(2021, 6, 1)) == LocalOffset{7'200, true});
  for (const char* bad : {"", "E5", "EST", "EST25", "EST5:60", "EST5EDT,", "EST5EDT,M3.2.0", "EST5EDT,M13.2.0,M11.1.0",
                          "EST5EDT,M3.6.0,M11.1.0", "EST5EDT,M3.2.7,M11.1.0", "EST5EDT,J0,J365", "EST5EDT,366,J365",
                          "EST5EDT,M3.2.0/168,M11.1.0", "EST5EDT,M3.2.0,M11.1.0x", "<AB>5", "<ABC5", "EST5ED"}) {
    INFO(bad);
    error.clear();
    CHECK_FALSE(PosixTz::parse(bad, &error));
    CHECK(error.find("at character") != std::string::npos);
  }
}

TEST_CASE("TZif: versions 1 to 4, and the 64-bit block and footer over the 32-bit one") {
  TzifBuilder b;
  b.times = {-100, 0, 100};
  b.type_of = {1, 0, 1};
  b.types = {{3600, 0, 0}, {7200, 1, 0}};
  b.footer = "\nAAA-1BBB,M3.5.0,M10.5.0/3\n";
  for (const char version : {'2', '3', '4', '5'}) {
    b.version = version;
    std::string error;
    const std::string bytes = b.bytes();
    const auto tzif = parse_tzif(ByteSpan(bytes), &error);
    REQUIRE_MESSAGE(tzif, error);
    CHECK(tzif->version == (version == '5' ? 4 : version - '0'));
    CHECK(tzif->times == std::vector<std::int64_t>{-100, 0, 100});
    CHECK(tzif->footer == "AAA-1BBB,M3.5.0,M10.5.0/3");
    CHECK(tzif->rule);
    const auto zone = TimeZone::from_tzif(ByteSpan(bytes), "test", &error);
    REQUIRE(zone);
    CHECK(zone->offset_at_utc(-101) == 3600);  // before the table: the first type that is not DST
    CHECK(zone->offset_at_utc(-100) == 7200);
    CHECK(zone->offset_at_utc(50) == 3600);
    CHECK(zone->offset_at_utc(utc(2021, 1, 1)) == 3600);  // the footer from the last transition on
    CHECK(zone->offset_at_utc(utc(2021, 7, 1)) == 7200);
  }
  b.version = '\0';  // version 1: no footer, the last type ever after
  std::string error;
  const std::string v1 = b.bytes() + "trailing bytes are ignored";
  const auto zone = TimeZone::from_tzif(ByteSpan(v1), "v1", &error);
  REQUIRE_MESSAGE(zone, error);
  CHECK(zone->offset_at_utc(utc(2021, 1, 1)) == 7200);
  b.version = '2';
  b.footer = "\n\n";  // an empty footer: the last type ever after
  const std::string empty_footer = b.bytes();
  const auto last = TimeZone::from_tzif(ByteSpan(empty_footer), "empty footer", &error);
  REQUIRE_MESSAGE(last, error);
  CHECK(last->offset_at_utc(utc(2021, 1, 1)) == 7200);
  // Real files: fat ones (a table to 2037) and the footer beyond it.
  std::ifstream in("/usr/share/zoneinfo/America/New_York", std::ios::binary);
  const std::string ny((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto tzif = parse_tzif(ByteSpan(ny), &error);
  REQUIRE_MESSAGE(tzif, error);
  CHECK(tzif->version >= 2);
  CHECK(tzif->footer == "EST5EDT,M3.2.0,M11.1.0");
}

TEST_CASE("TZif: every count is checked against the file, every field against its range") {
  TzifBuilder b;
  b.times = {0, 100};
  b.type_of = {0, 0};
  const auto fails_with = [](const TzifBuilder& builder, const std::string& what) {
    const std::string error = tzif_error(builder);
    INFO(error);
    CHECK(error.find(what) != std::string::npos);
  };
  {
    TzifBuilder huge = b;  // 4 billion transitions announced: refused before any allocation
    huge.timecnt = 0xffffffff;
    fails_with(huge, "the counts need a data block of");
    huge.timecnt.reset();
    huge.leaps = 1;  // leap records are skipped but must be there
    const std::string bytes = huge.bytes();
    std::string error;
    CHECK(parse_tzif(ByteSpan(bytes), &error));
  }
  {
    TzifBuilder none = b;
    none.typecnt = 0;
    fails_with(none, "typecnt is 0");
    TzifBuilder indicators = b;
    indicators.isstdcnt = 3;
    fails_with(indicators, "isstdcnt 3 is neither 0 nor typecnt 1");
  }
  {
    TzifBuilder order = b;
    order.times = {100, 100};
    fails_with(order, "is not after the one before");
    TzifBuilder index = b;
    index.type_of = {0, 1};
    fails_with(index, "transition 1 has type 1, of 1 types");
    TzifBuilder offset = b;
    offset.types = {{93'600, 0, 0}};
    fails_with(offset, "has offset 93600 s");
    TzifBuilder dst = b;
    dst.types = {{0, 2, 0}};
    fails_with(dst, "isdst 2");
    TzifBuilder abbreviation = b;
    abbreviation.types = {{0, 0, 4}};
    fails_with(abbreviation, "abbreviation index 4, of 4 characters");
  }
  {
    TzifBuilder footer = b;
    footer.footer = "";
    fails_with(footer, "no footer");
    footer.footer = "\nUTC0";
    fails_with(footer, "no closing newline");
    footer.footer = "\nUTC0\nmore";
    fails_with(footer, "4 bytes after the footer");
    footer.footer = "\nUTC\n";
    fails_with(footer, "footer: expected an offset");
    TzifBuilder version = b;
    version.version = '1';
    fails_with(version, "unknown version byte 0x31");
  }
  std::string error;
  const std::string bytes = b.bytes();
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
    INFO(cut);
    CHECK_FALSE(parse_tzif(ByteSpan(std::string_view(bytes).substr(0, cut)), &error));
  }
  CHECK(parse_tzif(ByteSpan(bytes), &error));
  CHECK_FALSE(parse_tzif(ByteSpan(std::string_view("TZjf")), &error));
  CHECK(error.find("byte 0: no \"TZif\" magic") != std::string::npos);
}
