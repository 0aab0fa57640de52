#include "stats_json.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string_view>

#include <fmt/format.h>

#include "json_line.h"

namespace qjt {
namespace {

// A metric's key: its name is a snake_case literal (is_stats_name), so it
// needs no escaping.
JsonWriter& metric_key(JsonWriter* out, const StatsMetric& metric) {
  return out->key(fmt::format("{}{}", metric.name, unit_suffix(metric.unit, kJsonUnitSuffixes)));
}

void write_value(JsonWriter* out, const StatsValue& value, StatsUnit unit) {
  switch (unit) {
    case StatsUnit::kCount:
    case StatsUnit::kBytes:
      out->unsigned_number(value.as_whole());
      return;
    case StatsUnit::kDuration:
    case StatsUnit::kTime:
      out->number(value.as_milliseconds());
      return;
    case StatsUnit::kRatio:
    case StatsUnit::kRate:
      if (std::isfinite(value.as_fraction())) {
        out->raw(fmt::format("{}", value.as_fraction()));
      } else {
        out->null();
      }
      return;
  }
}

void write_distribution(JsonWriter* out, const Distribution& figures) {
  out->begin_object().unsigned_num("count", figures.count).unsigned_num("sum", figures.sum);
  const std::pair<std::string_view, std::uint64_t> named[] = {
      {"min", figures.min}, {"p50", figures.p50}, {"p90", figures.p90}, {"p99", figures.p99}, {"max", figures.max}};
  for (const auto& [name, figure] : named) {
    if (figures.count == 0) {
      out->null(name);
    } else {
      out->unsigned_num(name, figure);
    }
  }
  out->end_object();
}

void write_table(JsonWriter* out, const StatsTable& table) {
  out->begin_array(table.row_kind());
  for (const StatsTable::Row& row : table.rows()) {
    out->begin_object();
    for (std::size_t k = 0; k < row.keys.size(); ++k) out->str(table.key_columns()[k], row.keys[k]);
    for (std::size_t t = 0; t < row.texts.size(); ++t) out->str(table.text_columns()[t], row.texts[t]);
    for (std::size_t c = 0; c < row.values.size(); ++c) {
      metric_key(out, table.columns()[c]);
      if (row.values[c]) {
        write_value(out, *row.values[c], table.columns()[c].unit);
      } else {
        out->null();
      }
    }
    out->end_object();
  }
  out->end_array();
}

void write_entity(JsonWriter* out, const StatsEntity& entity) {
  out->begin_object().str("kind", entity.kind()).begin_object("labels");
  for (const StatsLabel& label : entity.labels()) out->str(label.name, label.value);
  out->end_object().begin_object("gauges");
  for (const StatsGauge& gauge : entity.gauges()) {
    metric_key(out, gauge.metric);
    write_value(out, gauge.value, gauge.metric.unit);
  }
  out->end_object().begin_object("distributions");
  for (const StatsDistribution& distribution : entity.distributions()) {
    metric_key(out, distribution.metric);
    write_distribution(out, distribution.figures);
  }
  out->end_object().begin_object("tables");
  for (const StatsTable& table : entity.tables()) write_table(out, table);
  out->end_object().end_object();
}

}  // namespace

void render_stats_json(const StatsModel& model, const std::vector<Finding>& findings, std::string* out,
                       std::string_view units) {
  JsonLine line(out, JsonType::kStats);
  const auto count = [&](Severity severity) {
    return static_cast<std::uint64_t>(
        std::count_if(findings.begin(), findings.end(), [&](const Finding& f) { return f.severity == severity; }));
  };
  const std::uint64_t errors = count(Severity::kError);
  line.boolean("ok", errors == 0).unsigned_num("errors", errors).unsigned_num("warnings", count(Severity::kWarning));
  write_findings_json(&line.key("findings"), findings);
  line.begin_array("entities");
  for (const StatsEntity& entity : model.entities()) write_entity(&line, entity);
  line.end_array();
  if (!units.empty()) line.raw("units", units);
  line.finish();
}

}  // namespace qjt
