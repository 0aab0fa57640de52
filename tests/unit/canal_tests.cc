// formats/canal against expectations written by hand from canal-format.md:
// the meta.dat of §1.2 byte for byte, Canal's min rule (§1.3), the two
// meta.log line forms (§2), SHOW BINARY LOGS, the store metrics (§7.4),
// and robustness: every truncation prefix and seeded byte flips.
#include <doctest/doctest.h>

#include <cstdlib>
#include <ctime>
#include <random>

#include <fmt/format.h>

#include "canal/binlog_list.h"
#include "canal/canal_file_kind.h"
#include "canal/gzip_text.h"
#include "canal/json_value.h"
#include "canal/line_splitter.h"
#include "canal/meta_dat.h"
#include "canal/meta_log.h"
#include "canal/meta_repair.h"
#include "canal/restart_cursor.h"
#include "canal/store_metrics.h"
#include "time_value.h"
#include "unit_helpers.h"

using namespace qjt;
using namespace qjt::canal;
using qjt_test::Bytes;

namespace {

// §1.2's synthetic example, on one line as Canal writes it.
const std::string kSpecExample =
    R"({"clientDatas":[{"clientIdentity":{"clientId":1001,"destination":"example","filter":""},)"
    R"("cursor":{"identity":{"slaveId":-1,"sourceAddress":{"address":"db1.internal","port":3306}},)"
    R"("postion":{"gtid":"","included":false,"journalName":"mysql-bin.000266",)"
    R"("position":226987109,"serverId":2757725211,"timestamp":1610750948000}}}],"destination":"example"})";

const MetaDatSource kSource{"conf/example/meta.dat", "example"};

std::vector<std::string> codes(const FindingList& findings) {
  std::vector<std::string> out;
  for (const Finding& f : findings.findings()) out.push_back(f.code);
  return out;
}

std::optional<MetaDat> read(const std::string& text, FindingList* findings) {
  return read_meta_dat(ByteSpan(text), kSource, findings);
}

Cursor cursor(std::string address, std::string journal, std::int64_t position, std::int64_t timestamp) {
  Cursor c;
  c.address = std::move(address);
  c.port = 3306;
  c.journal_name = std::move(journal);
  c.position = position;
  c.timestamp = timestamp;
  return c;
}

}  // namespace

TEST_CASE("canal meta.dat: the spec's example decodes and is written back byte for byte") {
  FindingList findings;
  const auto meta = read(kSpecExample, &findings);
  REQUIRE(meta);
  CHECK(findings.findings().empty());
  REQUIRE(meta->clients.size() == 1);
  const Cursor& c = *meta->clients[0].cursor;
  CHECK(*c.server_id == 2757725211);  // above 2^31: kept exactly
  CHECK(*c.timestamp == 1610750948000);
  CHECK(*c.position == 226987109);
  CHECK(c.address == "db1.internal");
  CHECK(write_meta_dat(*meta) == kSpecExample);
}

TEST_CASE("canal meta.dat: legacy layouts are read as valid and written in Canal's layout") {
  FindingList findings;
  // Keys out of order, whitespace, a trailing newline, no gtid and no
  // serverId (before 2016), @type on the cursor (a ZooKeeper copy).
  const std::string legacy =
      "{ \"destination\" : \"example\",\n \"clientDatas\": [ {\"cursor\": {"
      "\"@type\":\"com.alibaba.otter.canal.protocol.position.LogPosition\","
      "\"postion\": {\"timestamp\":1440000000000,\"position\":396,\"journalName\":"
      "\"mysql-bin.000004\",\"included\":false},\"identity\":{\"sourceAddress\":{\"port\":3306,"
      "\"address\":\"10.1.2.3\"},\"slaveId\":-1}},\"clientIdentity\":{\"filter\":\"\","
      "\"destination\":\"example\",\"clientId\":1001}}]}\n";
  const auto meta = read(legacy, &findings);
  REQUIRE(meta);
  CHECK(findings.findings().empty());
  CHECK(write_meta_dat(*meta) ==
        R"({"clientDatas":[{"clientIdentity":{"clientId":1001,"destination":"example","filter":""},)"
        R"("cursor":{"identity":{"slaveId":-1,"sourceAddress":{"address":"10.1.2.3","port":3306}},)"
        R"("postion":{"included":false,"journalName":"mysql-bin.000004","position":396,)"
        R"("timestamp":1440000000000}}}],"destination":"example"})");
}

