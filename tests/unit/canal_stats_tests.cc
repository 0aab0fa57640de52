// formats/canal/canal_stats against figures computed by hand from cursors
// and binlog lists built here: distances in binlogs and bytes, the restart
// cursor's needs, a meta.log's span, changes and rate, and untrusted values
// (negative positions, timestamps far out, sizes summing past 2^64).
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "canal/canal_stats.h"

using namespace qjt;
using namespace qjt::canal;

namespace {

constexpr std::int64_t kNow = 1700000000000;
const MetaDatSource kSource{"conf/example/meta.dat", "example"};

Cursor cursor_at(std::string journal, std::int64_t position, std::int64_t timestamp) {
  Cursor c;
  c.address = "db1.internal";
  c.port = 3306;
  c.journal_name = std::move(journal);
  c.position = position;
  c.timestamp = timestamp;
  return c;
}

ClientData client(std::int64_t id, std::optional<Cursor> cursor) {
  ClientData c;
  c.client_id = id;
  c.destination = "example";
  c.cursor = std::move(cursor);
  return c;
}

const StatsEntity* find(const StatsModel& model, std::string_view kind, std::string_view client = "") {
  for (const StatsEntity& e : model.entities()) {
    if (e.kind() != kind) continue;
    if (client.empty() || (e.labels().size() == 4 && e.labels()[3].value == client)) return &e;
  }
  return nullptr;
}

// `name` in `unit`: a count and a rate may share a name.
std::optional<StatsValue> gauge(const StatsEntity& e, std::string_view name,
                                std::optional<StatsUnit> unit = std::nullopt) {
  for (const StatsGauge& g : e.gauges())
    if (g.metric.name == name && (!unit || g.metric.unit == *unit)) return g.value;
  return std::nullopt;
}

std::optional<std::uint64_t> whole(const StatsEntity& e, std::string_view name) {
  auto v = gauge(e, name, StatsUnit::kCount);
  if (!v) v = gauge(e, name, StatsUnit::kBytes);
  return v ? std::optional(v->as_whole()) : std::nullopt;
}

std::optional<std::int64_t> ms(const StatsEntity& e, std::string_view name) {
  const auto v = gauge(e, name);
  return v ? std::optional(v->as_milliseconds()) : std::nullopt;
}

const StatsTable* table(const StatsEntity& e, std::string_view row_kind) {
  for (const StatsTable& t : e.tables())
    if (t.row_kind() == row_kind) return &t;
  return nullptr;
}

LogEntry entry(std::int64_t time_ms, std::int64_t client_id, std::string journal, std::int64_t position) {
  LogEntry e;
  e.time_ms = time_ms;
  e.client_id = client_id;
  e.cursor = cursor_at(std::move(journal), position, time_ms / 1000 * 1000);
  return e;
}

}  // namespace

TEST_CASE("canal stats: a meta.dat's clients against the server's binlogs") {
  MetaDat meta{"example",
               {client(1001, cursor_at("mysql-bin.000003", 100, 1699999990000)),
                client(1002, cursor_at("mysql-bin.000002", 4, 1699999900000)), client(1003, std::nullopt)}};
  const BinlogSizes binlogs{{"mysql-bin.000001", 10}, {"mysql-bin.000002", 200}, {"mysql-bin.000003", 3000}};
  StatsModel model;
  add_meta_dat_stats(meta, kSource, &binlogs, kNow, &model);
  REQUIRE(model.entities().size() == 4);

  const StatsEntity& first = *find(model, "client", "1001");
  CHECK(first.labels()[1].value == "conf/example/meta.dat");
  CHECK(ms(first, "cursor") == 1699999990000);
  CHECK(ms(first, "lag") == 10000);
  CHECK(whole(first, "binlog_purged") == 0);
  CHECK(whole(first, "behind_binlogs") == 0);
  CHECK(whole(first, "behind") == 2900);  // 3000 - 100, the last binlog
  const StatsTable& cursor = *table(first, "cursor");
  REQUIRE(cursor.rows().size() == 1);
  CHECK(cursor.rows()[0].keys.empty());
  CHECK(cursor.rows()[0].texts == std::vector<std::string>{"mysql-bin.000003"});
  CHECK(cursor.rows()[0].values[0]->as_whole() == 3);
  CHECK(cursor.rows()[0].values[1]->as_whole() == 100);

  const StatsEntity& second = *find(model, "client", "1002");
  CHECK(whole(second, "behind_binlogs") == 1);
  CHECK(whole(second, "behind") == 196 + 3000);
  CHECK(ms(second, "lag") == 100000);

  const StatsEntity& idle = *find(model, "client", "1003");  // subscribed, nothing acked
  CHECK(idle.gauges().empty());
  CHECK(idle.tables().empty());

  // Client 1002 holds .000002 and .000003; .000001 is free.
  const StatsEntity& destination = *find(model, "destination");
  CHECK(whole(destination, "clients") == 3);
  CHECK(whole(destination, "reclaimable_binlogs") == 1);
  CHECK(whole(destination, "reclaimable") == 10);
  const StatsTable& restart = *table(destination, "restart");
  REQUIRE(restart.rows().size() == 1);
  CHECK(restart.rows()[0].keys == std::vector<std::string>{"1002"});
  CHECK(restart.rows()[0].texts == std::vector<std::string>{"mysql-bin.000002"});
  const auto& row = restart.rows()[0].values;
  CHECK(row[0]->as_whole() == 2);  // the binlog's sequence
  CHECK(row[1]->as_whole() == 4);
  CHECK(row[2]->as_milliseconds() == 1699999900000);
  CHECK(row[3]->as_milliseconds() == 100000);
  CHECK(row[4]->as_whole() == 2);
  CHECK(row[5]->as_whole() == 3200);
}

