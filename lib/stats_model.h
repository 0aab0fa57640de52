// StatsModel: what `qjt stats` found in its inputs, in terms no family owns,
// so that one renderer per output (stats_text.h, stats_json.h,
// stats_prometheus.h) serves every family.
//
// The model is a list of entities: a queue, a segment, a reader, a
// channel, a data log, a client. Each has a kind, ordered labels that name
// it (format, path, queue...) and holds:
//  - gauges: one figure each (items queued, their bytes, an age, a ratio);
//  - distributions: a LogHistogram's figures (payload size);
//  - tables: rows of the entity's parts (per segment), each row named by
//    its key cells and holding one figure per column.
//
// What a figure is (its name, unit and one-sentence help) is a
// StatsMetric, declared once by the family that fills the model, so that
// every entity of a kind says the same of a figure of the same name.
//
// Contract:
//  - Kinds, label names, key columns and metric names are snake_case
//    literals (is_stats_name); metric names leave out their unit, which the
//    renderers spell (bytes, _ms, _seconds), so they may not end in a unit
//    or a suffix Prometheus gives a meaning to (_bytes, _count, _total...).
//  - No two entities have the same kind and labels: entity() returns the
//    one already there. An entity holds one figure per metric name and
//    unit, and one table per row kind; a row with keys already in its
//    table replaces that row. So no output holds the same figure twice.
//  - A value's type fits its metric's unit (StatsValue), and a distribution
//    is of counts, bytes or durations. Breaking these is a programming
//    error (asserted).
//  - References returned stay valid while the model lives.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "log_histogram.h"

namespace qjt {

enum class StatsUnit {
  kCount,     // a number of things
  kBytes,     // a size
  kDuration,  // an age or a lag, in milliseconds
  kTime,      // a point in time, in milliseconds since the Unix epoch
  kRatio,     // a fraction or a factor
  kRate,      // how many per second
};

// How a renderer spells each unit after a metric's name (a count has no
// suffix): JSON in milliseconds, Prometheus in seconds.
struct StatsUnitSuffixes {
  std::string_view bytes, duration, time, ratio, rate;
};
inline constexpr StatsUnitSuffixes kJsonUnitSuffixes{"_bytes", "_ms", "_time_ms", "_ratio", "_per_second"};
inline constexpr StatsUnitSuffixes kPrometheusUnitSuffixes{"_bytes", "_seconds", "_timestamp_seconds", "_ratio",
                                                           "_per_second"};

// The suffix `spelling` gives `unit`.
std::string_view unit_suffix(StatsUnit unit, const StatsUnitSuffixes& spelling);

// What a figure is, declared once per family: name and help are literals.
struct StatsMetric {
  std::string_view name;  // snake_case, without its unit: "queued_items", "oldest_item_age"
  StatsUnit unit;
  std::string_view help;  // one sentence, Prometheus's HELP
};

// Whether `name` may name a kind, a label or a metric: [a-z][a-z0-9_]*,
// no "__", not ending in "_" nor in a suffix a renderer or Prometheus adds
// (_bytes, _ms, _seconds, _time, _timestamp, _ratio, _per_second, _count, _sum, _total,
// _bucket, _info, _created).
bool is_stats_name(std::string_view name);

// A figure: a whole number for counts and bytes, milliseconds for
// durations and times, a fraction for ratios and rates.
class StatsValue {
 public:
  static StatsValue whole(std::uint64_t n) { return StatsValue(n); }
  static StatsValue milliseconds(std::int64_t ms) { return StatsValue(ms); }
  static StatsValue fraction(double ratio) { return StatsValue(ratio); }

  // Whether this value is of the type `unit` holds.
  bool fits(StatsUnit unit) const;
  std::uint64_t as_whole() const { return std::get<std::uint64_t>(value_); }
  std::int64_t as_milliseconds() const { return std::get<std::int64_t>(value_); }
  double as_fraction() const { return std::get<double>(value_); }

  bool operator==(const StatsValue&) const = default;