TEST_CASE("canal meta.dat: Canal's empty-journal cursor is valid, position 3 is not") {
  FindingList findings;
  std::string search = kSpecExample;
  search.replace(search.find("mysql-bin.000266"), 16, "");
  search.replace(search.find("226987109"), 9, "0");
  CHECK(read(search, &findings));
  CHECK(findings.findings().empty());
  std::string low = kSpecExample;
  low.replace(low.find("226987109"), 9, "3");
  read(low, &findings);
  CHECK(codes(findings) == std::vector<std::string>{"canal_position_range"});
}

TEST_CASE("canal meta.dat: each value check, at the cursor's offset") {
  const auto with = [](const std::string& from, const std::string& to) {
    std::string s = kSpecExample;
    s.replace(s.find(from), from.size(), to);
    FindingList findings;
    read(s, &findings);
    return findings;
  };
  const std::uint64_t cursor_at = kSpecExample.find("{\"identity\"");
  const FindingList seconds = with("1610750948000", "1610750948");
  REQUIRE(codes(seconds) == std::vector<std::string>{"canal_timestamp_unit"});
  CHECK(*seconds.findings()[0].offset == cursor_at);
  CHECK(codes(with("mysql-bin.000266", "mysql-bin.266")) == std::vector<std::string>{"canal_journal_name"});
  CHECK(codes(with("2757725211", "4294967296")) == std::vector<std::string>{"canal_server_id_range"});
  CHECK(codes(with("\"included\":false", "\"included\":true")) == std::vector<std::string>{"canal_included"});
  CHECK(codes(with("\"port\":3306", "\"port\":70000")) == std::vector<std::string>{"canal_source_address"});
  CHECK(codes(with("\"clientId\":1001", "\"clientId\":40000")) == std::vector<std::string>{"canal_client_id_range"});
  CHECK(codes(with("{\"address\":\"db1.internal\",\"port\":3306}", "\"db1.internal/10.0.0.5:3306\"")) ==
        std::vector<std::string>{"canal_fastjson_shape"});
  CHECK(codes(with("\"postion\"", "\"position\"")) ==
        std::vector<std::string>{"canal_misspelled_key", "canal_missing_field"});
  CHECK(codes(with("\"position\":226987109", "\"position\":\"226987109\"")) ==
        std::vector<std::string>{"canal_field_type"});
  CHECK(codes(with("\"destination\":\"example\"}", "\"destination\":\"other\"}")) ==
        std::vector<std::string>{"canal_destination_mismatch"});
}

TEST_CASE("canal meta.dat: clients without cursors, duplicates, and an empty list") {
  FindingList findings;
  const std::string client = R"({"clientIdentity":{"clientId":1001,"destination":"example","filter":""}})";
  const auto meta = read(R"({"clientDatas":[)" + client + "," + client + R"(],"destination":"example"})", &findings);
  REQUIRE(meta);
  // The two clients' alike findings fold into one that counts them.
  CHECK(codes(findings) == std::vector<std::string>{"canal_no_cursor", "canal_duplicate_client"});
  CHECK(findings.findings()[0].count == 2);
  CHECK_FALSE(restart_cursor(*meta, kSource));
  FindingList empty;
  read(R"({"clientDatas":[],"destination":"example"})", &empty);
  CHECK(codes(empty) == std::vector<std::string>{"canal_no_clients"});
}

TEST_CASE("canal meta.dat: empty, BOM, bad UTF-8, malformed JSON, at the byte where it goes wrong") {
  const auto first = [](const std::string& text) {
    FindingList findings;
    CHECK_FALSE(read(text, &findings));
    REQUIRE(findings.findings().size() == 1);
    return std::make_pair(findings.findings()[0].code, *findings.findings()[0].offset);
  };
  CHECK(first("") == std::make_pair(std::string("canal_empty_file"), std::uint64_t{0}));
  CHECK(first("\xEF\xBB\xBF{}").first == "canal_invalid_json");
  CHECK(first("{\"destination\":\"ex\xC3(\"}") == std::make_pair(std::string("canal_invalid_utf8"), std::uint64_t{18}));
  CHECK(first("{\"destination\":\"ex\",}") == std::make_pair(std::string("canal_invalid_json"), std::uint64_t{20}));
  CHECK(first("{\"destination\":\"ex\"} x") == std::make_pair(std::string("canal_invalid_json"), std::uint64_t{21}));
  CHECK(first("[1]").first == "canal_invalid_json");
  CHECK(first(std::string(100, '[')).first == "canal_invalid_json");  // deeper than kMaxDepth
}

