// ReplayState against kestrel-format.md sections 2.2 to 2.4 and Kestrel's
// PersistentQueueSpec. Each case feeds records and checks the exact queue,
// open-transaction map, xid counter and findings.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "finding.h"
#include "kestrel/journal_reader.h"
#include "kestrel/journal_record.h"
#include "kestrel/journal_writer.h"
#include "kestrel/replay_state.h"
#include "unit_helpers.h"

using namespace qjt;
using namespace qjt::kestrel;
using qjt_test::contains;

namespace {

JournalRecord item_record(RecordType type, std::string_view data, std::int32_t xid = 0) {
  JournalRecord r;
  r.type = type;
  r.xid = xid;
  r.payload = ByteSpan(data);
  r.has_add_time = type != RecordType::kAdd;
  r.add_time_ms = r.has_add_time ? 1700000000000LL : 0;
  r.expiry_ms = 0;
  const std::uint64_t n = data.size();
  r.length = type == RecordType::kAdd ? 9 + n : type == RecordType::kAddX ? 21 + n : 25 + n;
  return r;
}

JournalRecord addx(std::string_view data) { return item_record(RecordType::kAddX, data); }
JournalRecord add_xid(std::int32_t xid, std::string_view data) { return item_record(RecordType::kAddXid, data, xid); }
JournalRecord cont(std::int32_t xid, std::string_view data) { return item_record(RecordType::kContinue, data, xid); }
JournalRecord simple(RecordType type, std::int32_t xid = 0) {
  JournalRecord r;
  r.type = type;
  r.xid = xid;
  r.length = (type == RecordType::kRemove || type == RecordType::kRemoveTentative) ? 1 : 5;
  return r;
}
JournalRecord remove() { return simple(RecordType::kRemove); }
JournalRecord legacy_rt() { return simple(RecordType::kRemoveTentative); }
JournalRecord rtx(std::int32_t xid) { return simple(RecordType::kRemoveTentativeXid, xid); }
JournalRecord unremove(std::int32_t xid) { return simple(RecordType::kUnremove, xid); }
JournalRecord confirm(std::int32_t xid) { return simple(RecordType::kConfirmRemove, xid); }
JournalRecord save_xid(std::int32_t xid) { return simple(RecordType::kSaveXid, xid); }

// One journal file in memory. Each record is encoded as Kestrel writes it,
// decoded back and applied, so that the items the state keeps by position
// can be read again.
struct TestFile {
  std::vector<std::uint8_t> bytes = std::vector<std::uint8_t>(1 << 16);
  std::size_t used = 0;

  ByteSpan span() const { return ByteSpan(bytes.data(), bytes.size()); }
  // Appends `r`, applies it and returns its offset.
  std::uint64_t apply(ReplayState* state, const JournalRecord& r) {
    std::string encoded;
    append_record(&encoded, r);
    REQUIRE(used + encoded.size() <= bytes.size());
    std::memcpy(bytes.data() + used, encoded.data(), encoded.size());
    JournalReader reader(span(), used);
    JournalRecord decoded;
    reader.next(&decoded);
    REQUIRE(decoded.type == r.type);
    used += encoded.size();
    state->apply(decoded);
    return decoded.offset;
  }
};

// A replay of one live file named "q", records laid out back to back.
struct Replay {
  explicit Replay(ReplayOptions options = {}) : state(options, &findings) {
    state.begin_file(0, "q", file.span(), true);
  }
  // Applies `r` at the current offset and returns that offset.
  std::uint64_t apply(const JournalRecord& r) { return file.apply(&state, r); }
  std::string payload(const QueuedItem& item) const { return std::string(state.item_record(item).payload.as_chars()); }
  void apply_all(std::initializer_list<JournalRecord> records) {
    for (const JournalRecord& r : records) apply(r);
  }

  std::vector<std::string> queue() const {
    std::vector<std::string> out;
    for (const QueuedItem& item : state.queue()) out.push_back(payload(item));
    return out;
  }
  std::map<std::int32_t, std::string> open() const {
    std::map<std::int32_t, std::string> out;
    for (const auto& [xid, item] : state.open_transactions()) out.emplace(xid, payload(item));
    return out;
  }
  std::vector<std::string> codes() const {
    std::vector<std::string> out;
    for (const Finding& f : findings.findings()) out.push_back(f.code);
    return out;
  }