TEST_CASE("canal stats: no binlogs given, a purged one, a position past the end") {
  MetaDat meta{"example",
               {client(1, cursor_at("mysql-bin.000001", 4, 1699999990000)),
                client(2, cursor_at("mysql-bin.000009", 500, 1699999990000))}};
  StatsModel without;
  add_meta_dat_stats(meta, kSource, nullptr, kNow, &without);
  CHECK_FALSE(whole(*find(without, "client", "1"), "binlog_purged"));
  CHECK_FALSE(whole(*find(without, "destination"), "reclaimable"));
  CHECK_FALSE(table(*find(without, "destination"), "restart")->rows()[0].values[4]);

  const BinlogSizes binlogs{{"mysql-bin.000009", 100}};
  StatsModel model;
  add_meta_dat_stats(meta, kSource, &binlogs, kNow, &model);
  const StatsEntity& purged = *find(model, "client", "1");
  CHECK(whole(purged, "binlog_purged") == 1);
  CHECK_FALSE(whole(purged, "behind"));
  const StatsEntity& beyond = *find(model, "client", "2");  // canal_position_beyond_end
  CHECK(whole(beyond, "binlog_purged") == 0);
  CHECK_FALSE(whole(beyond, "behind"));
  CHECK_FALSE(whole(*find(model, "destination"), "reclaimable"));  // the restart binlog is gone
}

TEST_CASE("canal stats: untrusted values give no figure, or a saturated one") {
  Cursor by_time = cursor_at("", 0, 1699999999000);  // Canal's search by time: no binlog position
  Cursor negative = cursor_at("mysql-bin.000001", -5, std::numeric_limits<std::int64_t>::min());
  MetaDat meta{"example", {client(1, by_time), client(2, negative), client(3, cursor_at("mysql-bin.000001", 4, 0))}};
  constexpr std::uint64_t kHuge = std::numeric_limits<std::uint64_t>::max() - 1;
  const BinlogSizes binlogs{{"mysql-bin.000001", kHuge}, {"mysql-bin.000002", kHuge}};
  StatsModel model;
  add_meta_dat_stats(meta, kSource, &binlogs, kNow, &model);
  const StatsEntity& first = *find(model, "client", "1");
  CHECK(first.tables().empty());
  CHECK(ms(first, "lag") == 1000);
  CHECK_FALSE(whole(first, "binlog_purged"));
  const StatsEntity& second = *find(model, "client", "2");
  CHECK(second.tables().empty());
  CHECK_FALSE(ms(second, "lag"));  // now - INT64_MIN is no int64
  CHECK(whole(*find(model, "client", "3"), "behind") == std::numeric_limits<std::uint64_t>::max());
}

TEST_CASE("canal stats: a meta.log's span, changes and rate, file by file") {
  MetaLogStats logs(kNow);
  logs.add(entry(1000000, 7, "mysql-bin.000001", 4));
  logs.add(entry(1000500, 8, "mysql-bin.000001", 4));
  logs.add(entry(1001000, 7, "mysql-bin.000001", 4));    // the same position: no change
  logs.add(entry(1002000, 7, "mysql-bin.000001", 900));  // a change
  logs.add(entry(1001500, 8, "mysql-bin.000002", 4));    // a change, logged out of order
  logs.add(entry(1004000, 7, "mysql-bin.000002", 4));    // a change of journal
  StatsModel model;
  logs.finish_file("logs/example/meta.log", 1234, &model);

  const StatsEntity& destination = *find(model, "destination");
  CHECK(destination.labels()[2].value == "example");
  CHECK(whole(destination, "records") == 6);
  CHECK(whole(destination, "journal") == 1234);
  CHECK(ms(destination, "log_span") == 4000);
  CHECK(ms(destination, "oldest_entry_age") == kNow - 1000000);
  CHECK(ms(destination, "newest_entry_age") == kNow - 1004000);

  const StatsEntity& seven = *find(model, "client", "7");
  CHECK(whole(seven, "records") == 4);
  CHECK(whole(seven, "position_changes") == 2);
  CHECK(gauge(seven, "position_changes", StatsUnit::kRate)->as_fraction() == doctest::Approx(0.5));
  CHECK(ms(seven, "last_change") == 1004000);
  CHECK(table(seven, "cursor")->rows()[0].texts[0] == "mysql-bin.000002");
  const StatsEntity& eight = *find(model, "client", "8");
  CHECK(whole(eight, "position_changes") == 1);
  CHECK(ms(eight, "last_change") == 1001500);

  // The next file starts afresh: one line, no span, so no rate.
  logs.add(entry(2000000, 7, "mysql-bin.000003", 4));
  StatsModel next;
  logs.finish_file("logs/example/2021-01-14/meta-2021-01-14-1.log.gz", 99, &next);
  REQUIRE(next.entities().size() == 2);
  CHECK(ms(*find(next, "destination"), "log_span") == 0);
  const StatsEntity& again = *find(next, "client", "7");
  CHECK(whole(again, "records") == 1);
  CHECK(whole(again, "position_changes") == 0);
  CHECK_FALSE(gauge(again, "position_changes", StatsUnit::kRate));
  CHECK_FALSE(ms(again, "last_change"));

  // A file with no cursor line: its size, and nothing it cannot know.
  StatsModel empty;
  logs.finish_file("meta.log", 0, &empty);
  REQUIRE(empty.entities().size() == 1);
  CHECK(whole(empty.entities()[0], "records") == 0);
  CHECK_FALSE(ms(empty.entities()[0], "log_span"));
}