TEST_CASE("canal meta.dat: every truncation prefix reports a finding and never crashes") {
  for (std::size_t n = 0; n < kSpecExample.size(); ++n) {
    FindingList findings;
    read(kSpecExample.substr(0, n), &findings);
    CAPTURE(n);
    CHECK(findings.count(Severity::kError) > 0);
  }
}

TEST_CASE("canal meta.dat: seeded byte flips never crash and decode the same twice") {
  std::mt19937 random(20261202);
  for (int round = 0; round < 3000; ++round) {
    std::string s = kSpecExample;
    const int flips = 1 + round % 4;
    for (int i = 0; i < flips; ++i) s[random() % s.size()] = static_cast<char>(random() % 256);
    FindingList a, b;
    const auto first = read(s, &a);
    const auto second = read(s, &b);
    CHECK(codes(a) == codes(b));
    if (first) CHECK(write_meta_dat(*first) == write_meta_dat(*second));
  }
}

TEST_CASE("canal json: 64-bit integers keep their literal, strings decode escapes") {
  JsonValue v;
  JsonError e;
  REQUIRE(parse_json(ByteSpan(std::string_view(R"({"a":9223372036854775807,"b":"\u00e9\ud83d\ude00\n","c":1.5})")), &v,
                     &e));
  CHECK(*v.find("a")->as_int() == INT64_MAX);
  CHECK(v.find("b")->text == "\xC3\xA9\xF0\x9F\x98\x80\n");
  CHECK_FALSE(v.find("c")->as_int());
  CHECK_FALSE(parse_json(ByteSpan(std::string_view(R"({"a":"\ude00"})")), &v, &e));
  CHECK(e.offset == 12);
}

TEST_CASE("canal restart cursor: Canal's min, journal names compared as strings") {
  MetaDat meta;
  meta.destination = "example";
  const auto add = [&meta](std::int64_t id, Cursor c) {
    ClientData client;
    client.client_id = id;
    client.destination = "example";
    client.cursor = std::move(c);
    meta.clients.push_back(client);
  };
  add(1, cursor("db1", "mysql-bin.000266", 500, 2000));
  add(2, cursor("db1", "mysql-bin.000266", 100, 3000));  // same source: position decides
  CHECK(restart_cursor(meta, kSource)->client_id == 2);
  add(3, cursor("db1", "mysql-bin.000265", 9000, 9000));  // an earlier journal, whatever its position
  CHECK(restart_cursor(meta, kSource)->client_id == 3);
  MetaDat rollover;
  rollover.clients = {meta.clients[0], meta.clients[0]};
  rollover.clients[0].cursor = cursor("db1", "mysql-bin.999999", 100, 1000);
  rollover.clients[1].client_id = 9;
  rollover.clients[1].cursor = cursor("db1", "mysql-bin.1000000", 4, 2000);  // newer, but sorts first
  CHECK(restart_cursor(rollover, kSource)->client_id == 9);
  add(5, cursor("db2", "mysql-bin.000001", 4, 1000));  // another source: timestamp decides
  CHECK(restart_cursor(meta, kSource)->client_id == 5);
  add(6, cursor("db3", "mysql-bin.000001", 4, 1000));  // a tie keeps the earlier client
  CHECK(restart_cursor(meta, kSource)->client_id == 5);
}