  TestFile file;
  FindingList findings;
  ReplayState state;
};

using Queue = std::vector<std::string>;
using Open = std::map<std::int32_t, std::string>;
using Codes = std::vector<std::string>;

}  // namespace

TEST_CASE("replay: adds append in FIFO order") {
  Replay r;
  r.apply_all({addx("a"), addx("bb"), item_record(RecordType::kAdd, "c"), add_xid(7, "d")});
  CHECK(r.queue() == Queue{"a", "bb", "c", "d"});
  CHECK(r.open().empty());
  CHECK(r.state.xid_counter() == 0);
  CHECK(r.findings.findings().empty());
  const auto& q = r.state.queue();
  CHECK(q[0].record_offset == 0);
  CHECK(q[1].record_offset == 22);
  CHECK(q[2].record_offset == 45);
  CHECK(q[1].payload_size == 2);
  // Each item reads back the record that added it.
  CHECK(r.state.item_record(q[2]).type == RecordType::kAdd);
  CHECK_FALSE(r.state.item_record(q[2]).has_add_time);
  CHECK(r.state.item_record(q[0]).has_add_time);
  CHECK(r.state.item_record(q[0]).add_time_ms == 1700000000000LL);
  CHECK(r.state.item_record(q[3]).type == RecordType::kAddXid);
  CHECK(r.state.item_record(q[3]).xid == 7);  // ADD_XID's xid stays with the item, inert
  CHECK_FALSE(r.state.saw_broken_record());
}

TEST_CASE("replay: REMOVE pops the head") {
  Replay r;
  r.apply_all({addx("a"), addx("b"), addx("c"), remove()});
  CHECK(r.queue() == Queue{"b", "c"});
  r.apply(remove());
  CHECK(r.queue() == Queue{"c"});
  CHECK(r.findings.findings().empty());
}

TEST_CASE("replay: REMOVE on an empty queue is ignored with a warning") {
  Replay r;
  r.apply_all({addx("a"), remove()});
  const std::uint64_t at = r.apply(remove());
  CHECK(r.queue().empty());
  CHECK(r.open().empty());
  REQUIRE(r.codes() == Codes{"remove_on_empty_queue"});
  const Finding& f = r.findings.findings()[0];
  CHECK(f.severity == Severity::kWarning);
  CHECK(f.offset == at);
  CHECK(f.file == "q");
  // The queue still works normally afterwards.
  r.apply_all({addx("b"), addx("c"), remove()});
  CHECK(r.queue() == Queue{"c"});
}

TEST_CASE("replay: REMOVE_TENTATIVE_XID moves the head into the open map") {
  Replay r;
  r.apply_all({addx("a"), addx("b"), addx("c"), rtx(5)});
  CHECK(r.queue() == Queue{"b", "c"});
  CHECK(r.open() == Open{{5, "a"}});
  CHECK(r.state.xid_counter() == 5);
  r.apply(rtx(2));  // the counter follows the record even when it goes down
  CHECK(r.queue() == Queue{"c"});
  CHECK(r.open() == Open{{2, "b"}, {5, "a"}});
  CHECK(r.state.xid_counter() == 2);
  CHECK(r.findings.findings().empty());
}

TEST_CASE("replay: REMOVE_TENTATIVE_XID on an empty queue still sets the xid counter") {
  Replay r;
  r.apply(rtx(9));
  CHECK(r.queue().empty());
  CHECK(r.open().empty());
  CHECK(r.state.xid_counter() == 9);
  r.apply_all({addx("a"), rtx(1), rtx(12)});
  CHECK(r.open() == Open{{1, "a"}});
  CHECK(r.state.xid_counter() == 12);
}

TEST_CASE("replay: UNREMOVE pushes the item back at the head") {
  Replay r;
  r.apply_all({addx("a"), addx("b"), addx("c"), rtx(1), rtx(2)});
  CHECK(r.queue() == Queue{"c"});
  r.apply(unremove(1));
  CHECK(r.queue() == Queue{"a", "c"});
  CHECK(r.open() == Open{{2, "b"}});
  r.apply(unremove(2));
  CHECK(r.queue() == Queue{"b", "a", "c"});
  CHECK(r.open().empty());
  CHECK(r.state.xid_counter() == 2);
  CHECK(r.findings.findings().empty());
}

