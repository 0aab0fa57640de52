#include "stats_text.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "byte_size.h"
#include "finding.h"
#include "time_value.h"

namespace qjt {
namespace {

// "512 B", "1.5 KiB": a size at a glance, for table cells.
std::string short_byte_size(std::uint64_t bytes) {
  static constexpr std::string_view kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return fmt::format("{} B", bytes);
  double scaled = static_cast<double>(bytes) / 1024;
  std::size_t unit = 0;
  for (; scaled >= 1024 && unit + 1 < std::size(kUnits); ++unit) scaled /= 1024;
  return fmt::format("{:.1f} {}", scaled, kUnits[unit]);
}

// "250ms", "4.5s", "12m05s", "3h12m", "4d03h": a duration in its two
// largest units.
std::string duration_text(bool negative, std::uint64_t ms) {
  constexpr std::uint64_t kSecond = 1000, kMinute = 60 * kSecond, kHour = 60 * kMinute, kDay = 24 * kHour;
  const std::string_view sign = negative ? "-" : "";
  if (ms < kSecond) return fmt::format("{}{}ms", sign, ms);
  if (ms < kMinute) return fmt::format("{}{:.1f}s", sign, static_cast<double>(ms) / kSecond);
  if (ms < kHour) return fmt::format("{}{}m{:02}s", sign, ms / kMinute, ms % kMinute / kSecond);
  if (ms < kDay) return fmt::format("{}{}h{:02}m", sign, ms / kHour, ms % kHour / kMinute);
  return fmt::format("{}{}d{:02}h", sign, ms / kDay, ms % kDay / kHour);
}

std::string duration_text(std::int64_t ms) {
  return duration_text(ms < 0, ms < 0 ? 0 - static_cast<std::uint64_t>(ms) : static_cast<std::uint64_t>(ms));
}

std::string ratio_text(double ratio) {
  return std::isfinite(ratio) && std::fabs(ratio) >= 1000 ? fmt::format("{:.0f}", ratio) : fmt::format("{:.3g}", ratio);
}

// `value` in `unit`, sizes exact when `exact_size`, else short.
std::string value_text(const StatsValue& value, StatsUnit unit, bool exact_size) {
  switch (unit) {
    case StatsUnit::kCount:
      return fmt::format("{}", value.as_whole());
    case StatsUnit::kBytes:
      return exact_size ? format_byte_size(value.as_whole()) : short_byte_size(value.as_whole());
    case StatsUnit::kDuration:
      return duration_text(value.as_milliseconds());
    case StatsUnit::kTime:
      return format_time(value.as_milliseconds());
    case StatsUnit::kRatio:
      return ratio_text(value.as_fraction());
    case StatsUnit::kRate:
      return ratio_text(value.as_fraction()) + "/s";
  }
  return "";
}

std::string figure_text(std::uint64_t figure, StatsUnit unit) {
  if (unit == StatsUnit::kBytes) return short_byte_size(figure);
  if (unit == StatsUnit::kDuration) return duration_text(false, figure);
  return fmt::format("{}", figure);
}

std::string distribution_text(const Distribution& figures, StatsUnit unit) {
  if (figures.count == 0) return "no values";
  return fmt::format("{} value{}: min {}, p50 {}, p90 {}, p99 {}, max {}", figures.count, figures.count == 1 ? "" : "s",
                     figure_text(figures.min, unit), figure_text(figures.p50, unit), figure_text(figures.p90, unit),
                     figure_text(figures.p99, unit), figure_text(figures.max, unit));
}

// "queued_items" as "queued items".
std::string spoken(std::string_view name) {
  std::string words(name);
  std::replace(words.begin(), words.end(), '_', ' ');
  return words;
}

void append_heading(std::string* out, const StatsEntity& entity) {
  out->append(entity.kind());
  for (const StatsLabel& label : entity.labels()) *out += fmt::format(" {}={}", label.name, shell_word(label.value));
  out->push_back('\n');
}

// The gauges and distributions, one "  name  value" line each, aligned.
void append_figures(std::string* out, const StatsEntity& entity) {
  std::vector<std::pair<std::string, std::string>> lines;
  for (const StatsGauge& gauge : entity.gauges())
    lines.emplace_back(spoken(gauge.metric.name), value_text(gauge.value, gauge.metric.unit, true));
  for (const StatsDistribution& distribution : entity.distributions())
    lines.emplace_back(spoken(distribution.metric.name),
                       distribution_text(distribution.figures, distribution.metric.unit));
  std::size_t width = 0;
  for (const auto& line : lines) width = std::max(width, line.first.size());
  for (const auto& [name, value] : lines) *out += fmt::format("  {:<{}}  {}\n", name, width, value);
}

// A column's heading: a size's says so, since its cells and a count's
// of the same name would look alike but for their unit.
std::string column_heading(const StatsMetric& metric) {
  return metric.unit == StatsUnit::kBytes ? fmt::format("{}_bytes", metric.name) : std::string(metric.name);
}

// Key and text columns left-aligned, figures right-aligned, two spaces
// between.
void append_table(std::string* out, const StatsTable& table) {
  const std::size_t keys = table.key_columns().size() + table.text_columns().size();
  std::vector<std::vector<std::string>> cells(1);
  for (const std::string_view key : table.key_columns()) cells[0].emplace_back(key);
  for (const std::string_view text : table.text_columns()) cells[0].emplace_back(text);
  for (const StatsMetric& column : table.columns()) cells[0].push_back(column_heading(column));
  for (const StatsTable::Row& row : table.rows()) {
    std::vector<std::string>& line = cells.emplace_back(row.keys);
    line.insert(line.end(), row.texts.begin(), row.texts.end());
    for (std::size_t c = 0; c < row.values.size(); ++c)
      line.push_back(row.values[c] ? value_text(*row.values[c], table.columns()[c].unit, false) : "-");
  }
  std::vector<std::size_t> widths(cells[0].size());
  for (const auto& line : cells)
    for (std::size_t c = 0; c < line.size(); ++c) widths[c] = std::max(widths[c], line[c].size());
  for (const auto& line : cells) {
    std::string text;
    for (std::size_t c = 0; c < line.size(); ++c)
      text += c < keys ? fmt::format("  {:<{}}", line[c], widths[c]) : fmt::format("  {:>{}}", line[c], widths[c]);
    while (text.back() == ' ') text.pop_back();
    *out += text + '\n';
  }
}

}  // namespace

void render_stats_text(const StatsModel& model, std::string* out) {
  bool first = true;
  for (const StatsEntity& entity : model.entities()) {
    if (!first) out->push_back('\n');
    first = false;
    append_heading(out, entity);
    append_figures(out, entity);
    for (const StatsTable& table : entity.tables()) append_table(out, table);
  }
}

}  // namespace qjt
