// Unit tests for the stats model (lib/stats_model.h), its histogram
// (lib/log_histogram.h) and its renderers (lib/stats_text.h,
// lib/stats_json.h, lib/stats_prometheus.h). Quantiles are checked against
// values known by construction and against a sort; the Prometheus output
// line by line against the text exposition format's grammar, by a
// validator of the tests' own (tests/support/exposition_validator.h) that
// is itself checked on broken inputs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "exposition_validator.h"
#include "log_histogram.h"
#include "stats_json.h"
#include "stats_model.h"
#include "stats_prometheus.h"
#include "stats_text.h"

using namespace qjt;
using qjt_test::exposition_errors;

namespace {

// ---------------------------------------------------------------- metrics a family would declare

constexpr StatsMetric kQueuedItems{"queued_items", StatsUnit::kCount, "Items in the queue."};
constexpr StatsMetric kQueued{"queued", StatsUnit::kBytes, "Bytes of the items in the queue."};
constexpr StatsMetric kOldestAge{"oldest_item_age", StatsUnit::kDuration, "Age of the oldest item."};
constexpr StatsMetric kOldestAdd{"oldest_item_add", StatsUnit::kTime, "When the oldest item was added."};
constexpr StatsMetric kOverflow{"journal_overflow", StatsUnit::kRatio, "Journal bytes per live byte."};
constexpr StatsMetric kPayload{"payload", StatsUnit::kBytes, "Payload sizes."};
constexpr StatsMetric kRecords{"records", StatsUnit::kCount, "Records in the segment."};
constexpr StatsMetric kRecordBytes{"records", StatsUnit::kBytes, "Bytes of the records in the segment."};

std::vector<std::optional<StatsValue>> whole_values(std::initializer_list<std::uint64_t> values) {
  std::vector<std::optional<StatsValue>> out;
  for (const std::uint64_t v : values) out.emplace_back(StatsValue::whole(v));
  return out;
}

// One queue with a gauge of every unit, a distribution and a table.
StatsModel sample_model() {
  StatsModel model;
  StatsEntity& queue = model.entity("queue", {{"format", "kestrel"}, {"path", "/spool/q1"}, {"queue", "q1"}});
  queue.set(kQueuedItems, StatsValue::whole(3));
  queue.set(kQueued, StatsValue::whole(1536));
  queue.set(kOldestAge, StatsValue::milliseconds(3'723'500));
  queue.set(kOldestAdd, StatsValue::milliseconds(1'610'779'748'123));
  queue.set(kOverflow, StatsValue::fraction(2.5));
  LogHistogram sizes;
  for (const std::uint64_t size : {10U, 20U, 30U}) sizes.add(size);
  queue.set(kPayload, sizes.distribution());
  StatsTable& segments = queue.table("segment", {"segment"}, {kRecords, kRecordBytes});
  segments.add_row({"q1.1"}, whole_values({2, 40}));
  segments.add_row({"q1.2"}, {StatsValue::whole(1), std::nullopt});
  return model;
}

// The nearest-rank quantile of `sorted` values: the ceil(p * n / 1000)-th.
std::uint64_t true_quantile(const std::vector<std::uint64_t>& sorted, unsigned per_mille) {
  const std::size_t rank = (sorted.size() * per_mille + 999) / 1000;
  return sorted[std::max<std::size_t>(rank, 1) - 1];
}

// LogHistogram's promise: exact, or at most 1/32 of the reported value
// below the true one, never above.
bool within_precision(std::uint64_t reported, std::uint64_t truth) {
  return reported == truth || (reported < truth && (truth - reported) * 32 < reported);
}

}  // namespace

// ---------------------------------------------------------------- LogHistogram

TEST_CASE("stats histogram: empty, all figures 0") {
  const LogHistogram histogram;
  CHECK(histogram.count() == 0);
  CHECK(histogram.quantile(500) == 0);
  CHECK(histogram.distribution() == Distribution{});
}

