// Unit tests for Flume's stats: the replay's per-log counts and open
// transactions (channel_replay.h), the space report (log_space.h), the
// bounded header tally (header_tally.h) and the channel entity they fill
// (channel_stats.h). The channels are built record by record with qjt's
// encoders; every expected figure is derived by hand in the comments from
// the records written and the spec's rules (flume-format.md §1.4, §6.2,
// §6.4), not from the code under test.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "finding.h"
#include "flume/channel_layout.h"
#include "flume/channel_logs.h"
#include "flume/channel_replay.h"
#include "flume/channel_stats.h"
#include "flume/header_tally.h"
#include "flume/log_space.h"
#include "flume_test_channel.h"
#include "stats_model.h"
#include "unit_helpers.h"

using namespace qjt;
using namespace qjt::flume;
namespace fs = std::filesystem;
using qjt_test::flume::Dirs;
using qjt_test::flume::LogFile;

namespace {

// A put with one header, as LogFile::put writes one without.
EventPointer put_with_header(LogFile* log, std::int64_t txid, std::int64_t woid, std::string_view key,
                             std::string_view value, std::string_view body) {
  const auto at = log->bytes.size();
  const HeaderToWrite header{key, value};
  REQUIRE(log->writer.put(&log->bytes, txid, woid, std::span<const HeaderToWrite>(&header, 1), body));
  return EventPointer{log->id, static_cast<std::int32_t>(at)};
}

// The channel of the replay tests: one data dir, no checkpoint (a full
// replay from each log's start), three logs.
//   log-1: tx1 put A, put B, commit(put); tx2 take A, commit(take)
//   log-2: tx3 put C, commit(put); tx4 put D, rollback; tx5 take B (open)
//   log-3: tx6 put E (open); tx7 put F, commit(put)
// With `drain`, log-3 also holds tx8 take B, take C, commit(take).
struct Channel {
  explicit Channel(bool drain) : d(drain ? "flume-stats-drained" : "flume-stats") {
    LogFile l1(1), l2(2), l3(3);
    A = put_with_header(&l1, 1, 1, "type", "x", "AAAA");
    B = put_with_header(&l1, 1, 2, "type", "y", "BBBBBB");
    l1.commit(1, 3, 1);
    l1.take(2, 4, A);
    l1.commit(2, 5, 2);
    C = put_with_header(&l2, 3, 6, "type", "x", "CC");
    l2.commit(3, 7, 1);
    l2.put(4, 8, "DDD");
    l2.rollback(4, 9);
    l2.take(5, 10, B);
    l3.put(6, 11, "EEEEE");
    F = l3.put(7, 12, "F");
    l3.commit(7, 13, 1);
    if (drain) {
      l3.take(8, 14, B);
      l3.take(8, 15, C);
      l3.commit(8, 16, 2);
    }
    l1.write(d.data[0]);
    l2.write(d.data[0]);
    l3.write(d.data[0]);
    layout = discover_channel(d.channel(), &findings, false);
    logs.emplace(layout.logs, KeyRing{}, &findings);
    replay = replay_channel(layout, *logs, ChannelReplayOptions{10}, &findings);
    REQUIRE(replay.queue.has_value());
  }
  std::string path(int id) const { return (d.data[0] / ("log-" + std::to_string(id))).string(); }
  std::uint64_t size(int id) const { return fs::file_size(path(id)); }
  std::uint64_t meta_size(int id) const { return fs::file_size(path(id) + ".meta"); }

  Dirs d;
  EventPointer A, B, C, F;
  FindingList findings;
  ChannelLayout layout;
  std::optional<ChannelLogs> logs;
  ChannelReplay replay;
};

QueuedByLog count_queued(const Channel& c, ChannelStats* stats = nullptr) {
  QueuedByLog queued;
  FindingList findings;
  for_each_queued_event(*c.replay.queue, *c.logs, c.layout.checkpoint.dir, &findings,
                        [&](std::size_t, EventPointer p, const LogRecord& put) {
                          queued.add(p, put);
                          if (stats) stats->add_event(p, put);
                        });
  CHECK(findings.findings().empty());
  return queued;
}

const StatsGauge* gauge(const StatsEntity& e, std::string_view name) {
  for (const StatsGauge& g : e.gauges())
    if (g.metric.name == name) return &g;
  return nullptr;
}

std::uint64_t whole_gauge(const StatsEntity& e, std::string_view name) {
  const StatsGauge* g = gauge(e, name);
  REQUIRE(g != nullptr);
  return g->value.as_whole();
}

const StatsTable* table(const StatsEntity& e, std::string_view row_kind) {
  for (const StatsTable& t : e.tables())
    if (t.row_kind() == row_kind) return &t;
  return nullptr;
}

// A row's whole values by column name.
std::uint64_t cell(const StatsTable& t, const std::vector<std::string>& keys, std::string_view column) {
  for (const auto& row : t.rows()) {
    if (row.keys != keys) continue;
    for (std::size_t i = 0; i < t.columns().size(); ++i)
      if (t.columns()[i].name == column) return row.values[i]->as_whole();
  }
  FAIL("no such row or column");
  return 0;
}

}  // namespace

