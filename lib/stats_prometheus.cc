#include "stats_prometheus.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "json_writer.h"

namespace qjt {
namespace {

std::string metric_name(std::string_view kind, const StatsMetric& metric) {
  return fmt::format("qjt_{}_{}{}", kind, metric.name, unit_suffix(metric.unit, kPrometheusUnitSuffixes));
}

// Milliseconds as seconds, exactly: 1500 as "1.5".
std::string seconds(bool negative, std::uint64_t ms) {
  std::string text = fmt::format("{}{}", negative ? "-" : "", ms / 1000);
  if (ms % 1000 == 0) return text;
  text += fmt::format(".{:03}", ms % 1000);
  while (text.back() == '0') text.pop_back();
  return text;
}

std::string seconds(std::int64_t ms) {
  return seconds(ms < 0, ms < 0 ? 0 - static_cast<std::uint64_t>(ms) : static_cast<std::uint64_t>(ms));
}

std::string fraction(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  return fmt::format("{}", value);
}

std::string value_text(const StatsValue& value, StatsUnit unit) {
  switch (unit) {
    case StatsUnit::kCount:
    case StatsUnit::kBytes:
      return fmt::format("{}", value.as_whole());
    case StatsUnit::kDuration:
    case StatsUnit::kTime:
      return seconds(value.as_milliseconds());
    case StatsUnit::kRatio:
    case StatsUnit::kRate:
      return fraction(value.as_fraction());
  }
  return "";
}

// A distribution's figure: milliseconds written as seconds.
std::string figure_text(std::uint64_t figure, StatsUnit unit) {
  return unit == StatsUnit::kDuration ? seconds(false, figure) : fmt::format("{}", figure);
}

// A label value as the exposition format quotes it: valid UTF-8, with
// backslash, double quote and newline escaped.
void append_label_value(std::string* out, std::string_view value) {
  while (!value.empty()) {
    const std::size_t valid = valid_utf8_prefix(value);
    for (const char c : value.substr(0, valid)) {
      if (c == '\\') {
        out->append("\\\\");
      } else if (c == '"') {
        out->append("\\\"");
      } else if (c == '\n') {
        out->append("\\n");
      } else {
        out->push_back(c);
      }
    }
    if (valid == value.size()) break;
    out->append("\xEF\xBF\xBD");
    value.remove_prefix(valid + 1);
  }
}

// HELP text escapes only backslash and newline.
std::string help_text(std::string_view help) {
  std::string text;
  for (const char c : help) {
    if (c == '\\') {
      text += "\\\\";
    } else if (c == '\n') {
      text += "\\n";
    } else {
      text += c;
    }
  }
  return text;
}

// `name="value",...` of the labels given, without braces.
class LabelText {
 public:
  void add(std::string_view name, std::string_view value) {
    if (!text_.empty()) text_ += ',';
    text_.append(name);
    text_ += "=\"";
    append_label_value(&text_, value);
    text_ += '"';
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

LabelText entity_labels(const StatsEntity& entity) {
  LabelText labels;
  for (const StatsLabel& label : entity.labels()) labels.add(label.name, label.value);
  return labels;
}

// The samples gathered per family, written once all are in, since a
// family's samples must follow its TYPE together.
class Exposition {
 public:
  void gauge(std::string name, std::string_view help, const LabelText& labels, std::string value) {
    if (Family* family = family_of(std::move(name), help, "gauge")) sample(family, "", labels.text(), value);
  }

  void summary(std::string name, std::string_view help, const LabelText& labels, const Distribution& figures,
               StatsUnit unit) {
    Family* family = family_of(std::move(name), help, "summary");
    if (family == nullptr) return;
    const std::pair<std::string_view, std::uint64_t> quantiles[] = {
        {"0", figures.min}, {"0.5", figures.p50}, {"0.9", figures.p90}, {"0.99", figures.p99}, {"1", figures.max}};
    for (const auto& [quantile, figure] : quantiles) {
      LabelText with_quantile = labels;
      with_quantile.add("quantile", quantile);
      sample(family, "", with_quantile.text(), figures.count == 0 ? "NaN" : figure_text(figure, unit));
    }
    sample(family, "_sum", labels.text(), figure_text(figures.sum, unit));
    sample(family, "_count", labels.text(), fmt::format("{}", figures.count));
  }

  void write(std::string* out) const {
    for (const Family& family : families_) {
      *out +=
          fmt::format("# HELP {} {}\n# TYPE {} {}\n", family.name, help_text(family.help), family.name, family.type);
      *out += family.samples;
    }
  }

 private:
  struct Family {
    std::string name;
    std::string_view help;
    std::string_view type;
    std::string samples;
  };

  // The family of `name`, added unless there is one; nullptr when it is
  // one of another type.
  Family* family_of(std::string name, std::string_view help, std::string_view type) {
    const auto [it, added] = index_.try_emplace(name, families_.size());
    if (added) families_.push_back(Family{std::move(name), help, type, {}});
    Family& family = families_[it->second];
    return family.type == type ? &family : nullptr;
  }

  void sample(Family* family, std::string_view suffix, const std::string& labels, std::string_view value) {
    std::string series = family->name;
    series += suffix;
    if (!labels.empty()) series += fmt::format("{{{}}}", labels);
    if (!series_.insert(series).second) return;
    family->samples += fmt::format("{} {}\n", series, value);
  }

  std::vector<Family> families_;
  std::map<std::string, std::size_t> index_;
  std::set<std::string> series_;
};

void add_table(Exposition* exposition, const StatsTable& table, const LabelText& entity_labels) {
  for (const StatsTable::Row& row : table.rows()) {
    LabelText labels = entity_labels;
    for (std::size_t k = 0; k < row.keys.size(); ++k) labels.add(table.key_columns()[k], row.keys[k]);
    for (std::size_t c = 0; c < row.values.size(); ++c) {
      const StatsMetric& column = table.columns()[c];
      if (row.values[c])
        exposition->gauge(metric_name(table.row_kind(), column), column.help, labels,
                          value_text(*row.values[c], column.unit));
    }
  }
}

void add_entity(Exposition* exposition, const StatsEntity& entity) {
  const LabelText labels = entity_labels(entity);
  for (const StatsGauge& gauge : entity.gauges())
    exposition->gauge(metric_name(entity.kind(), gauge.metric), gauge.metric.help, labels,
                      value_text(gauge.value, gauge.metric.unit));
  for (const StatsDistribution& distribution : entity.distributions())
    exposition->summary(metric_name(entity.kind(), distribution.metric), distribution.metric.help, labels,
                        distribution.figures, distribution.metric.unit);
  for (const StatsTable& table : entity.tables()) add_table(exposition, table, labels);
}

}  // namespace

void render_stats_prometheus(const StatsModel& model, std::string* out) {
  Exposition exposition;
  for (const StatsEntity& entity : model.entities()) add_entity(&exposition, entity);
  exposition.write(out);
}

}  // namespace qjt