TEST_CASE("stats histogram: few values, exact quantiles by nearest rank") {
  LogHistogram histogram;
  for (const std::uint64_t v : {7000U, 1000U, 10000U, 3000U, 5000U, 2000U, 9000U, 4000U, 8000U, 6000U})
    histogram.add(v);
  const Distribution d = histogram.distribution();
  CHECK(d.count == 10);
  CHECK(d.sum == 55000);
  CHECK(d.min == 1000);
  CHECK(d.p50 == 5000);
  CHECK(d.p90 == 9000);
  CHECK(d.p99 == 10000);
  CHECK(d.max == 10000);
  CHECK(histogram.quantile(0) == 1000);
  CHECK(histogram.quantile(1000) == 10000);
  CHECK(histogram.quantile(101) == 2000);  // rank ceil(1.01) = 2
}

TEST_CASE("stats histogram: values below kExactBelow stay exact in buckets") {
  LogHistogram histogram;
  for (std::uint64_t v = 0; v < 1000; ++v) histogram.add(v % LogHistogram::kExactBelow);
  REQUIRE(histogram.count() > LogHistogram::kExactValues);
  std::vector<std::uint64_t> sorted;
  for (std::uint64_t v = 0; v < 1000; ++v) sorted.push_back(v % LogHistogram::kExactBelow);
  std::sort(sorted.begin(), sorted.end());
  for (unsigned p = 0; p <= 1000; ++p) {
    CAPTURE(p);
    CHECK(histogram.quantile(p) == true_quantile(sorted, p));
  }
}

TEST_CASE("stats histogram: 1 to 10000 thousands, quantiles within 1/32 below") {
  LogHistogram histogram;
  for (std::uint64_t i = 10000; i >= 1; --i) histogram.add(i * 1000);
  CHECK(histogram.min() == 1000);
  CHECK(histogram.max() == 10'000'000);
  CHECK(histogram.sum() == 1000ULL * 10000 * 10001 / 2);
  for (unsigned p = 0; p <= 1000; ++p) {
    const std::uint64_t truth = std::max<std::uint64_t>(p * 10, 1) * 1000;  // rank p * 10
    CAPTURE(p);
    CAPTURE(histogram.quantile(p));
    CHECK(within_precision(histogram.quantile(p), truth));
  }
}

TEST_CASE("stats histogram: random sizes against a sort") {
  std::mt19937_64 random(26);
  for (const std::size_t n : {std::size_t{1}, std::size_t{64}, std::size_t{65}, std::size_t{5000}}) {
    LogHistogram histogram;
    std::vector<std::uint64_t> values;
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t v = random() >> (random() % 64);  // spread over every magnitude
      values.push_back(v);
      histogram.add(v);
    }
    std::sort(values.begin(), values.end());
    CHECK(histogram.min() == values.front());
    CHECK(histogram.max() == values.back());
    for (unsigned p = 0; p <= 1000; p += 7) {
      CAPTURE(n);
      CAPTURE(p);
      if (n <= LogHistogram::kExactValues) {
        CHECK(histogram.quantile(p) == true_quantile(values, p));
      } else {
        CHECK(within_precision(histogram.quantile(p), true_quantile(values, p)));
      }
    }
  }
}

TEST_CASE("stats histogram: the largest values, and the sum saturates") {
  LogHistogram histogram;
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  for (int i = 0; i < 100; ++i) histogram.add(kMax);
  CHECK(histogram.sum() == kMax);
  CHECK(histogram.quantile(500) == kMax);  // the bucket's lower bound, raised to the minimum
  histogram.add(0);
  CHECK(histogram.min() == 0);
  CHECK(histogram.quantile(0) == 0);
  CHECK(within_precision(histogram.quantile(500), kMax));
}

// ---------------------------------------------------------------- the model