TEST_CASE("canal meta.log: both line forms, the three address forms, a GTID set with commas") {
  const std::string text =
      "2020-07-01 17:39:47.432 - clientId:1001 cursor:[mysql-bin.001967,321450468,1593595911000,3251810213,] "
      "address[mysqlhostname/172.17.0.5:3307]\n"
      "2017-10-11 06:04:57.000 - clientId:1001 cursor:[mysql-bin.000004,396,1507701897000] address[/10.0.0.1:3306]\n"
      "2021-01-01 00:00:00.000 - clientId:7 cursor:[b.000002,4,1609459200000,1,u:1-5,v:1-2] address[db:3306]\r\n"
      "\tat com.alibaba.otter.canal.meta.FileMixedMetaManager.flushDataToFile\n";
  std::vector<LogEntry> entries;
  FindingList findings;
  read_meta_log(text, "meta.log", TimeZone::utc(), &entries, &findings);
  REQUIRE(entries.size() == 3);
  CHECK(entries[0].time_ms == 1593625187432);
  CHECK(entries[0].cursor.address == "mysqlhostname");
  CHECK(entries[0].cursor.port == 3307);
  CHECK(*entries[0].cursor.server_id == 3251810213);
  CHECK(*entries[0].cursor.gtid == "");
  CHECK(entries[1].cursor.address == "10.0.0.1");
  CHECK_FALSE(entries[1].cursor.server_id);
  CHECK_FALSE(entries[1].cursor.gtid);
  CHECK(entries[2].cursor.address == "db");
  CHECK(*entries[2].cursor.gtid == "u:1-5,v:1-2");
  CHECK(codes(findings) == std::vector<std::string>{"canal_log_line"});
  CHECK(*findings.findings()[0].offset == text.find("\tat"));
  // --at takes the times the log writes (time_value.h, in the zone given).
  CHECK(*parse_time_value("2020-07-01 17:39:47", 0, TimeZone::utc()) == 1593625187000);
  CHECK(*parse_time_value("2020-07-01 17:39:47.432", 0, TimeZone::utc()) == 1593625187432);
  CHECK_FALSE(parse_time_value("2020-13-01 00:00:00", 0, TimeZone::utc()));
}

TEST_CASE("canal meta.log: times are read in the zone passed, whatever TZ says") {
  std::string error;
  const auto shanghai = TimeZone::load("Asia/Shanghai", &error);
  REQUIRE_MESSAGE(shanghai, error);
  const TimeZone plus8 = TimeZone::fixed(8 * 3600);
  const std::string line = "2021-01-15 22:49:07.101 - clientId:1 cursor:[b.000001,4,1610722147000,1,] address[h:1]\n";
  for (const TimeZone* zone : {&*shanghai, &plus8}) {
    std::vector<LogEntry> entries;
    FindingList findings;
    read_meta_log(line, "meta.log", *zone, &entries, &findings);
    REQUIRE(entries.size() == 1);
    CHECK(entries[0].time_ms == 1610722147101);
    CHECK(*parse_time_value("2021-01-15 22:49:07", 0, *zone) == 1610722147000);
    CHECK(*parse_log_time("2021-01-15 22:49:07.101", *zone) == 1610722147101);
  }
  // New York's clocks went forward at 2021-03-14 02:00 and back at
  // 2021-11-07 02:00: a time in the gap is read as after it, a time that
  // occurred twice as the first.
  const auto new_york = TimeZone::load("America/New_York", &error);
  REQUIRE_MESSAGE(new_york, error);
  CHECK(*parse_log_time("2021-03-14 02:30:00.000", *new_york) == 1615707000000);  // 03:30 EDT
  CHECK(*parse_log_time("2021-11-07 01:30:00.000", *new_york) == 1636263000000);  // 01:30 EDT
  CHECK(*parse_log_time("2021-02-31 12:00:00.000", TimeZone::utc()) ==
        *parse_log_time("2021-03-03 12:00:00.000", TimeZone::utc()));
  // The minute cached by MetaLogParser is the zone's: a line a minute
  // later across New York's change is read anew.
  std::vector<LogEntry> entries;
  FindingList findings;
  read_meta_log(
      "2021-11-07 00:59:59.000 - clientId:1 cursor:[b.000001,4,1,1,] address[h:1]\n"
      "2021-11-07 00:59:59.500 - clientId:1 cursor:[b.000001,5,1,1,] address[h:1]\n"
      "2021-11-07 03:00:00.000 - clientId:1 cursor:[b.000001,6,1,1,] address[h:1]\n",
      "meta.log", *new_york, &entries, &findings);
  REQUIRE(entries.size() == 3);
  CHECK(entries[0].time_ms == 1636261199000);
  CHECK(entries[1].time_ms == 1636261199500);
  CHECK(entries[2].time_ms == 1636272000000);
}

