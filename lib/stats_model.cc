#include "stats_model.h"

#include <algorithm>
#include <array>
#include <cassert>

namespace qjt {
namespace {

// The endings a renderer or Prometheus gives a meaning to: a name ending
// so could spell the same series as another name with a unit.
constexpr std::array<std::string_view, 13> kReservedSuffixes{
    "_bytes", "_ms",  "_seconds", "_time",   "_timestamp", "_ratio",   "_per_second",
    "_count", "_sum", "_total",   "_bucket", "_info",      "_created",
};

bool is_name_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }

bool same_metric(const StatsMetric& a, const StatsMetric& b) { return a.name == b.name && a.unit == b.unit; }

template <typename Figure>
Figure* find_figure(std::vector<Figure>& figures, const StatsMetric& metric) {
  const auto it = std::find_if(figures.begin(), figures.end(),
                               [&](const Figure& figure) { return same_metric(figure.metric, metric); });
  return it == figures.end() ? nullptr : &*it;
}

template <typename Figure>
bool holds(const std::vector<Figure>& figures, const StatsMetric& metric) {
  return std::any_of(figures.begin(), figures.end(),
                     [&](const Figure& figure) { return same_metric(figure.metric, metric); });
}

[[maybe_unused]] bool has_label(const std::vector<StatsLabel>& labels, std::string_view name) {
  return std::any_of(labels.begin(), labels.end(), [&](const StatsLabel& label) { return label.name == name; });
}

}  // namespace

bool is_stats_name(std::string_view name) {
  if (name.empty() || name.front() < 'a' || name.front() > 'z' || name.back() == '_') return false;
  if (!std::all_of(name.begin(), name.end(), is_name_char) || name.find("__") != std::string_view::npos) return false;
  return std::none_of(kReservedSuffixes.begin(), kReservedSuffixes.end(),
                      [&](std::string_view suffix) { return name.ends_with(suffix); });
}

bool StatsValue::fits(StatsUnit unit) const {
  switch (unit) {
    case StatsUnit::kCount:
    case StatsUnit::kBytes:
      return std::holds_alternative<std::uint64_t>(value_);
    case StatsUnit::kDuration:
    case StatsUnit::kTime:
      return std::holds_alternative<std::int64_t>(value_);
    case StatsUnit::kRatio:
    case StatsUnit::kRate:
      return std::holds_alternative<double>(value_);
  }
  return false;
}

StatsTable::StatsTable(std::string_view row_kind, std::vector<std::string_view> key_columns,
                       std::vector<StatsMetric> columns, std::vector<std::string_view> text_columns)
    : row_kind_(row_kind),
      key_columns_(std::move(key_columns)),
      text_columns_(std::move(text_columns)),
      columns_(std::move(columns)) {
  assert(is_stats_name(row_kind_));
  assert(std::all_of(key_columns_.begin(), key_columns_.end(), is_stats_name));
  assert(std::all_of(text_columns_.begin(), text_columns_.end(), is_stats_name));
  assert(std::all_of(columns_.begin(), columns_.end(), [](const StatsMetric& m) { return is_stats_name(m.name); }));
}

void StatsTable::add_row(std::vector<std::string> keys, std::vector<std::optional<StatsValue>> values,
                         std::vector<std::string> texts) {
  assert(keys.size() == key_columns_.size() && values.size() == columns_.size() &&
         texts.size() == text_columns_.size());
  for (std::size_t i = 0; i < values.size(); ++i) assert(!values[i] || values[i]->fits(columns_[i].unit));
  const auto [it, added] = row_of_keys_.try_emplace(keys, rows_.size());
  if (added) {
    rows_.push_back(Row{std::move(keys), std::move(values), std::move(texts)});
  } else {
    rows_[it->second].values = std::move(values);
    rows_[it->second].texts = std::move(texts);
  }
}

StatsEntity::StatsEntity(std::string_view kind, std::vector<StatsLabel> labels)
    : kind_(kind), labels_(std::move(labels)) {
  assert(is_stats_name(kind_));
  assert(std::all_of(labels_.begin(), labels_.end(), [](const StatsLabel& l) { return is_stats_name(l.name); }));
}

void StatsEntity::set(const StatsMetric& metric, StatsValue value) {
  assert(is_stats_name(metric.name) && value.fits(metric.unit) && !holds(distributions_, metric));
  if (StatsGauge* gauge = find_figure(gauges_, metric)) {
    gauge->value = value;
  } else {
    gauges_.push_back(StatsGauge{metric, value});
  }
}

void StatsEntity::set(const StatsMetric& metric, const Distribution& figures) {
  assert(is_stats_name(metric.name) && !holds(gauges_, metric));
  assert(metric.unit == StatsUnit::kCount || metric.unit == StatsUnit::kBytes || metric.unit == StatsUnit::kDuration);
  if (StatsDistribution* distribution = find_figure(distributions_, metric)) {
    distribution->figures = figures;
  } else {
    distributions_.push_back(StatsDistribution{metric, figures});
  }
}

StatsTable& StatsEntity::table(std::string_view row_kind, std::vector<std::string_view> key_columns,
                               std::vector<StatsMetric> columns, std::vector<std::string_view> text_columns) {
  for (StatsTable& table : tables_)
    if (table.row_kind() == row_kind) return table;
  assert(std::none_of(key_columns.begin(), key_columns.end(),
                      [&](std::string_view key) { return has_label(labels_, key); }));
  return tables_.emplace_back(row_kind, std::move(key_columns), std::move(columns), std::move(text_columns));
}

StatsEntity& StatsModel::entity(std::string_view kind, std::vector<StatsLabel> labels) {
  std::vector<std::string> names{std::string(kind)};
  for (const StatsLabel& label : labels) {
    names.emplace_back(label.name);
    names.push_back(label.value);
  }
  const auto [it, added] = entity_of_names_.try_emplace(std::move(names), nullptr);
  if (added) it->second = &entities_.emplace_back(kind, std::move(labels));
  return *it->second;
}

std::optional<StatsValue> elapsed(std::int64_t earlier, std::int64_t later) {
  std::int64_t difference = 0;
  if (__builtin_sub_overflow(later, earlier, &difference)) return std::nullopt;
  return StatsValue::milliseconds(difference);
}

std::string_view unit_suffix(StatsUnit unit, const StatsUnitSuffixes& spelling) {
  switch (unit) {
    case StatsUnit::kCount:
      return "";
    case StatsUnit::kBytes:
      return spelling.bytes;
    case StatsUnit::kDuration:
      return spelling.duration;
    case StatsUnit::kTime:
      return spelling.time;
    case StatsUnit::kRatio:
      return spelling.ratio;
    case StatsUnit::kRate:
      return spelling.rate;
  }
  return "";
}

void StatsModel::append(const StatsModel& other) {
  for (const StatsEntity& theirs : other.entities()) {
    StatsEntity& mine = entity(theirs.kind(), theirs.labels());
    for (const StatsGauge& gauge : theirs.gauges()) mine.set(gauge.metric, gauge.value);
    for (const StatsDistribution& distribution : theirs.distributions())
      mine.set(distribution.metric, distribution.figures);
    for (const StatsTable& table : theirs.tables()) {
      StatsTable& rows = mine.table(table.row_kind(), table.key_columns(), table.columns(), table.text_columns());
      for (const StatsTable::Row& row : table.rows()) rows.add_row(row.keys, row.values, row.texts);
    }
  }
}

}  // namespace qjt