TEST_CASE("stats model: names") {
  for (const std::string_view good : {"queue", "data_log", "queued_items", "p2", "oldest_item_age"}) {
    CAPTURE(good);
    CHECK(is_stats_name(good));
  }
  for (const std::string_view bad : {"", "Queue", "2q", "_q", "q_", "a__b", "a-b", "queued_bytes", "age_ms",
                                     "age_seconds", "add_time", "overflow_ratio", "x_count", "x_sum", "x_total"}) {
    CAPTURE(bad);
    CHECK_FALSE(is_stats_name(bad));
  }
}

TEST_CASE("stats model: a value fits its unit's type only") {
  CHECK(StatsValue::whole(1).fits(StatsUnit::kCount));
  CHECK(StatsValue::whole(1).fits(StatsUnit::kBytes));
  CHECK_FALSE(StatsValue::whole(1).fits(StatsUnit::kDuration));
  CHECK(StatsValue::milliseconds(1).fits(StatsUnit::kDuration));
  CHECK(StatsValue::milliseconds(1).fits(StatsUnit::kTime));
  CHECK_FALSE(StatsValue::milliseconds(1).fits(StatsUnit::kRatio));
  CHECK(StatsValue::fraction(0.5).fits(StatsUnit::kRatio));
  CHECK_FALSE(StatsValue::fraction(0.5).fits(StatsUnit::kCount));
}

TEST_CASE("stats model: one entity per kind and labels, one figure per metric, one row per keys") {
  StatsModel model;
  StatsEntity& q1 = model.entity("queue", {{"path", "a"}, {"queue", "q1"}});
  StatsEntity& same = model.entity("queue", {{"path", "a"}, {"queue", "q1"}});
  CHECK(&q1 == &same);
  CHECK(&model.entity("queue", {{"path", "a"}, {"queue", "q2"}}) != &q1);
  CHECK(&model.entity("reader", {{"path", "a"}, {"queue", "q1"}}) != &q1);
  for (int i = 0; i < 1000; ++i) model.entity("segment", {{"segment", std::to_string(i)}});
  CHECK(model.entities().size() == 1003);
  CHECK(model.entities().front().labels()[1].value == "q1");

  q1.set(kQueuedItems, StatsValue::whole(1));
  q1.set(kQueued, StatsValue::whole(10));
  q1.set(kQueuedItems, StatsValue::whole(2));  // replaces
  REQUIRE(q1.gauges().size() == 2);
  CHECK(q1.gauges()[0].value == StatsValue::whole(2));
  CHECK(q1.gauges()[1].value == StatsValue::whole(10));

  q1.set(kPayload, Distribution{.count = 1});
  q1.set(kPayload, Distribution{.count = 2});
  REQUIRE(q1.distributions().size() == 1);
  CHECK(q1.distributions()[0].figures.count == 2);

  StatsTable& table = q1.table("segment", {"segment"}, {kRecords});
  CHECK(&q1.table("segment", {"segment"}, {kRecords}) == &table);
  table.add_row({"s1"}, whole_values({1}));
  table.add_row({"s2"}, whole_values({2}));
  table.add_row({"s1"}, whole_values({3}));
  REQUIRE(table.rows().size() == 2);
  CHECK(table.rows()[0].keys == std::vector<std::string>{"s1"});
  CHECK(table.rows()[0].values[0] == StatsValue::whole(3));
}

// ---------------------------------------------------------------- renderers

TEST_CASE("stats json: one object of type stats, keys with their units") {
  std::string out;
  render_stats_json(sample_model(), {}, &out);
  CHECK(out ==
        "{\"type\":\"stats\",\"ok\":true,\"errors\":0,\"warnings\":0,\"findings\":[],\"entities\":[{\"kind\":\"queue\","
        "\"labels\":{\"format\":\"kestrel\",\"path\":\"/spool/q1\",\"queue\":\"q1\"},"
        "\"gauges\":{\"queued_items\":3,\"queued_bytes\":1536,\"oldest_item_age_ms\":3723500,"
        "\"oldest_item_add_time_ms\":1610779748123,\"journal_overflow_ratio\":2.5},"
        "\"distributions\":{\"payload_bytes\":{\"count\":3,\"sum\":60,\"min\":10,\"p50\":20,\"p90\":30,"
        "\"p99\":30,\"max\":30}},"
        "\"tables\":{\"segment\":[{\"segment\":\"q1.1\",\"records\":2,\"records_bytes\":40},"
        "{\"segment\":\"q1.2\",\"records\":1,\"records_bytes\":null}]}}]}\n");
}