TEST_CASE("canal meta.log: the cursors at a time, and a cursor moving back") {
  std::vector<LogEntry> entries;
  FindingList findings;
  read_meta_log(
      "2021-01-15 22:49:07.000 - clientId:1 cursor:[b.000001,400,1610750947000,1,] address[h:1]\n"
      "2021-01-15 22:49:08.000 - clientId:1 cursor:[b.000001,300,1610750948000,1,] address[h:1]\n"
      "2021-01-15 22:49:09.000 - clientId:2 cursor:[b.000001,900,1610750949000,1,] address[h:1]\n",
      "meta.log", TimeZone::utc(), &entries, &findings);
  CursorOrderCheck order;
  CursorsAt at(1610750948500), later(1610750949000);
  for (const LogEntry& e : entries) {
    order.add(e, &findings);
    at.add(e);
    later.add(e);
  }
  CHECK(codes(findings) == std::vector<std::string>{"canal_cursor_backwards"});
  REQUIRE(at.cursors().size() == 1);
  CHECK(*at.cursors()[0].cursor.position == 300);
  CHECK(later.cursors().size() == 2);
}

TEST_CASE("canal binlogs: the boxed table and mysql -B output") {
  FindingList findings;
  const auto boxed = read_binlog_list(
      "+------------------+-----------+\n| Log_name         | File_size |\n+------------------+-----------+\n"
      "| mysql-bin.000266 | 536870912 |\n+------------------+-----------+\n1 row in set (0.00 sec)\n",
      "b", &findings);
  CHECK(boxed == std::map<std::string, std::uint64_t>{{"mysql-bin.000266", 536870912}});
  const auto batch =
      read_binlog_list("Log_name\tFile_size\tEncrypted\nb.000001\t177\tNo\nb.000002\t4\tNo\n", "b", &findings);
  CHECK(batch.size() == 2);
  CHECK(findings.findings().empty());
  MetaDat meta = *read(kSpecExample, &findings);
  check_against_binlogs(meta, batch, "meta.dat", &findings);
  CHECK(codes(findings) == std::vector<std::string>{"canal_journal_purged"});
  FindingList beyond;
  check_against_binlogs(meta, {{"mysql-bin.000266", 1000}}, "meta.dat", &beyond);
  CHECK(codes(beyond) == std::vector<std::string>{"canal_position_beyond_end"});
}

TEST_CASE("canal binlogs: a size beyond 64 bits is no row, not a size of 0") {
  FindingList findings;
  const auto list = read_binlog_list(
      "Log_name\tFile_size\nb.000001\t177\nb.000002\t99999999999999999999999\nb.000003\t12abc\n", "b", &findings);
  CHECK(list == std::map<std::string, std::uint64_t>{{"b.000001", 177}});
  CHECK(codes(findings) == std::vector<std::string>{"canal_binlogs_line", "canal_binlogs_line"});
}

TEST_CASE("canal metrics: a store size that is no whole number is left unknown") {
  FindingList findings;
  const auto stores = read_store_metrics(
      "canal_instance_store{destination=\"a\",batchMode=\"MEMSIZE\",size=\"\"} 1\n"
      "canal_instance_store{destination=\"b\",batchMode=\"MEMSIZE\",size=\"99999999999999999999\"} 1\n"
      "canal_instance_store{destination=\"c\",batchMode=\"MEMSIZE\",size=\"1024\"} 1\n",
      "scrape", &findings);
  REQUIRE(stores.size() == 3);
  CHECK_FALSE(stores[0].buffer_size);
  CHECK_FALSE(stores[1].buffer_size);
  CHECK(stores[2].buffer_size == 1024);
}

TEST_CASE("canal metrics: the store's invariants from a scrape") {
  FindingList findings;
  const auto stores = read_store_metrics(
      "canal_instance_store_produce_seq_total{destination=\"a\",} 10.0\n"
      "canal_instance_store_consume_seq_total{destination=\"a\",} 12.0\n"
      "canal_instance_store{destination=\"a\",batchMode=\"ITEMSIZE\",size=\"1000\",} 1.0\n"
      "canal_instance_store_produce_seq{destination=\"b\"} 1.0E4\n"
      "canal_instance_store_consume_seq{destination=\"b\"} 0\n"
      "canal_instance_store{destination=\"b\",batchMode=\"MEMSIZE\",size=\"1024\"} 1\n"
      "canal_instance_store_produce_mem{destination=\"b\"} 2048\n"
      "canal_instance_store_consume_mem{destination=\"b\"} 0\n"
      "garbage{\n",
      "scrape", &findings);
  REQUIRE(stores.size() == 2);
  CHECK(*stores[0].in_flight_events() == -2);
  CHECK(*stores[1].in_flight_events() == 10000);
  CHECK(*stores[1].in_flight_bytes() == 2048);
  for (const auto& s : stores) check_store(s, 1, "scrape", &findings);
  CHECK(codes(findings) == std::vector<std::string>{"canal_metrics_line", "canal_store_size", "canal_store_order",
                                                    "canal_store_overflow", "canal_store_mem_overflow"});
}

