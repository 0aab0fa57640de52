// Unit tests for classic Kestrel's stats (formats/kestrel/kestrel_stats.h):
// queue directories built by the test-only encoder (tests/support/
// kestrel_encoder.h), whose every figure is worked out by hand below from
// the records written, never from the decoder or replay under test.
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kestrel/journal_selection.h"
#include "kestrel/kestrel_stats.h"
#include "kestrel_encoder.h"
#include "stats_model.h"
#include "unit_helpers.h"

using namespace qjt;
using qjt_test::TempDir;
using qjt_test::kestrel::JournalBuilder;

namespace {

constexpr std::int64_t kNow = 10'000;

void write(const std::filesystem::path& path, const std::string& bytes) {
  qjt_test::write_file(path, qjt_test::Bytes(bytes.begin(), bytes.end()));
}

// The model of every queue in `dir`, and the findings of their replays.
struct Stats {
  StatsModel model;
  FindingList findings;
};

void stats_of(const std::string& dir, Stats* out) {
  kestrel::JournalSelection selection = kestrel::open_journals({dir}, "", {}, &out->findings);
  for (const auto& journal : selection.journals)
    kestrel::add_queue_stats(journal, kestrel::ReplayOptions{}, kNow, &out->findings, &out->model);
}

const StatsEntity& queue_named(const StatsModel& model, std::string_view name) {
  for (const StatsEntity& e : model.entities())
    if (e.kind() == "queue" && e.labels().back().value == name) return e;
  FAIL("no queue ", name);
  return model.entities().front();
}

std::optional<StatsValue> gauge(const StatsEntity& e, std::string_view name, StatsUnit unit) {
  for (const StatsGauge& g : e.gauges())
    if (g.metric.name == name && g.metric.unit == unit) return g.value;
  return std::nullopt;
}

std::uint64_t count(const StatsEntity& e, std::string_view name) {
  const auto value = gauge(e, name, StatsUnit::kCount);
  REQUIRE(value);
  return value->as_whole();
}

std::uint64_t bytes(const StatsEntity& e, std::string_view name) {
  const auto value = gauge(e, name, StatsUnit::kBytes);
  REQUIRE(value);
  return value->as_whole();
}

std::int64_t ms(const StatsEntity& e, std::string_view name, StatsUnit unit) {
  const auto value = gauge(e, name, unit);
  REQUIRE(value);
  return value->as_milliseconds();
}

Distribution distribution(const StatsEntity& e, std::string_view name) {
  for (const StatsDistribution& d : e.distributions())
    if (d.metric.name == name) return d.figures;
  FAIL("no distribution ", name);
  return {};
}

const StatsTable* table(const StatsEntity& e, std::string_view row_kind) {
  for (const StatsTable& t : e.tables())
    if (t.row_kind() == row_kind) return &t;
  return nullptr;
}

// A table's rows as text: the keys, then each value (whole numbers and
// milliseconds), space-separated, "-" for a value not known.
std::vector<std::string> rows(const StatsTable* t) {
  std::vector<std::string> out;
  REQUIRE(t != nullptr);
  for (const StatsTable::Row& row : t->rows()) {
    std::string line;
    for (const std::string& key : row.keys) line += key + " ";
    for (const std::string& text : row.texts) line += text + " ";
    for (std::size_t i = 0; i < row.values.size(); ++i) {
      const auto& v = row.values[i];
      if (!v) {
        line += "- ";
      } else if (t->columns()[i].unit == StatsUnit::kCount || t->columns()[i].unit == StatsUnit::kBytes) {
        line += std::to_string(v->as_whole()) + " ";
      } else {
        line += std::to_string(v->as_milliseconds()) + " ";
      }
    }
    line.pop_back();
    out.push_back(line);
  }
  return out;
}

// Queue q: an archived segment and the live journal, with every kind of
// adding record, removes, two open transactions, an expired item, a legacy
// item without add time. Offsets and sizes in the comments are the spec's
// record sizes: ADDX 21+N, ADD_XID 25+N, legacy ADD 9+N, REMOVE 1, xid 5.
void write_queue_q(const std::filesystem::path& dir) {
  JournalBuilder archived;
  archived
      .addx(1000, 0, "aaaa")         // 0: A, 25 bytes
      .addx(2000, 1500, "bbbbbbbb")  // 25: B, 29 bytes, expired (not queued at the end)
      .addx(3000, 0, "cc")           // 54: C, 23 bytes
      .remove()                      // 77: takes A
      .remove_tentative_xid(5);      // 78: B held by xid 5; 83 bytes in all
  JournalBuilder live;
  live.add_xid(9, 4000, 20000, "ddddd")  // 0: D, 30 bytes, expires after kNow
      .addx(500, 9000, "e")              // 30: E, 22 bytes, added first, expired
      .remove_tentative_xid(6)           // 52: C held by xid 6
      .add_legacy(0, "ff")               // 57: F, 11 bytes, no add time, no expiry
      .save_xid(6);                      // 68: 73 bytes in all
  write(dir / "q.100", archived.bytes());
  write(dir / "q", live.bytes());
}

TEST_CASE("kestrel stats: every figure of a queue, worked out by hand") {
  TempDir tmp("kestrel-stats");
  write_queue_q(tmp.path());
  Stats stats;
  stats_of(tmp.path().string(), &stats);
  CHECK(stats.findings.findings().empty());
  REQUIRE(stats.model.entities().size() == 1);
  const StatsEntity& q = queue_named(stats.model, "q");
  CHECK(q.labels()[0].value == "kestrel");
  CHECK(q.labels()[1].value == tmp.path().string());

  // Records: 10, ADDX A B C E (25+29+23+22), REMOVE, 2 REMOVE_TENTATIVE_XID,
  // ADD_XID D, legacy ADD F, SAVE_XID.
  CHECK(count(q, "records") == 10);
  CHECK(rows(table(q, "opcode")) == std::vector<std::string>{"ADD 1 11", "REMOVE 1 1", "ADDX 4 99", "SAVE_XID 1 5",
                                                             "ADD_XID 1 30", "REMOVE_TENTATIVE_XID 2 10"});
  // Payloads added: 4 8 2 5 1 2; nearest rank: p50 the 3rd smallest, p90 the 6th.
  CHECK(distribution(q, "payload") == Distribution{6, 22, 1, 2, 8, 8, 8});

  // The queue: D E F (B and C are held by xids 5 and 6).
  CHECK(count(q, "queued_items") == 3);
  CHECK(bytes(q, "queued") == 8);
  CHECK(distribution(q, "queued_payload") == Distribution{3, 8, 1, 2, 5, 5, 5});
  CHECK(ms(q, "oldest_item_add", StatsUnit::kTime) == 500);  // E, though behind D; F has no add time
  CHECK(ms(q, "oldest_item_age", StatsUnit::kDuration) == kNow - 500);
  CHECK(ms(q, "newest_item_add", StatsUnit::kTime) == 4000);
  CHECK(ms(q, "newest_item_age", StatsUnit::kDuration) == kNow - 4000);
  CHECK(count(q, "expired_items") == 1);         // E
  CHECK(count(q, "items_without_expiry") == 1);  // F
  CHECK(count(q, "open_transactions") == 2);
  CHECK(rows(table(q, "oldest_open_transaction")) == std::vector<std::string>{"5 2000 8000"});

  // Space: live = B (21+8+5) + C (21+2+5) + D (21+5) + E (21+1) + F as ADDX (21+2).
  CHECK(bytes(q, "journal") == 156);
  CHECK(bytes(q, "archived") == 83);
  CHECK(bytes(q, "live") == 133);
  CHECK(gauge(q, "journal_overflow", StatsUnit::kRatio)->as_fraction() == doctest::Approx(156.0 / 133.0));
  CHECK(bytes(q, "reclaimable") == 23);
  // q.100 still holds B and C (29+23 bytes), q holds D E F (30+22+11).
  CHECK(rows(table(q, "segment")) == std::vector<std::string>{"q.100 archived 5 83 2 31", "q live 5 73 3 10"});

  CHECK(count(q, "startup_pack_installs") == 0);
  CHECK(count(q, "startup_deletions") == 0);
  CHECK(table(q, "startup_action") == nullptr);
}

TEST_CASE("kestrel stats: an item's figures follow it out to a transaction and back") {
  TempDir tmp("kestrel-stats");
  JournalBuilder u;
  u.addx(1000, 0, "aa")                // A
      .addx(2000, 5000, "bbb")         // B, expired
      .remove_tentative_xid(1)         // A held by 1
      .remove_tentative_xid(2)         // B held by 2
      .unremove(1)                     // A back at the head: A
      .confirm_remove(2)               // B gone
      .addx(3000, 0, "c")              // A C
      .remove_tentative_xid(3)         // C, A held by 3
      .continue_(3, 4000, 0, "dddd");  // A consumed, D added: C D
  write(tmp.path() / "u", u.bytes());
  Stats stats;
  stats_of(tmp.path().string(), &stats);
  const StatsEntity& q = queue_named(stats.model, "u");
  CHECK(count(q, "queued_items") == 2);
  CHECK(ms(q, "oldest_item_add", StatsUnit::kTime) == 3000);  // C's, not A's: A's figures left with it
  CHECK(ms(q, "newest_item_add", StatsUnit::kTime) == 4000);
  CHECK(count(q, "expired_items") == 0);  // B was confirmed
  CHECK(count(q, "items_without_expiry") == 2);
  CHECK(count(q, "open_transactions") == 0);
  CHECK(table(q, "oldest_open_transaction") == nullptr);
}

TEST_CASE("kestrel stats: an empty queue's archived journal, a leftover pack and a temp file") {
  TempDir tmp("kestrel-stats");
  JournalBuilder pack;
  pack.addx(1000, 0, "xyz").remove();  // 24 + 1 bytes: nothing left
  write(tmp.path() / "p.200.pack", pack.bytes());
  write(tmp.path() / "p.100", JournalBuilder().addx(900, 0, "old").bytes());    // 24 bytes, superseded
  write(tmp.path() / "p~~300", JournalBuilder().addx(950, 0, "tmp!").bytes());  // 25 bytes, a temp file
  write(tmp.path() / "p", "");
  Stats stats;
  stats_of(tmp.path().string(), &stats);
  const StatsEntity& p = queue_named(stats.model, "p");

  CHECK(count(p, "queued_items") == 0);
  CHECK(!gauge(p, "oldest_item_add", StatsUnit::kTime));
  CHECK(!gauge(p, "journal_overflow", StatsUnit::kRatio));  // no live byte to compare with
  CHECK(bytes(p, "journal") == 25);
  CHECK(bytes(p, "archived") == 25);
  CHECK(bytes(p, "live") == 0);
  CHECK(bytes(p, "reclaimable") == 25);
  CHECK(rows(table(p, "segment")) == std::vector<std::string>{"p.200.pack pack 2 25 0 25", "p live 0 0 0 0"});
  CHECK(count(p, "startup_pack_installs") == 1);
  CHECK(count(p, "startup_deletions") == 2);
  CHECK(rows(table(p, "startup_action")) == std::vector<std::string>{"p.200.pack install_pack 25",
                                                                     "p~~300 delete_temp_file 25",
                                                                     "p.100 delete_superseded_segment 24"});
  CHECK(count(p, "records") == 2);
}

TEST_CASE("kestrel stats: a broken record is an error finding, and what precedes it counts") {
  TempDir tmp("kestrel-stats");
  JournalBuilder live;
  live.addx(1000, 0, "abc").addx(2000, 0, "de").invalid_opcode(0x80, "junk");  // 24 + 23, then 5 bytes
  write(tmp.path() / "b", live.bytes());
  Stats stats;
  stats_of(tmp.path().string(), &stats);
  CHECK(stats.findings.count(Severity::kError) == 1);
  const StatsEntity& b = queue_named(stats.model, "b");
  CHECK(count(b, "records") == 2);
  CHECK(count(b, "queued_items") == 2);
  CHECK(bytes(b, "journal") == 52);
  CHECK(rows(table(b, "segment")) == std::vector<std::string>{"b live 2 52 2 5"});
}

TEST_CASE("kestrel stats: files named directly are labelled with their directory") {
  TempDir tmp("kestrel-stats");
  write_queue_q(tmp.path());
  Stats stats;
  kestrel::JournalSelection selection =
      kestrel::open_journals({(tmp.path() / "q.100").string(), (tmp.path() / "q").string()}, "", {}, &stats.findings);
  REQUIRE(selection.journals.size() == 1);
  kestrel::add_queue_stats(selection.journals[0], kestrel::ReplayOptions{}, kNow, &stats.findings, &stats.model);
  const StatsEntity& q = queue_named(stats.model, "q");
  CHECK(q.labels()[1].value == tmp.path().string());
  CHECK(rows(table(q, "segment")) == std::vector<std::string>{"q.100 given 5 83 2 31", "q given 5 73 3 10"});
  CHECK(bytes(q, "archived") == 83);  // q is named like a live journal
}

}  // namespace