 private:
  explicit StatsValue(std::variant<std::uint64_t, std::int64_t, double> value) : value_(value) {}
  std::variant<std::uint64_t, std::int64_t, double> value_;
};

// The time from `earlier` to `later` as a duration; none when it does not
// fit (times come from the data, so any two may be 2^64 apart).
std::optional<StatsValue> elapsed(std::int64_t earlier, std::int64_t later);

struct StatsLabel {
  std::string_view name;  // a literal, is_stats_name
  std::string value;      // from the data: a path, a queue's name
};

struct StatsGauge {
  StatsMetric metric;
  StatsValue value;
};

struct StatsDistribution {
  StatsMetric metric;  // of counts, bytes or durations
  Distribution figures;
};

// Rows of an entity's parts, each an entity of `row_kind` of its own in
// Prometheus's eyes: the entity's labels and the row's keys name it.
//
// A row may also carry text that describes it without naming it (the
// binlog a cursor is in): JSON and text show it beside the keys, and
// Prometheus leaves it out, since a label that changes as the data moves
// on (at every binlog roll) would start a new series each time; a figure
// (the binlog's sequence) carries what is numeric in it.
class StatsTable {
 public:
  struct Row {
    std::vector<std::string> keys;                  // one per key column
    std::vector<std::optional<StatsValue>> values;  // one per column; nullopt: not known
    std::vector<std::string> texts;                 // one per text column
  };

  StatsTable(std::string_view row_kind, std::vector<std::string_view> key_columns, std::vector<StatsMetric> columns,
             std::vector<std::string_view> text_columns = {});

  // Adds a row, or replaces the row with the same keys.
  void add_row(std::vector<std::string> keys, std::vector<std::optional<StatsValue>> values,
               std::vector<std::string> texts = {});

  std::string_view row_kind() const { return row_kind_; }
  const std::vector<std::string_view>& key_columns() const { return key_columns_; }
  const std::vector<std::string_view>& text_columns() const { return text_columns_; }
  const std::vector<StatsMetric>& columns() const { return columns_; }
  const std::vector<Row>& rows() const { return rows_; }

 private:
  std::string_view row_kind_;
  std::vector<std::string_view> key_columns_;
  std::vector<std::string_view> text_columns_;
  std::vector<StatsMetric> columns_;
  std::vector<Row> rows_;
  std::map<std::vector<std::string>, std::size_t> row_of_keys_;
};

class StatsEntity {
 public:
  StatsEntity(std::string_view kind, std::vector<StatsLabel> labels);

  // Sets the gauge of `metric`, replacing the value it had.
  void set(const StatsMetric& metric, StatsValue value);
  // Sets the distribution of `metric`, replacing the one it had.
  void set(const StatsMetric& metric, const Distribution& figures);
  // The table of `row_kind`, added with these columns unless there is one;
  // its key columns are not among the entity's label names.
  StatsTable& table(std::string_view row_kind, std::vector<std::string_view> key_columns,
                    std::vector<StatsMetric> columns, std::vector<std::string_view> text_columns = {});

  std::string_view kind() const { return kind_; }
  const std::vector<StatsLabel>& labels() const { return labels_; }
  const std::vector<StatsGauge>& gauges() const { return gauges_; }
  const std::vector<StatsDistribution>& distributions() const { return distributions_; }
  const std::deque<StatsTable>& tables() const { return tables_; }

 private:
  std::string_view kind_;
  std::vector<StatsLabel> labels_;
  std::vector<StatsGauge> gauges_;
  std::vector<StatsDistribution> distributions_;
  std::deque<StatsTable> tables_;
};

class StatsModel {
 public:
  // The entity of `kind` with these labels, added (last) unless there is one.
  StatsEntity& entity(std::string_view kind, std::vector<StatsLabel> labels);

  // Adds each entity of `other`, in its order, as entity() and the
  // setters would: a model made per job (-j) joins the run's in job order.
  void append(const StatsModel& other);

  // In the order they were added.
  const std::deque<StatsEntity>& entities() const { return entities_; }

 private:
  std::deque<StatsEntity> entities_;
  std::map<std::vector<std::string>, StatsEntity*> entity_of_names_;  // kind, then each label's name and value
};

}  // namespace qjt