TEST_CASE("canal repair edits: set position keeps the rest, to-timestamp, drop") {
  FindingList findings;
  MetaDat meta = *read(kSpecExample, &findings);
  std::vector<std::string> actions;
  std::string error;
  MetaEdits edits;
  REQUIRE(parse_set_position("1001=mysql-bin.000270:4", &edits.set_positions.emplace_back()));
  REQUIRE(apply_edits(&meta, edits, &actions, &error));
  std::string expected = kSpecExample;
  expected.replace(expected.find("mysql-bin.000266"), 16, "mysql-bin.000270");
  expected.replace(expected.find("226987109"), 9, "4");
  CHECK(write_meta_dat(meta) == expected);
  MetaEdits to_time;
  REQUIRE(parse_to_timestamp("1001=1610000000000", &to_time.to_timestamps.emplace_back()));
  REQUIRE(apply_edits(&meta, to_time, &actions, &error));
  CHECK(is_timestamp_cursor(*meta.clients[0].cursor));
  CHECK(meta.clients[0].cursor->address == "db1.internal");
  MetaEdits drop{{}, {}, {1002}};
  CHECK_FALSE(apply_edits(&meta, drop, &actions, &error));
  CHECK(error == "client 1002 is not in meta.dat");
  SetPosition bad;
  CHECK_FALSE(parse_set_position("1001=mysql-bin.000270", &bad));
  CHECK_FALSE(parse_set_position("x=a:4", &bad));
}

TEST_CASE("canal files: recognised by name and content") {
  const std::string cursor_line =
      "2021-01-15 22:49:07.101 - clientId:1001 cursor:[mysql-bin.000266,4,1610750947000] address[h:1]\n";
  CHECK(detect_file_kind("conf/x/meta.dat", ByteSpan()) == FileKind::kMetaDat);  // empty, by name
  CHECK(detect_file_kind("copy.json", ByteSpan(kSpecExample)) == FileKind::kMetaDat);
  CHECK(detect_file_kind("history.txt", ByteSpan(cursor_line)) == FileKind::kMetaLog);
  CHECK(detect_file_kind("logs/x/meta.log", ByteSpan()) == FileKind::kMetaLog);
  CHECK_FALSE(detect_file_kind("queue", ByteSpan(std::string_view("\x01\x02\x03"))));
  CHECK(parse_format("canal-meta-log") == FileKind::kMetaLog);
  CHECK_FALSE(parse_format("canal-zk"));
}

namespace {

// The text inflate_gzip passes on, and whether it succeeded.
bool inflate_all(const Bytes& gz, std::string* text, std::string* error, std::uint64_t max = kMaxInflatedBytes) {
  return inflate_gzip(
      ByteSpan(gz.data(), gz.size()),
      [text](std::string_view piece) {
        text->append(piece);
        return true;
      },
      error, max);
}

// The lines LineSplitter passes on for `pieces`, as "NUMBER@OFFSET:TEXT"
// ("NUMBER@OFFSET:LENGTH!" for one too long).
std::vector<std::string> split(const std::vector<std::string>& pieces, std::size_t max_line) {
  std::vector<std::string> out;
  LineSplitter lines(
      [&out](const TextLine& l) {
        out.push_back(fmt::format("{}@{}:{}", l.number, l.offset,
                                  l.too_long() ? std::to_string(l.length) + "!" : std::string(l.text)));
        return true;
      },
      max_line);
  for (const std::string& piece : pieces) lines.feed(piece);
  lines.finish();
  return out;
}

}  // namespace

