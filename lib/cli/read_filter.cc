#include "read_filter.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "time_value.h"
#include "value_options.h"
#include "value_set.h"

namespace qjt::cli {
namespace {

bool same_name(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::toupper(static_cast<unsigned char>(x)) == std::toupper(static_cast<unsigned char>(y));
  });
}

}  // namespace

bool ReadFilter::op_in(std::string_view op_name) const {
  return ops.empty() ||
         std::any_of(ops.begin(), ops.end(), [op_name](const std::string& op) { return same_name(op, op_name); });
}

void add_read_filter_options(CLI::App* command, ReadFilter* filter, std::vector<std::string> op_names) {
  command->add_option("--op", filter->ops, "Only records of this type (repeatable, or comma-separated)")
      ->delimiter(',')
      ->allow_extra_args(false)  // PATH is optional: a name after --op X is a PATH
      ->check(value_set(std::move(op_names), LetterCase::kIgnored));
  command->add_option("--xid", filter->xid, "Only records of this transaction (Kestrel xid, Flume transaction id)");
  add_time_filter_options(command, filter, "records");
  add_offset_option(command, "--from-offset", &filter->from_offset,
                    "Only records at or after this byte offset (or 0x hex)");
  add_offset_option(command, "--to-offset", &filter->to_offset, "Only records before this byte offset (or 0x hex)");
}

void add_time_filter_options(CLI::App* command, ReadFilter* filter, std::string_view things) {
  add_time_option(command, "--since", &filter->since_ms,
                  fmt::format("Only {} whose time (add or event time) is at or after TIME: epoch ms, ISO 8601, "
                              "2023-11-14 22:13:25 (local), yesterday, 2h (ago)",
                              things));
  add_time_option(command, "--until", &filter->until_ms,
                  fmt::format("Only {} whose time is at or before TIME", things));
}

bool TimeRangeCount::show(std::optional<std::int64_t> ms) {
  const bool shown = range_.time_passes(ms);
  ++(shown ? shown_ : left_out_);
  return shown;
}

void TimeRangeCount::write_json(JsonWriter* json) const {
  if (!range_.selects_time()) return;
  json->begin_object("time_filter");
  range_.since_ms ? json->num("since_ms", *range_.since_ms) : json->null("since_ms");
  range_.until_ms ? json->num("until_ms", *range_.until_ms) : json->null("until_ms");
  json->unsigned_num("shown", shown_).unsigned_num("left_out", left_out_).end_object();
}

std::string TimeRangeCount::summary(std::string_view things) const {
  if (!range_.selects_time()) return "";
  std::string range;
  if (range_.since_ms) range += "--since " + format_time(*range_.since_ms);
  if (range_.until_ms) range += std::string(range.empty() ? "" : " ") + "--until " + format_time(*range_.until_ms);
  return fmt::format("{}: {} of {} {} within, {} left out", range, shown_, shown_ + left_out_, things, left_out_);
}

std::string TimeRangeCount::text(std::string_view indent, std::string_view things) const {
  const std::string line = summary(things);
  return line.empty() ? "" : fmt::format("{}{}\n", indent, line);
}

std::optional<std::string> check_filter_fields(const ReadFilter& filter, std::string_view family,
                                               const FilterFields& fields) {
  auto missing = [family](std::string_view option, std::string_view field) {
    return fmt::format("{} does not apply to {} inputs: their records have no {}", option, family, field);
  };
  if (!filter.ops.empty() && fields.ops.empty()) return missing("--op", "type to select");
  for (const std::string& op : filter.ops) {
    if (std::none_of(fields.ops.begin(), fields.ops.end(),
                     [&op](std::string_view name) { return same_name(op, name); }))
      return fmt::format("unknown --op {} for {} inputs: expected one of {}", op, family, fmt::join(fields.ops, ", "));
  }
  if (filter.xid && fields.xid.empty()) return missing("--xid", "transaction id");
  if (filter.since_ms && fields.time.empty()) return missing("--since", "time");
  if (filter.until_ms && fields.time.empty()) return missing("--until", "time");
  if (filter.from_offset && !fields.offsets) return missing("--from-offset", "byte offsets");
  if (filter.to_offset && !fields.offsets) return missing("--to-offset", "byte offsets");
  return std::nullopt;
}

}  // namespace qjt::cli
