#include "time_zone.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>

#include <fmt/format.h>

#include "civil_calendar.h"
#include "tzif.h"

namespace qjt {

struct TimeZone::Data {
  std::string name;
  std::vector<std::int64_t> times;  // transitions, ascending
  std::vector<std::uint8_t> type_of;
  std::vector<LocalOffset> types;
  LocalOffset before;           // before the first transition; always, without transitions or rule
  std::optional<PosixTz> rule;  // from the last transition on; always, without transitions
};

namespace {

// Zone files are a few KiB; a larger file is no zone.
constexpr std::uintmax_t kMaxZoneFileBytes = 1 << 20;
// More than any offset a zone can have (tzif.h, posix_tz.h).
constexpr std::int64_t kReach = kMaxTzifOffset + 1;

// A regular file's bytes, when it is one and small enough to be a zone.
std::optional<std::string> read_zone_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size > kMaxZoneFileBytes) return std::nullopt;
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return std::nullopt;
  std::string bytes(static_cast<std::size_t>(size) + 1, '\0');
  const std::size_t read = std::fread(bytes.data(), 1, bytes.size(), file);
  const bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed || read > size) return std::nullopt;
  bytes.resize(read);
  return bytes;
}

std::filesystem::path zone_database() {
  const char* dir = std::getenv("TZDIR");
  return dir != nullptr && *dir != '\0' ? dir : "/usr/share/zoneinfo";
}

// +HH:MM or -HH:MM, east of UTC, as --tz has always taken it.
std::optional<std::int32_t> iso_offset(std::string_view text) {
  const auto digit = [&text](std::size_t i) { return text[i] >= '0' && text[i] <= '9'; };
  if (text.size() != 6 || (text[0] != '+' && text[0] != '-') || text[3] != ':' || !digit(1) || !digit(2) || !digit(4) ||
      !digit(5))
    return std::nullopt;
  const int hours = (text[1] - '0') * 10 + (text[2] - '0'), minutes = (text[4] - '0') * 10 + (text[5] - '0');
  if (hours > 23 || minutes > 59) return std::nullopt;
  return (text[0] == '-' ? -1 : 1) * (hours * 3600 + minutes * 60);
}

}  // namespace

TimeZone::TimeZone(std::shared_ptr<const Data> data) : data_(std::move(data)) {}

TimeZone::TimeZone() {
  static const std::shared_ptr<const Data> utc = [] {
    auto data = std::make_shared<Data>();
    data->name = "UTC";
    return data;
  }();
  data_ = utc;
}

TimeZone TimeZone::utc() { return TimeZone(); }

TimeZone TimeZone::fixed(std::int32_t seconds) {
  seconds = std::clamp(seconds, kMinTzifOffset, kMaxTzifOffset);
  auto data = std::make_shared<Data>();
  const std::int32_t magnitude = seconds < 0 ? -seconds : seconds;
  data->name = fmt::format("{}{:02}:{:02}", seconds < 0 ? '-' : '+', magnitude / 3600, magnitude / 60 % 60);
  if (magnitude % 60 != 0) data->name += fmt::format(":{:02}", magnitude % 60);
  data->before = LocalOffset{seconds, false};
  return TimeZone(std::move(data));
}

std::optional<TimeZone> TimeZone::from_tzif(ByteSpan bytes, std::string_view name, std::string* error) {
  auto tzif = parse_tzif(bytes, error);
  if (!tzif) return std::nullopt;
  auto data = std::make_shared<Data>();
  data->name = std::string(name);
  data->times = std::move(tzif->times);
  data->type_of = std::move(tzif->type_of);
  data->types = std::move(tzif->types);
  data->rule = std::move(tzif->rule);
  // glibc (tzfile.c): before the first transition, the first type that is
  // not DST, else the first. zic makes that type 0, local mean time.
  const auto standard = std::find_if(data->types.begin(), data->types.end(), [](LocalOffset t) { return !t.dst; });
  data->before = standard != data->types.end() ? *standard : data->types.front();
  return TimeZone(std::move(data));
}

std::optional<TimeZone> TimeZone::from_posix_tz(std::string_view text, std::string* error) {
  auto rule = PosixTz::parse(text, error);
  if (!rule) return std::nullopt;
  auto data = std::make_shared<Data>();
  data->name = std::string(text);
  data->before = rule->at(0);
  data->rule = std::move(rule);
  return TimeZone(std::move(data));
}