TEST_CASE("stats json: no entities; an empty distribution; a ratio that is no number") {
  std::string empty;
  render_stats_json(StatsModel(), {}, &empty);
  CHECK(empty == "{\"type\":\"stats\",\"ok\":true,\"errors\":0,\"warnings\":0,\"findings\":[],\"entities\":[]}\n");

  StatsModel model;
  StatsEntity& channel = model.entity("channel", {{"path", "say \"hi\"\n"}});
  channel.set(kPayload, LogHistogram().distribution());
  channel.set(kOverflow, StatsValue::fraction(std::numeric_limits<double>::infinity()));
  std::string out;
  render_stats_json(model, {}, &out);
  CHECK(out ==
        "{\"type\":\"stats\",\"ok\":true,\"errors\":0,\"warnings\":0,\"findings\":[],\"entities\":[{\"kind\":"
        "\"channel\",\"labels\":{\"path\":\"say \\\"hi\\\"\\n\"},"
        "\"gauges\":{\"journal_overflow_ratio\":null},\"distributions\":{\"payload_bytes\":{\"count\":0,\"sum\":0,"
        "\"min\":null,\"p50\":null,\"p90\":null,\"p99\":null,\"max\":null}},\"tables\":{}}]}\n");
}

TEST_CASE("stats text: aligned figures and tables") {
  std::string out;
  render_stats_text(sample_model(), &out);
  CHECK(out ==
        "queue format=kestrel path=/spool/q1 queue=q1\n"
        "  queued items      3\n"
        "  queued            1536 bytes (1.5 KiB)\n"
        "  oldest item age   1h02m\n"
        "  oldest item add   2021-01-16T06:49:08.123Z\n"
        "  journal overflow  2.5\n"
        "  payload           3 values: min 10 B, p50 20 B, p90 30 B, p99 30 B, max 30 B\n"
        "  segment  records  records_bytes\n"
        "  q1.1           2           40 B\n"
        "  q1.2           1              -\n");
}