TEST_CASE("flume stats: the replay counts each log's records and the transactions left open") {
  Channel c(false);
  CHECK(c.findings.count(Severity::kError) == 0);
  // Committed puts A, B (log-1), C, F; A taken: the queue is B, C, F.
  CHECK(c.replay.queue->size() == 3);
  // tx5 (take B) and tx6 (put E) never end: one take and one put in flight.
  CHECK(c.replay.open_transactions == 2);
  CHECK(c.replay.inflight_puts == 1);
  CHECK(c.replay.inflight_takes == 1);
  const LogReplayCounts& l1 = c.replay.logs.at(1);
  const LogReplayCounts& l2 = c.replay.logs.at(2);
  const LogReplayCounts& l3 = c.replay.logs.at(3);
  CHECK(std::vector<std::uint64_t>{l1.puts, l1.takes, l1.commits, l1.rollbacks} ==
        std::vector<std::uint64_t>{2, 1, 2, 0});
  CHECK(std::vector<std::uint64_t>{l2.puts, l2.takes, l2.commits, l2.rollbacks} ==
        std::vector<std::uint64_t>{2, 1, 1, 1});
  CHECK(std::vector<std::uint64_t>{l3.puts, l3.takes, l3.commits, l3.rollbacks} ==
        std::vector<std::uint64_t>{2, 0, 1, 0});
  // The open take's event B is in log-1, the open put E in log-3.
  CHECK(l1.inflight == 1);
  CHECK(l2.inflight == 0);
  CHECK(l3.inflight == 1);
  // No checkpoint: each log is read from 0 to its fill (the records written).
  CHECK(l1.read_bytes == c.size(1) - qjt_test::flume::kFill.size());
  CHECK(l3.read_bytes == c.size(3) - qjt_test::flume::kFill.size());
}

TEST_CASE("flume stats: log_space says what pins each log and what Flume deletes") {
  SUBCASE("an old event in log-1 pins every later log") {
    Channel c(false);
    const auto space = log_space(*c.logs, c.replay, count_queued(c));
    REQUIRE(space.size() == 3);
    // Queue B (log-1, 6 bytes), C (log-2, 2 bytes), F (log-3, 1 byte).
    CHECK(space[0].queued.events == 1);
    CHECK(space[0].queued.bytes == 6);
    CHECK(space[1].queued.bytes == 2);
    CHECK(space[2].queued.bytes == 1);
    CHECK(space[0].reference_count == 1);
    CHECK(space[0].inflight == 1);
    CHECK(space[2].inflight == 1);
    CHECK(!space[0].current_write_log);
    CHECK(space[2].current_write_log);
    CHECK(!space[0].pinned_by_lower_log);
    CHECK(space[1].pinned_by_lower_log);
    for (const LogSpace& s : space) CHECK(!s.deletable);
    CHECK(space[0].bytes == c.size(1));
    CHECK(space[0].meta_bytes == c.meta_size(1));
    CHECK(space[0].reclaimable == c.size(1) + c.meta_size(1));
    CHECK(space[2].reclaimable == 0);
  }
  SUBCASE("drained to log-3: the two older logs are deleted") {
    Channel c(true);
    // tx8 takes B and C: the queue is F alone, counted in log-3.
    CHECK(c.replay.queue->size() == 1);
    const auto space = log_space(*c.logs, c.replay, count_queued(c));
    CHECK(space[0].deletable);
    CHECK(space[1].deletable);
    CHECK(!space[2].deletable);
    CHECK(space[0].reference_count == 0);
    CHECK(logs_flume_deletes(*c.logs, *c.replay.queue) == std::set<std::int32_t>{1, 2});
    CHECK(lowest_log_in_use(*c.replay.queue) == std::optional<std::int32_t>(3));
  }
}