TEST_CASE("replay: CONFIRM_REMOVE drops the open item") {
  Replay r;
  r.apply_all({addx("a"), addx("b"), rtx(1), confirm(1)});
  CHECK(r.queue() == Queue{"b"});
  CHECK(r.open().empty());
  CHECK(r.state.xid_counter() == 1);
  CHECK(r.findings.findings().empty());
}

TEST_CASE("replay: CONTINUE closes the xid and appends its item") {
  Replay r;
  r.apply_all({addx("a"), addx("b"), rtx(4), cont(4, "z")});
  CHECK(r.queue() == Queue{"b", "z"});
  CHECK(r.open().empty());
  CHECK(r.state.xid_counter() == 4);
  CHECK(r.findings.findings().empty());
  const QueuedItem& z = r.state.queue().back();
  CHECK(r.state.item_record(z).type == RecordType::kContinue);
  CHECK(z.record_offset == 22 + 22 + 5);
}

TEST_CASE("replay: unknown xid is a warning and a no-op") {
  Replay r;
  r.apply_all({addx("a"), addx("b"), rtx(1)});
  const std::uint64_t u = r.apply(unremove(7));
  const std::uint64_t c = r.apply(confirm(8));
  CHECK(r.queue() == Queue{"b"});
  CHECK(r.open() == Open{{1, "a"}});
  CHECK(r.state.xid_counter() == 1);
  REQUIRE(r.codes() == Codes{"unknown_xid", "unknown_xid"});
  CHECK(r.findings.findings()[0].offset == u);
  CHECK(r.findings.findings()[1].offset == c);
  CHECK(contains(r.findings.findings()[0].message, "7"));
  CHECK(contains(r.findings.findings()[1].message, "8"));
}

TEST_CASE("replay: CONTINUE of an unknown xid still appends its item") {
  Replay r;
  r.apply_all({addx("a"), rtx(1), cont(3, "n")});
  CHECK(r.queue() == Queue{"n"});
  CHECK(r.open() == Open{{1, "a"}});
  CHECK(r.codes() == Codes{"unknown_xid"});
}

TEST_CASE("replay: reopening an open xid loses the old item") {
  Replay r;
  const std::uint64_t a_at = r.apply(addx("a"));
  r.apply_all({addx("b"), addx("c"), rtx(3)});
  const std::uint64_t at = r.apply(rtx(3));
  CHECK(r.queue() == Queue{"c"});
  CHECK(r.open() == Open{{3, "b"}});
  CHECK(r.state.xid_counter() == 3);
  REQUIRE(r.codes() == Codes{"xid_reopened"});
  const Finding& f = r.findings.findings()[0];
  CHECK(f.offset == at);
  CHECK(contains(f.message, "q:" + std::to_string(a_at)));  // names the lost item
  // Its loss is final: after a rollback only "b" and "c" remain.
  r.apply(unremove(3));
  CHECK(r.queue() == Queue{"b", "c"});
}

TEST_CASE("replay: SAVE_XID sets the xid counter") {
  Replay r;
  r.apply(save_xid(77));
  CHECK(r.state.xid_counter() == 77);
  r.apply(save_xid(-3));
  CHECK(r.state.xid_counter() == -3);
  CHECK(r.queue().empty());
  CHECK(r.open().empty());
  CHECK(r.findings.findings().empty());
}

TEST_CASE("replay: legacy REMOVE_TENTATIVE in 2.x mode files the item under xid 0") {
  Replay r;
  const std::uint64_t a_at = r.apply(addx("a"));
  const std::uint64_t b_at = r.apply(addx("b"));
  r.apply_all({addx("c"), save_xid(5), legacy_rt()});
  CHECK(r.queue() == Queue{"b", "c"});
  CHECK(r.open() == Open{{0, "a"}});
  CHECK(r.state.xid_counter() == 0);
  REQUIRE(r.codes() == Codes{"legacy_remove_tentative"});
  CHECK(contains(r.findings.findings()[0].message, "q:" + std::to_string(a_at)));

  const std::uint64_t at = r.apply(legacy_rt());
  CHECK(r.queue() == Queue{"c"});
  CHECK(r.open() == Open{{0, "b"}});
  CHECK(r.state.xid_counter() == 0);
  REQUIRE(r.codes() == Codes{"legacy_remove_tentative", "legacy_xid_collision"});
  const Finding& collision = r.findings.findings()[1];
  CHECK(collision.offset == at);
  CHECK(contains(collision.message, "q:" + std::to_string(a_at)));  // the lost item
  CHECK_FALSE(contains(collision.message, "q:" + std::to_string(b_at)));

  // A 1.x CONFIRM_REMOVE naming its implicit xid 1 misses.
  r.apply(confirm(1));
  CHECK(r.open() == Open{{0, "b"}});
  CHECK(r.codes().back() == "unknown_xid");
}