TEST_CASE("stats text: durations, sizes, labels quoted, entities apart") {
  constexpr StatsMetric kLag{"lag", StatsUnit::kDuration, "Lag."};
  constexpr StatsMetric kSize{"size", StatsUnit::kBytes, "Size."};
  StatsModel model;
  model.entity("client", {{"client", "a b"}}).set(kLag, StatsValue::milliseconds(250));
  StatsEntity& sizes = model.entity("client", {{"client", "c"}});
  sizes.set(kLag, StatsValue::milliseconds(-4500));
  sizes.set(kPayload, LogHistogram().distribution());
  StatsTable& table = sizes.table("segment", {"segment"}, {kLag, kSize});
  table.add_row({"s1"}, {StatsValue::milliseconds(725'000), StatsValue::whole(3ULL << 30)});
  table.add_row({"s22"}, {StatsValue::milliseconds(4 * 86'400'000LL + 3 * 3'600'000), StatsValue::whole(1023)});
  std::string out;
  render_stats_text(model, &out);
  CHECK(out ==
        "client client='a b'\n"
        "  lag  250ms\n"
        "\n"
        "client client=c\n"
        "  lag      -4.5s\n"
        "  payload  no values\n"
        "  segment     lag  size_bytes\n"
        "  s1       12m05s     3.0 GiB\n"
        "  s22       4d03h      1023 B\n");
}

TEST_CASE("stats prometheus: a queue, line by line") {
  std::string out;
  render_stats_prometheus(sample_model(), &out);
  const std::string labels = "format=\"kestrel\",path=\"/spool/q1\",queue=\"q1\"";
  CHECK(out ==
        "# HELP qjt_queue_queued_items Items in the queue.\n"
        "# TYPE qjt_queue_queued_items gauge\n"
        "qjt_queue_queued_items{" +
            labels +
            "} 3\n"
            "# HELP qjt_queue_queued_bytes Bytes of the items in the queue.\n"
            "# TYPE qjt_queue_queued_bytes gauge\n"
            "qjt_queue_queued_bytes{" +
            labels +
            "} 1536\n"
            "# HELP qjt_queue_oldest_item_age_seconds Age of the oldest item.\n"
            "# TYPE qjt_queue_oldest_item_age_seconds gauge\n"
            "qjt_queue_oldest_item_age_seconds{" +
            labels +
            "} 3723.5\n"
            "# HELP qjt_queue_oldest_item_add_timestamp_seconds When the oldest item was added.\n"
            "# TYPE qjt_queue_oldest_item_add_timestamp_seconds gauge\n"
            "qjt_queue_oldest_item_add_timestamp_seconds{" +
            labels +
            "} 1610779748.123\n"
            "# HELP qjt_queue_journal_overflow_ratio Journal bytes per live byte.\n"
            "# TYPE qjt_queue_journal_overflow_ratio gauge\n"
            "qjt_queue_journal_overflow_ratio{" +
            labels +
            "} 2.5\n"
            "# HELP qjt_queue_payload_bytes Payload sizes.\n"
            "# TYPE qjt_queue_payload_bytes summary\n"
            "qjt_queue_payload_bytes{" +
            labels +
            ",quantile=\"0\"} 10\n"
            "qjt_queue_payload_bytes{" +
            labels +
            ",quantile=\"0.5\"} 20\n"
            "qjt_queue_payload_bytes{" +
            labels +
            ",quantile=\"0.9\"} 30\n"
            "qjt_queue_payload_bytes{" +
            labels +
            ",quantile=\"0.99\"} 30\n"
            "qjt_queue_payload_bytes{" +
            labels +
            ",quantile=\"1\"} 30\n"
            "qjt_queue_payload_bytes_sum{" +
            labels +
            "} 60\n"
            "qjt_queue_payload_bytes_count{" +
            labels +
            "} 3\n"
            "# HELP qjt_segment_records Records in the segment.\n"
            "# TYPE qjt_segment_records gauge\n"
            "qjt_segment_records{" +
            labels +
            ",segment=\"q1.1\"} 2\n"
            "qjt_segment_records{" +
            labels +
            ",segment=\"q1.2\"} 1\n"
            "# HELP qjt_segment_records_bytes Bytes of the records in the segment.\n"
            "# TYPE qjt_segment_records_bytes gauge\n"
            "qjt_segment_records_bytes{" +
            labels + ",segment=\"q1.1\"} 40\n");
  CHECK(exposition_errors(out).empty());
}

TEST_CASE("stats: a row's texts in JSON and text, no label in Prometheus; a rate per second") {
  constexpr StatsMetric kSequence{"journal_sequence", StatsUnit::kCount, "The binlog's sequence."};
  constexpr StatsMetric kPosition{"position", StatsUnit::kCount, "The cursor's offset."};
  constexpr StatsMetric kChanges{"position_changes", StatsUnit::kRate, "Changes per second."};
  StatsModel model;
  StatsEntity& client = model.entity("client", {{"format", "canal"}, {"client", "1001"}});
  client.set(kChanges, StatsValue::fraction(0.5));
  client.table("cursor", {}, {kSequence, kPosition}, {"journal"})
      .add_row({}, whole_values({6, 4}), {"mysql-bin.000006"});
  std::string json, text, prometheus;
  render_stats_json(model, {}, &json);
  render_stats_text(model, &text);
  render_stats_prometheus(model, &prometheus);
  CHECK(json.find("\"gauges\":{\"position_changes_per_second\":0.5}") != std::string::npos);
  CHECK(json.find("\"cursor\":[{\"journal\":\"mysql-bin.000006\",\"journal_sequence\":6,\"position\":4}]") !=
        std::string::npos);
  CHECK(text.find("  journal           journal_sequence  position\n  mysql-bin.000006                 6         4\n") !=
        std::string::npos);
  CHECK(prometheus.find("qjt_cursor_journal_sequence{format=\"canal\",client=\"1001\"} 6\n") != std::string::npos);
  CHECK(prometheus.find("qjt_client_position_changes_per_second{format=\"canal\",client=\"1001\"} 0.5\n") !=
        std::string::npos);
  CHECK(prometheus.find("mysql-bin") == std::string::npos);
  CHECK(exposition_errors(prometheus).empty());
  StatsModel joined;
  joined.append(model);
  CHECK(joined.entities()[0].tables()[0].rows()[0].texts == std::vector<std::string>{"mysql-bin.000006"});
}

TEST_CASE("stats prometheus: escaped labels, special values, families kept together, no duplicate series") {
  constexpr StatsMetric kLag{"lag", StatsUnit::kDuration, "Lag behind the tail,\nin seconds \\ exactly."};
  constexpr StatsMetric kAges{"age", StatsUnit::kDuration, "Ages."};
  StatsModel model;
  // Two queues, so each family has samples of both, and a path with every
  // character the format escapes and bytes that are not UTF-8.
  for (const std::string& path : {std::string("a\\b \"c\"\nd"), std::string("bad\xff\xfe utf-8 \xc3\xa9")}) {
    StatsEntity& queue = model.entity("queue", {{"path", path}});
    queue.set(kQueuedItems, StatsValue::whole(std::numeric_limits<std::uint64_t>::max()));
    queue.set(kLag, StatsValue::milliseconds(-1));
    queue.set(kOverflow, StatsValue::fraction(std::numeric_limits<double>::quiet_NaN()));
    queue.set(kPayload, LogHistogram().distribution());
    LogHistogram ages;
    ages.add(1500);
    queue.set(kAges, ages.distribution());
    queue.table("segment", {"segment"}, {kRecords}).add_row({"s"}, whole_values({1}));
  }
  // A segment entity that spells the same series as a queue's table row,
  // and a ratio of each sign of infinity and a tiny one.
  model.entity("segment", {{"path", "a\\b \"c\"\nd"}, {"segment", "s"}}).set(kRecords, StatsValue::whole(9));
  model.entity("x", {}).set(kOverflow, StatsValue::fraction(std::numeric_limits<double>::infinity()));
  model.entity("x", {{"sign", "-"}}).set(kOverflow, StatsValue::fraction(-std::numeric_limits<double>::infinity()));
  model.entity("x", {{"sign", "tiny"}}).set(kOverflow, StatsValue::fraction(1e-300));

  std::string out;
  render_stats_prometheus(model, &out);
  INFO(out);
  CHECK(exposition_errors(out).empty());
  const auto has = [&](std::string_view line) { return out.find(std::string(line) + "\n") != std::string::npos; };
  CHECK(has("qjt_queue_queued_items{path=\"a\\\\b \\\"c\\\"\\nd\"} 18446744073709551615"));
  CHECK(has("qjt_queue_queued_items{path=\"bad\xEF\xBF\xBD\xEF\xBF\xBD utf-8 \xc3\xa9\"} 18446744073709551615"));
  CHECK(has("# HELP qjt_queue_lag_seconds Lag behind the tail,\\nin seconds \\\\ exactly."));
  CHECK(has("qjt_queue_lag_seconds{path=\"a\\\\b \\\"c\\\"\\nd\"} -0.001"));
  CHECK(has("qjt_queue_journal_overflow_ratio{path=\"a\\\\b \\\"c\\\"\\nd\"} NaN"));
  CHECK(has("qjt_queue_payload_bytes{path=\"a\\\\b \\\"c\\\"\\nd\",quantile=\"0.5\"} NaN"));
  CHECK(has("qjt_queue_payload_bytes_count{path=\"a\\\\b \\\"c\\\"\\nd\"} 0"));
  CHECK(has("qjt_queue_age_seconds{path=\"a\\\\b \\\"c\\\"\\nd\",quantile=\"0.99\"} 1.5"));
  CHECK(has("qjt_queue_age_seconds_sum{path=\"a\\\\b \\\"c\\\"\\nd\"} 1.5"));
  CHECK(has("qjt_segment_records{path=\"a\\\\b \\\"c\\\"\\nd\",segment=\"s\"} 1"));  // the first, not the 9
  CHECK_FALSE(has("qjt_segment_records{path=\"a\\\\b \\\"c\\\"\\nd\",segment=\"s\"} 9"));
  CHECK(has("qjt_x_journal_overflow_ratio +Inf"));
  CHECK(has("qjt_x_journal_overflow_ratio{sign=\"-\"} -Inf"));
  CHECK(has("qjt_x_journal_overflow_ratio{sign=\"tiny\"} 1e-300"));
}

TEST_CASE("stats prometheus: a family met again as another type keeps its first") {
  constexpr StatsMetric kPayloadTotal{"payload", StatsUnit::kBytes, "Payload bytes in all."};
  StatsModel model;
  model.entity("queue", {{"queue", "a"}}).set(kPayloadTotal, StatsValue::whole(60));
  model.entity("queue", {{"queue", "b"}}).set(kPayload, Distribution{.count = 1, .sum = 5, .min = 5, .max = 5});
  std::string out;
  render_stats_prometheus(model, &out);
  CHECK(out ==
        "# HELP qjt_queue_payload_bytes Payload bytes in all.\n"
        "# TYPE qjt_queue_payload_bytes gauge\n"
        "qjt_queue_payload_bytes{queue=\"a\"} 60\n");
  CHECK(exposition_errors(out).empty());
}

TEST_CASE("stats prometheus: the validator finds each breach") {
  const auto breaches = [](const std::string& text) { return exposition_errors(text).size(); };
  CHECK(breaches("# TYPE a gauge\na 1\n") == 0);
  CHECK(breaches("# TYPE s summary\ns{quantile=\"0.5\"} 1\ns_sum 1\ns_count 1\n") == 0);
  CHECK(breaches("a 1\n") == 1);                                                     // no TYPE
  CHECK(breaches("# TYPE a gauge\n# TYPE a gauge\na 1\n") == 1);                     // TYPE twice
  CHECK(breaches("# HELP a x\n# HELP a y\n# TYPE a gauge\n") == 1);                  // HELP twice
  CHECK(breaches("# TYPE a gauge\na 1\n# TYPE b gauge\nb 1\na{x=\"1\"} 2\n") == 1);  // family split
  CHECK(breaches("# TYPE a gauge\na 1\na 2\n") == 1);                                // duplicate series
  CHECK(breaches("# TYPE a gauge\na{x=\"1\",y=\"2\"} 1\na{y=\"2\",x=\"1\"} 1\n") == 1);
  CHECK(breaches("# TYPE 1a gauge\n") == 1);                       // metric name
  CHECK(breaches("# TYPE a gauge\na{1x=\"1\"} 1\n") == 1);         // label name
  CHECK(breaches("# TYPE a gauge\na{x=\"\\t\"} 1\n") == 1);        // escape
  CHECK(breaches("# TYPE a gauge\na{x=\"1} 1\n") == 1);            // unterminated
  CHECK(breaches("# TYPE a gauge\na one\n") == 1);                 // value
  CHECK(breaches("# TYPE a gauge\na 1") == 1);                     // final newline
  CHECK(breaches("# HELP a back\\slash\n# TYPE a gauge\n") == 1);  // HELP escape
}