TEST_CASE("canal gzip: two members, a truncated stream, and the inflated limit") {
  // gzip -n of "a\n" and of "b\n" (RFC 1952 members, zero mtime).
  const Bytes a = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0x4b, 0xe4, 0x02, 0x00, 0x07, 0xa1, 0xea, 0xdd, 2, 0, 0, 0};
  const Bytes b = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0x4b, 0xe2, 0x02, 0x00, 0xc4, 0xf2, 0xc7, 0xf6, 2, 0, 0, 0};
  Bytes both = a;
  both.insert(both.end(), b.begin(), b.end());
  std::string text, error;
  REQUIRE(inflate_all(both, &text, &error));
  CHECK(text == "a\nb\n");
  text.clear();
  CHECK_FALSE(inflate_all(Bytes(both.begin(), both.end() - 3), &text, &error));
  CHECK(text == "a\nb\n");
  CHECK(error.find("ends early") != std::string::npos);
  text.clear();
  CHECK_FALSE(inflate_all(both, &text, &error, 3));
  CHECK(text == "a\nb");
  CHECK(error.find("inflates beyond") != std::string::npos);
  CHECK(is_gzip(ByteSpan(a.data(), a.size())));
}

TEST_CASE("canal lines: split across pieces, offsets in the text, a line over the bound not kept") {
  CHECK(split({"ab\ncd", "e\n", "", "f"}, 8) == std::vector<std::string>{"1@0:ab", "2@3:cde", "3@7:f"});
  CHECK(split({"x\n\n"}, 8) == std::vector<std::string>{"1@0:x", "2@2:"});
  CHECK(split({"0123", "45678", "9\nok\n"}, 8) == std::vector<std::string>{"1@0:10!", "2@11:ok"});
  CHECK(split({"0123456789\nok"}, 8) == std::vector<std::string>{"1@0:10!", "2@11:ok"});
  CHECK(split({"01234567\n"}, 8) == std::vector<std::string>{"1@0:01234567"});
}

TEST_CASE("canal meta.log: a line over the bound is an error, not memory, and the next line is read") {
  const std::string next = "2021-01-15 22:49:07.000 - clientId:1 cursor:[b.000001,400,1610750947000,1,] address[h:1]\n";
  const std::string text = std::string(kMaxLineBytes + 1, 'x') + "\n" + next;
  std::vector<LogEntry> entries;
  FindingList findings;
  read_meta_log(text, "meta.log", TimeZone::utc(), &entries, &findings);
  CHECK(codes(findings) == std::vector<std::string>{"canal_long_line"});
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].line == 2);
  CHECK(entries[0].offset == kMaxLineBytes + 2);
}

TEST_CASE("canal meta.dat: a number beyond 64 bits is a type finding, not a wrapped value") {
  std::string s = kSpecExample;
  s.replace(s.find("226987109"), 9, "99999999999999999999");
  FindingList findings;
  read(s, &findings);
  CHECK(codes(findings) == std::vector<std::string>{"canal_field_type"});
}

TEST_CASE("canal text readers: seeded random and mutated input never crash") {
  std::mt19937 random(7);
  const std::string seeds[] = {
      "2021-01-15 22:49:07.101 - clientId:1001 cursor:[mysql-bin.000266,4,1610750947000,1,u:1-2] "
      "address[h/1.2.3.4:1]\n",
      "| mysql-bin.000266 | 536870912 | No |\n",
      "canal_instance_store{destination=\"a\",batchMode=\"MEMSIZE\",size=\"16\",} 1.0\n"};
  for (int round = 0; round < 2000; ++round) {
    std::string s = seeds[round % 3];
    for (int i = 0; i < 1 + round % 5; ++i) s[random() % s.size()] = static_cast<char>(random() % 256);
    s = s.substr(0, random() % (s.size() + 1));
    FindingList findings;
    std::vector<LogEntry> entries;
    read_meta_log(s, "f", TimeZone::utc(), &entries, &findings);
    read_binlog_list(s, "f", &findings);
    for (const auto& m : read_store_metrics(s, "f", &findings)) check_store(m, 1024, "f", &findings);
    StoreMetrics huge{"h", 0, "MEMSIZE", INT64_MAX / 2, 10, 0, 1000, 0};
    check_store(huge, 1 << 30, "f", &findings);  // size x memunit would overflow
    JsonValue v;
    JsonError e;
    parse_json(ByteSpan(s), &v, &e);
  }
  CHECK(true);
}

TEST_CASE("canal format names: one table both ways") {
  CHECK(format_names() ==
        std::vector<std::string_view>{"canal-meta-dat", "canal-meta-log", "canal-zk-cursor", "canal-zk-tree"});
  for (const std::string_view name : format_names()) CHECK(format_name(*parse_format(std::string(name))) == name);
  CHECK_FALSE(parse_format("canal"));
}