TEST_CASE("replay: legacy REMOVE_TENTATIVE with 1.x xids takes counter plus one") {
  ReplayOptions options;
  options.legacy_xids = true;
  Replay r(options);
  r.apply_all({addx("a"), addx("b"), addx("c"), addx("d"), legacy_rt()});
  CHECK(r.open() == Open{{1, "a"}});
  CHECK(r.state.xid_counter() == 1);
  r.apply(legacy_rt());
  CHECK(r.open() == Open{{1, "a"}, {2, "b"}});
  CHECK(r.state.xid_counter() == 2);
  // SAVE_XID resets the counter; the next id skips the open 2 and lands on 3.
  r.apply_all({save_xid(1), legacy_rt()});
  CHECK(r.open() == Open{{1, "a"}, {2, "b"}, {3, "c"}});
  CHECK(r.state.xid_counter() == 3);
  CHECK(r.queue() == Queue{"d"});
  // 1.x UNREMOVE / CONFIRM_REMOVE name those ids and find them.
  r.apply_all({confirm(1), unremove(2)});
  CHECK(r.open() == Open{{3, "c"}});
  CHECK(r.queue() == Queue{"b", "d"});
  CHECK(r.findings.findings().empty());
}

TEST_CASE("replay: legacy xids skip 0 when the counter wraps") {
  ReplayOptions options;
  options.legacy_xids = true;
  Replay r(options);
  r.apply_all({save_xid(-1), addx("a"), legacy_rt()});
  CHECK(r.open() == Open{{1, "a"}});
  CHECK(r.state.xid_counter() == 1);

  Replay w(options);
  w.apply_all({save_xid(2147483647), addx("a"), legacy_rt()});
  // 32-bit signed increment wraps to the minimum, which is neither 0 nor open.
  CHECK(w.open() == Open{{INT32_MIN, "a"}});
}

TEST_CASE("replay: after_restart puts open transactions first in ascending xid order") {
  // PersistentQueueSpec "recover a journal with open transactions".
  Replay r;
  r.apply_all({addx("three"), addx("one"), addx("five"), rtx(3), rtx(1)});
  CHECK(r.open() == Open{{1, "one"}, {3, "three"}});
  CHECK(r.queue() == Queue{"five"});
  const std::vector<QueuedItem> items = r.state.after_restart();
  std::vector<std::string> payloads;
  for (const QueuedItem& item : items) payloads.push_back(r.payload(item));
  CHECK(payloads == std::vector<std::string>{"one", "three", "five"});
  // Restart does not change the replay state itself.
  CHECK(r.queue() == Queue{"five"});
  CHECK(r.open().size() == 2);
}

TEST_CASE("replay: after_restart with the spec's 1-3-5 journal") {
  Replay r;
  r.apply_all({addx("one"), addx("two"), addx("three"), addx("four"), addx("five"), rtx(1), rtx(2), rtx(3), rtx(4),
               confirm(2), confirm(4)});
  std::vector<std::string> payloads;
  for (const QueuedItem& item : r.state.after_restart()) payloads.push_back(r.payload(item));
  CHECK(payloads == std::vector<std::string>{"one", "three", "five"});
  CHECK(r.state.xid_counter() == 4);
}

TEST_CASE("replay: live_bytes counts ADDX plus REMOVE_TENTATIVE_XID per open item") {
  Replay r;
  CHECK(r.state.live_bytes() == 0);
  r.apply_all({addx("three"), addx("one"), addx("five"), rtx(3), rtx(1)});
  // open "one" (3) and "three" (5): (21+3)+5 + (21+5)+5; queued "five": 21+4
  CHECK(r.state.live_bytes() == 29 + 31 + 25);
  r.apply(confirm(1));
  CHECK(r.state.live_bytes() == 31 + 25);
  // A legacy ADD item is rewritten as an ADDX.
  r.apply(item_record(RecordType::kAdd, "xy"));
  CHECK(r.state.live_bytes() == 31 + 25 + 23);
}