std::optional<TimeZone> TimeZone::load(std::string_view name, std::string* error) {
  if (!name.empty() && name.front() == ':') name.remove_prefix(1);
  if (name.empty()) {
    *error = "an empty zone name";
    return std::nullopt;
  }
  if (const auto offset = iso_offset(name)) return fixed(*offset);
  if (name.front() == '/' || name.find("..") != std::string_view::npos) {
    *error = fmt::format("{}: a zone is named relative to the zone database, without \"..\"", name);
    return std::nullopt;
  }
  const std::filesystem::path path = zone_database() / name;
  if (const auto bytes = read_zone_file(path)) {
    std::string why;
    auto zone = from_tzif(ByteSpan(*bytes), name, &why);
    if (!zone) *error = fmt::format("{}: {}", path.string(), why);
    return zone;
  }
  if (name == "UTC") return utc();
  std::string why;
  if (auto zone = from_posix_tz(name, &why)) return zone;
  *error = fmt::format("no zone {}: no file {}, and not a POSIX TZ string ({})", name, path.string(), why);
  return std::nullopt;
}

TimeZone TimeZone::local() {
  std::string unused;
  const char* tz = std::getenv("TZ");
  if (tz == nullptr) {
    const auto bytes = read_zone_file("/etc/localtime");
    if (!bytes) return utc();
    return from_tzif(ByteSpan(*bytes), "localtime", &unused).value_or(utc());
  }
  std::string_view name = tz;
  if (!name.empty() && name.front() == ':') name.remove_prefix(1);
  if (name.empty()) return utc();
  // glibc (tzset.c): a file first, absolute or under the database, then a
  // POSIX TZ string, then UTC.
  const std::filesystem::path path = name.front() == '/' ? std::filesystem::path(name) : zone_database() / name;
  if (const auto bytes = read_zone_file(path))
    if (auto zone = from_tzif(ByteSpan(*bytes), name, &unused)) return *zone;
  return from_posix_tz(name, &unused).value_or(utc());
}

const std::string& TimeZone::name() const { return data_->name; }

LocalOffset TimeZone::at(std::int64_t t) const {
  const Data& d = *data_;
  if (d.times.empty()) return d.rule ? d.rule->at(t) : d.before;
  if (t < d.times.front()) return d.before;
  if (t >= d.times.back() && d.rule) return d.rule->at(t);
  const auto i = std::upper_bound(d.times.begin(), d.times.end(), t) - d.times.begin() - 1;
  return d.types[d.type_of[static_cast<std::size_t>(i)]];
}

std::int64_t TimeZone::next_change_after(std::int64_t t) const {
  const Data& d = *data_;
  if (!d.times.empty() && t < d.times.back()) return *std::upper_bound(d.times.begin(), d.times.end(), t);
  return d.rule ? d.rule->next_change_after(t) : std::numeric_limits<std::int64_t>::max();
}

std::int32_t TimeZone::offset_at_utc(std::int64_t epoch_seconds) const { return at(epoch_seconds).seconds; }

bool TimeZone::dst_at_utc(std::int64_t epoch_seconds) const { return at(epoch_seconds).dst; }

std::int64_t TimeZone::utc_from_local(const CivilTime& local) const {
  // mktime's treatment of seconds: read 0 to 59, then add what was beyond.
  std::int64_t second = local.second, beyond = 0;
  if (second > 59 || second < 0) {
    beyond = second > 59 ? second - 59 : second;
    second -= beyond;
  }
  const std::int64_t months = std::int64_t{local.month} - 1;
  const std::int64_t days = calendar::days_from_civil(std::int64_t{local.year} + calendar::floor_div(months, 12),
                                                      static_cast<int>(calendar::floor_mod(months, 12)) + 1, local.day);
  // The local time as if it were UTC: the instant is wall - offset, for
  // the offset in effect at that instant.
  const std::int64_t wall =
      days * calendar::kSecondsPerDay + std::int64_t{local.hour} * 3600 + std::int64_t{local.minute} * 60 + second;
  // Every answer is within kReach of wall: walk the spans of one offset
  // across that window, earliest first, and take the first whose offset
  // puts the instant inside it. No such span: a gap, between the span
  // before and the one after.
  std::optional<LocalOffset> previous;
  std::optional<std::int64_t> in_gap;
  const std::int64_t last = wall + kReach;
  for (std::int64_t from = wall - kReach;;) {
    const LocalOffset offset = at(from);
    const std::int64_t until = next_change_after(from);
    if (previous && !in_gap && previous->seconds < offset.seconds && wall >= from + previous->seconds &&
        wall < from + offset.seconds)
      in_gap = previous->dst && !offset.dst ? wall - offset.seconds : wall - previous->seconds;
    const std::int64_t instant = wall - offset.seconds;
    if (instant >= from && instant < until) return instant + beyond;
    if (until > last) break;
    previous = offset;
    from = until;
  }
  return (in_gap ? *in_gap : wall - offset_at_utc(wall)) + beyond;
}

}  // namespace qjt