TEST_CASE("flume stats: the channel entity holds the replay's figures") {
  Channel c(true);
  ChannelStats stats({"type", "type", "missing"});
  count_queued(c, &stats);
  StatsModel model;
  stats.fill(c.layout, *c.logs, c.replay, &model);
  REQUIRE(model.entities().size() == 1);
  const StatsEntity& e = model.entities().front();
  CHECK(e.kind() == "channel");
  REQUIRE(e.labels().size() == 2);
  CHECK(e.labels()[1].value == c.d.cp.string());
  CHECK(whole_gauge(e, "capacity") == 10);
  CHECK(whole_gauge(e, "queued_items") == 1);
  CHECK(whole_gauge(e, "queued") == 1);
  CHECK(gauge(e, "fill")->value.as_fraction() == doctest::Approx(0.1));
  CHECK(whole_gauge(e, "open_transactions") == 2);
  // Records: 5 + 5 + 3 + 3 (tx8), every one read.
  CHECK(whole_gauge(e, "records") == 16);
  CHECK(whole_gauge(e, "journal") ==
        c.size(1) + c.size(2) + c.size(3) + c.meta_size(1) + c.meta_size(2) + c.meta_size(3));
  CHECK(whole_gauge(e, "reclaimable") == c.size(1) + c.size(2) + c.meta_size(1) + c.meta_size(2));

  const StatsTable* logs = table(e, "data_log");
  REQUIRE(logs != nullptr);
  CHECK(logs->rows().size() == 3);
  CHECK(cell(*logs, {c.path(3)}, "takes") == 2);
  CHECK(cell(*logs, {c.path(3)}, "queued_items") == 1);
  CHECK(cell(*logs, {c.path(1)}, "deletable") == 1);
  CHECK(cell(*logs, {c.path(3)}, "current_write_log") == 1);

  // No checkpoint at all: a full replay of a new channel.
  const StatsTable* recovery = table(e, "recovery");
  REQUIRE(recovery != nullptr);
  CHECK(cell(*recovery, {"checkpoint", "absent"}, "chosen") == 0);
  CHECK(cell(*recovery, {"backup", "not_configured"}, "chosen") == 0);
  CHECK(cell(*recovery, {"logs", "new_channel"}, "chosen") == 1);

  // F has no header: "type" counts it absent; "missing" too. The repeated key adds nothing.
  const StatsTable* headers = table(e, "header_value");
  REQUIRE(headers != nullptr);
  CHECK(headers->rows().size() == 4);
  CHECK(cell(*headers, {"type", "absent", ""}, "queued_items") == 1);
  CHECK(cell(*headers, {"type", "other", ""}, "queued_items") == 0);
  CHECK(cell(*headers, {"missing", "absent", ""}, "queued") == 1);
}

TEST_CASE("flume stats: HeaderTally ranks values, folds the rest and stays bounded") {
  LogRecord put;
  const std::string key = "k";
  HeaderTally t(key);
  auto add = [&](std::string_view value, std::size_t body) {
    const std::string bytes(body, 'b');
    put.body = ByteSpan(bytes);
    put.headers = {EventHeader{ByteSpan(key), ByteSpan(value)}};
    t.add(put);
  };
  SUBCASE("most events first, ties by value, then other and absent") {
    add("b", 1);
    add("a", 2);
    add("c", 3);
    add("c", 4);
    add("", 5);  // an empty value is a value
    put.headers.clear();
    put.body = ByteSpan();
    t.add(put);
    const auto s = t.summary();
    REQUIRE(s.top.size() == 4);
    CHECK(s.top[0].value == "c");
    CHECK(s.top[0].tally.events == 2);
    CHECK(s.top[0].tally.bytes == 7);
    CHECK(s.top[1].value == "");
    CHECK(s.top[2].value == "a");
    CHECK(s.top[3].value == "b");
    CHECK(s.other.events == 0);
    CHECK(s.absent.events == 1);
  }
  SUBCASE("past the top 100, values fold into other") {
    for (int i = 0; i < 150; ++i) add("v" + std::to_string(1000 + i), 1);
    add("v1149", 1);  // the only value with two events comes first
    const auto s = t.summary();
    REQUIRE(s.top.size() == HeaderTally::kTopValues);
    CHECK(s.top[0].value == "v1149");
    CHECK(s.top[1].value == "v1000");
    CHECK(s.top[99].value == "v1098");
    CHECK(s.other.events == 50);  // v1099 .. v1148
  }
  SUBCASE("past kMaxValues distinct values, a new value is counted in other") {
    for (std::size_t i = 0; i < HeaderTally::kMaxValues; ++i) add(std::to_string(i), 1);
    add("late", 1);
    add("late", 1);
    add("0", 1);  // a value kept stays exact
    const auto s = t.summary();
    CHECK(s.top[0].value == "0");
    CHECK(s.top[0].tally.events == 2);
    CHECK(s.other.events == HeaderTally::kMaxValues - HeaderTally::kTopValues + 2);
  }
  SUBCASE("past kMaxValueBytes of value text, a new value is counted in other") {
    const std::string big(HeaderTally::kMaxValueBytes - 1, 'x');
    add(big, 1);
    add("yy", 1);  // would pass the bound by one byte
    add("z", 1);   // fits exactly
    const auto s = t.summary();
    CHECK(s.top.size() == 2);
    CHECK(s.other.events == 1);
  }
}