TEST_CASE("replay: record counts") {
  Replay r;
  r.apply_all({addx("a"), addx("b"), rtx(1), confirm(1), remove(), remove()});
  CHECK(r.state.record_count(RecordType::kAddX) == 2);
  CHECK(r.state.record_count(RecordType::kRemove) == 2);
  CHECK(r.state.record_count(RecordType::kRemoveTentativeXid) == 1);
  CHECK(r.state.record_count(RecordType::kConfirmRemove) == 1);
  CHECK(r.state.record_count(RecordType::kContinue) == 0);
  CHECK(r.state.total_records() == 6);
}

TEST_CASE("replay: a BROKEN record in the live file is an error at its offset") {
  Replay r;
  r.apply_all({addx("a"), addx("b")});
  JournalRecord broken;
  broken.type = RecordType::kBroken;
  broken.offset = 44;
  broken.length = 3;
  broken.error = "truncated ADDX record: expected 19 bytes, found 2";
  r.state.apply(broken);
  CHECK(r.state.saw_broken_record());
  REQUIRE(r.codes() == Codes{"broken_record"});
  const Finding& f = r.findings.findings()[0];
  CHECK(f.severity == Severity::kError);
  CHECK(f.file == "q");
  CHECK(f.offset == 44);
  CHECK(contains(f.message, broken.error));
  CHECK(contains(f.message, "44"));
  CHECK_FALSE(contains(f.message, "live journal"));
  // What was decoded before stays applied.
  CHECK(r.queue() == Queue{"a", "b"});
  CHECK(r.state.total_records() == 2);
}

TEST_CASE("replay: a BROKEN record in an archived file says the live journal is truncated") {
  FindingList findings;
  ReplayState state({}, &findings);
  TestFile archived, live;
  state.begin_file(0, "dir/q.100", archived.span(), false);
  archived.apply(&state, addx("a"));
  JournalRecord broken;
  broken.type = RecordType::kBroken;
  broken.offset = 22;
  broken.length = 1;
  broken.error = "invalid opcode";
  state.apply(broken);
  CHECK(state.saw_broken_record());
  REQUIRE(findings.findings().size() == 1);
  const Finding& f = findings.findings()[0];
  CHECK(f.code == "broken_record");
  CHECK(f.severity == Severity::kError);
  CHECK(f.file == "dir/q.100");
  CHECK(f.offset == 22);
  CHECK(contains(f.message, "live journal"));

  // Replay carries on with the next file, state intact.
  state.begin_file(1, "dir/q", live.span(), true);
  live.apply(&state, remove());
  CHECK(state.queue().empty());
  CHECK(findings.findings().size() == 1);
}

TEST_CASE("replay: state carries across files and items remember their file") {
  FindingList findings;
  ReplayState state({}, &findings);
  TestFile archived, live;
  state.begin_file(0, "q.1", archived.span(), false);
  CHECK(archived.apply(&state, addx("a")) == 0);
  CHECK(archived.apply(&state, addx("b")) == 22);
  CHECK(archived.apply(&state, rtx(6)) == 44);
  JournalRecord eof;
  eof.type = RecordType::kEndOfFile;
  eof.offset = 49;
  state.apply(eof);
  state.begin_file(1, "q", live.span(), true);
  CHECK(live.apply(&state, confirm(6)) == 0);
  CHECK(live.apply(&state, unremove(6)) == 5);
  REQUIRE(state.queue().size() == 1);
  CHECK(state.item_record(state.queue()[0]).payload.as_chars() == "b");
  CHECK(state.queue()[0].file_index == 0);
  CHECK(state.queue()[0].record_offset == 22);
  CHECK(state.open_transactions().empty());
  CHECK(state.xid_counter() == 6);
  REQUIRE(findings.findings().size() == 1);
  CHECK(findings.findings()[0].code == "unknown_xid");
  CHECK(findings.findings()[0].file == "q");
  CHECK(findings.findings()[0].offset == 5);
  CHECK(state.total_records() == 5);  // END_OF_FILE is not a record
}

TEST_CASE("replay: after_restart orders xids as signed integers") {
  Replay r;
  r.apply_all({addx("pos"), addx("neg"), addx("tail"), rtx(3), rtx(-5)});
  std::vector<std::string> payloads;
  for (const QueuedItem& item : r.state.after_restart()) payloads.push_back(r.payload(item));
  CHECK(payloads == std::vector<std::string>{"neg", "pos", "tail"});
}
