// The libkestrel (Kestrel 3) codec, layout and replay against
// kestrel-format.md section 5. Every byte vector is written out by hand from
// the spec's tables (§5.1 to §5.3), never produced by qjt's encoder alone.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "finding.h"
#include "kestrel/journal_reader.h"
#include "kestrel/queue_directory.h"
#include "kestrel/replay_state.h"
#include "libkestrel/libkestrel_compaction.h"
#include "libkestrel/libkestrel_layout.h"
#include "libkestrel/libkestrel_reader.h"
#include "libkestrel/libkestrel_replay.h"
#include "libkestrel/libkestrel_writer.h"
#include "libkestrel/queue_converter.h"
#include "unit_helpers.h"

using namespace qjt;
using namespace qjt::libkestrel;
using qjt_test::Bytes;
using qjt_test::cat;
using qjt_test::contains;
using qjt_test::span;

namespace fs = std::filesystem;

namespace {

const Bytes kSeg = {0x27, 0x64, 0x26, 0x03};
const Bytes kMark = {0x26, 0x3C, 0x26, 0x03};

// PUT id 1, error count 0, add time 0x0102030405060708, no expiry, "hi":
// 86, size 02 00 00 00, errors 00 00 00 00, id 01 00.., add 08 07 .. 01, data.
const Bytes kPut1 = {0x86, 0x02, 0, 0,    0,    0,    0,    0,    0,    0x01, 0,    0,   0,  0,
                     0,    0,    0, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, 'h', 'i'};
// PUT id 2, error count 3, add time 1000 (e8 03), expiry 2000 (d0 07), "x".
const Bytes kPut2 = {0x88, 0x01, 0, 0, 0, 0x03, 0, 0, 0,    0x02, 0, 0, 0, 0, 0, 0, 0,
                     0xe8, 0x03, 0, 0, 0, 0,    0, 0, 0xd0, 0x07, 0, 0, 0, 0, 0, 0, 'x'};

std::vector<Record> read_all(const Bytes& bytes, FileKind kind) {
  Reader reader(span(bytes), kind);
  std::vector<Record> records;
  Record r;
  while (reader.next(&r)) records.push_back(r);
  return records;
}

Record last(const Bytes& bytes, FileKind kind) { return read_all(bytes, kind).back(); }

}  // namespace

TEST_CASE("libkestrel: file kinds are told by magic") {
  CHECK(file_kind(span(Bytes{})) == FileKind::kClassic);  // a 0-byte file: an empty classic journal
  CHECK(file_kind(span(kSeg)) == FileKind::kSegment);
  CHECK(file_kind(span(kMark)) == FileKind::kBookmark);
  CHECK(file_kind(span(Bytes{0x27, 0x64, 0x26})) == FileKind::kClassic);
  CHECK(file_kind(span(Bytes{0x02, 0x05, 0, 0, 0})) == FileKind::kClassic);
}

TEST_CASE("libkestrel: PUT with and without expiry") {
  const Bytes segment = cat({kSeg, kPut1, kPut2});  // records are views into it
  const auto records = read_all(segment, FileKind::kSegment);
  REQUIRE(records.size() == 3);
  CHECK(records[0].op == Op::kPut);
  CHECK(records[0].offset == 4);
  CHECK(records[0].length == 27);
  CHECK(records[0].id == 1);
  CHECK(records[0].error_count == 0);
  CHECK(records[0].add_time_ms == 0x0102030405060708);
  CHECK(!records[0].expiry_ms);
  CHECK(qjt_test::as_string(records[0].data) == "hi");
  CHECK(records[1].offset == 31);
  CHECK(records[1].id == 2);
  CHECK(records[1].error_count == 3);
  CHECK(records[1].add_time_ms == 1000);
  CHECK(records[1].expiry_ms == 2000);
  CHECK(qjt_test::as_string(records[1].data) == "x");
  CHECK(records[2].op == Op::kEndOfFile);
  CHECK(records[2].offset == 65);
}

TEST_CASE("libkestrel: READ_HEAD and READ_DONE, whose word is a byte count") {
  // The spec's own vector: 91 18 00 00 00 for three ids.
  const Bytes bookmark = cat({kMark,
                              {0x02, 7, 0, 0, 0, 0, 0, 0, 0},
                              {0x91, 0x18, 0, 0, 0},
                              {9, 0, 0, 0, 0, 0, 0, 0},
                              {11, 0, 0, 0, 0, 0, 0, 0},
                              {12, 0, 0, 0, 0, 0, 0, 0}});
  const auto records = read_all(bookmark, FileKind::kBookmark);
  REQUIRE(records.size() == 3);
  CHECK(records[0].op == Op::kReadHead);
  CHECK(records[0].id == 7);
  CHECK(records[1].op == Op::kReadDone);
  CHECK(records[1].offset == 13);
  REQUIRE(records[1].done_count() == 3);
  CHECK(records[1].done_id(0) == 9);
  CHECK(records[1].done_id(2) == 12);
  CHECK(records[2].op == Op::kEndOfFile);
  CHECK(bookmark_bytes(7, {9, 11, 12}) == std::string(bookmark.begin(), bookmark.end()));
}

TEST_CASE("libkestrel: the encoder writes the spec's bytes") {
  std::string out;
  append_put(&out, PutFields{1, 0, 0x0102030405060708, std::nullopt}, ByteSpan(std::string_view("hi")));
  append_put(&out, PutFields{2, 3, 1000, 2000}, ByteSpan(std::string_view("x")));
  const Bytes expected = cat({kPut1, kPut2});
  CHECK(out == std::string(expected.begin(), expected.end()));
}

TEST_CASE("libkestrel: unknown commands are skipped by their framing") {
  // Command 5, 1 header word; command 12, 1 word = 2 data bytes.
  const Bytes segment = cat({kSeg, {0x51, 1, 2, 3, 4}, {0xC1, 2, 0, 0, 0, 'a', 'b'}, kPut1});
  const auto records = read_all(segment, FileKind::kSegment);
  REQUIRE(records.size() == 4);
  CHECK(records[0].op == Op::kUnknown);
  CHECK(records[0].command == 5);
  CHECK(records[1].op == Op::kUnknown);
  CHECK(records[1].command == 12);
  CHECK(records[1].length == 7);
  CHECK(records[2].op == Op::kPut);
  CHECK(records[2].offset == 16);
}

TEST_CASE("libkestrel: a 0x00 command byte ends the data; non-zero bytes after it are reported") {
  Bytes padded = cat({kSeg, kPut1, Bytes(12, 0)});
  Reader clean(span(padded), FileKind::kSegment);
  Record r;
  while (clean.next(&r)) {
  }
  CHECK(r.op == Op::kEndOfFile);
  CHECK(r.offset == 31);
  CHECK(!clean.data_after_end());
  padded[40] = 0x86;
  Reader dirty(span(padded), FileKind::kSegment);
  while (dirty.next(&r)) {
  }
  CHECK(r.offset == 31);
  CHECK(dirty.data_after_end() == 40);
}

TEST_CASE("libkestrel: malformed records are BROKEN at their offset, as RecordReader refuses them") {
  auto broken = [](const Bytes& body) { return last(cat({kSeg, body}), FileKind::kSegment); };
  CHECK(contains(broken({0x86, 2, 0, 0}).error, "truncated header"));
  // 16 MiB + 1 announced: refused before anything else, whatever follows.
  const Record large =
      broken({0x86, 0x01, 0x00, 0x00, 0x01, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  CHECK(large.op == Op::kBroken);
  CHECK(large.offset == 4);
  CHECK(contains(large.error, "item too large"));
  const Record at_limit =
      broken({0x86, 0x00, 0x00, 0x00, 0x01, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  CHECK(contains(at_limit.error, "truncated entry"));
  CHECK(
      contains(broken({0x86, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}).error,
               "negative"));
  CHECK(contains(broken({0x85, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}).error, "corrupted PUT"));
  CHECK(contains(broken({0x80}).error, "no size word"));
  CHECK(contains(last(cat({kMark, {0x01, 1, 0, 0, 0}}), FileKind::kBookmark).error, "corrupted READ_HEAD"));
  CHECK(contains(last(cat({kMark, {0x91, 7, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7}}), FileKind::kBookmark).error,
                 "corrupted READ_DONE"));
  CHECK(contains(last(kMark, FileKind::kSegment).error, "expected the segment magic 27 64 26 03, found 26 3c 26 03"));
  CHECK(contains(last(Bytes{0x27}, FileKind::kSegment).error, "no header"));
}

TEST_CASE("libkestrel: every truncation of a small segment is a finding, never a crash") {
  const Bytes whole = cat({kSeg, kPut1, kPut2});
  const std::vector<std::size_t> boundaries = {4, 31, 65};
  for (std::size_t n = 0; n < whole.size(); ++n) {
    const Bytes prefix(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(n));
    const Record end = last(prefix, FileKind::kSegment);
    const bool boundary = std::find(boundaries.begin(), boundaries.end(), n) != boundaries.end();
    CAPTURE(n);
    CHECK(end.op == (boundary ? Op::kEndOfFile : Op::kBroken));
    if (!boundary) CHECK(end.offset == (n < 4 ? 0 : n < 31 ? 4 : 31));
  }
}

TEST_CASE("libkestrel: seeded byte flips never crash the reader or the replay") {
  const Bytes whole = cat({kSeg, kPut1, kPut2, {0x51, 1, 2, 3, 4}, kPut1});
  std::mt19937 rng(20261202);
  for (int round = 0; round < 2000; ++round) {
    Bytes flipped = whole;
    const int flips = 1 + static_cast<int>(rng() % 3);
    for (int i = 0; i < flips; ++i) flipped[rng() % flipped.size()] ^= static_cast<std::uint8_t>(1 + rng() % 255);
    const auto records = read_all(flipped, FileKind::kSegment);
    REQUIRE(!records.empty());
    CHECK((records.back().op == Op::kEndOfFile || records.back().op == Op::kBroken));
    FindingList findings;
    QueueReplay replay(&findings);
    replay.add_segment("s", span(flipped));
    replay.add_bookmark("b", "", span(flipped));
    replay.finish();
    for (const auto& reader : replay.readers())
      replay.for_each_pending(reader, [&](const ItemRef& item) { CHECK(replay.item_record(item).op == Op::kPut); });
  }
}

namespace {

Bytes put(std::uint8_t id) {
  return {0x86, 0x01, 0, 0, 0, 0, 0, 0, 0, id, 0, 0, 0,
          0,    0,    0, 0, 0, 0, 0, 0, 0, 0,  0, 0, static_cast<std::uint8_t>('a' + id)};
}

Bytes bookmark(std::uint8_t head, std::vector<std::uint8_t> done) {
  Bytes out =
      cat({kMark, {0x02, head, 0, 0, 0, 0, 0, 0, 0}, {0x91, static_cast<std::uint8_t>(8 * done.size()), 0, 0, 0}});
  for (std::uint8_t id : done) out = cat({out, {id, 0, 0, 0, 0, 0, 0, 0}});
  return out;
}

struct Replayed {
  FindingList findings;
  QueueReplay replay{&findings};
  std::vector<std::string> codes() const {
    std::vector<std::string> out;
    for (const Finding& f : findings.findings()) out.push_back(f.code);
    return out;
  }
  std::vector<std::int64_t> pending(std::size_t reader) const {
    std::vector<std::int64_t> ids;
    replay.for_each_pending(replay.readers().at(reader), [&](const ItemRef& i) { ids.push_back(i.id); });
    return ids;
  }
};

}  // namespace

TEST_CASE("libkestrel: readers are clamped on load as spec 5.6 says") {
  const Bytes s1 = cat({kSeg, put(3), put(4)}), s2 = cat({kSeg, put(5), put(6)});
  const Bytes beyond = bookmark(9, {}), before = bookmark(1, {4, 2, 6, 8}), dup = bookmark(3, {5, 5});
  Replayed r;
  r.replay.add_segment("s1", span(s1));
  r.replay.add_segment("s2", span(s2));
  r.replay.add_bookmark("q.read.a", "a", span(beyond));
  r.replay.add_bookmark("q.read.b", "b", span(before));
  r.replay.add_bookmark("q.read.c", "c", span(dup));
  r.replay.finish();
  REQUIRE(r.replay.readers().size() == 3);
  CHECK(r.replay.readers()[0].head == 6);  // min(9, tail 6)
  CHECK(r.pending(0).empty());
  CHECK(r.replay.readers()[1].head == 2);  // max(1, first 3 - 1)
  CHECK(r.replay.readers()[1].done == std::vector<std::int64_t>{4, 6});
  CHECK(r.pending(1) == std::vector<std::int64_t>{3, 5});
  CHECK(r.pending(2) == std::vector<std::int64_t>{4, 6});
  CHECK(r.codes() == std::vector<std::string>{"head_beyond_tail", "head_before_journal", "done_outside_journal",
                                              "duplicate_done_id"});
}

TEST_CASE("libkestrel: the default reader, created at the tail or dropped beside named ones") {
  const Bytes s = cat({kSeg, put(1), put(2)});
  Replayed none;
  none.replay.add_segment("s", span(s));
  none.replay.finish();
  REQUIRE(none.replay.readers().size() == 1);
  CHECK(none.replay.readers()[0].head == 2);
  CHECK(none.replay.readers()[0].path.empty());
  const Bytes d = bookmark(0, {}), n = bookmark(1, {});
  Replayed both;
  both.replay.add_segment("s", span(s));
  both.replay.add_bookmark("q.read.", "", span(d));
  both.replay.add_bookmark("q.read.n", "n", span(n));
  both.replay.finish();
  REQUIRE(both.replay.readers().size() == 1);
  CHECK(both.replay.readers()[0].name == "n");
  CHECK(both.pending(0) == std::vector<std::int64_t>{2});
  CHECK(both.codes() == std::vector<std::string>{"default_reader_dropped"});
}

TEST_CASE("libkestrel: ids out of order, gaps, empty segments and misplaced records") {
  const Bytes s1 = cat({kSeg, put(5), put(4), put(7)}), s2 = cat({kSeg, put(2)}), s3 = kSeg;
  const Bytes s4 = cat({kSeg, {0x02, 1, 0, 0, 0, 0, 0, 0, 0}, put(8)});
  Replayed r;
  r.replay.add_segment("s1", span(s1));
  r.replay.add_segment("s2", span(s2));
  r.replay.add_segment("s3", span(s3));
  r.replay.add_segment("s4", span(s4));
  r.replay.finish();
  CHECK(r.codes() == std::vector<std::string>{"id_not_increasing", "id_gap", "segment_out_of_order", "empty_segment",
                                              "misplaced_record", "id_gap"});
  CHECK(r.replay.records() == 6);
}

TEST_CASE("libkestrel: an id gap wider than INT64_MAX is counted, not overflowed") {
  Bytes first = put(1);
  first[16] = 0x80;  // id 0x8000000000000001: INT64_MIN + 1
  const Bytes s = cat({kSeg, first, put(2)});
  Replayed r;
  r.replay.add_segment("s", span(s));
  r.replay.finish();
  REQUIRE(r.codes() == std::vector<std::string>{"id_gap"});
  CHECK(r.findings.findings()[0].message.find(": 9223372036854775808 id(s) missing") != std::string::npos);
}

TEST_CASE("libkestrel: queue directories, kinds by magic, classic discovery unchanged") {
  qjt_test::TempDir dir("lk-layout");
  qjt_test::write_file(dir.path() / "jobs.20", cat({kSeg, put(2)}));
  qjt_test::write_file(dir.path() / "jobs.3", cat({kSeg, put(1)}));
  qjt_test::write_file(dir.path() / "jobs.read.w", bookmark(0, {}));
  qjt_test::write_file(dir.path() / "jobs.5", {});  // 0 bytes: a classic journal
  qjt_test::write_file(dir.path() / "jobs.read.x~~9", bookmark(0, {}));
  qjt_test::write_file(dir.path() / "jobs.3leet", cat({kSeg, put(1)}));
  qjt_test::write_file(dir.path() / "old", {0x01});
  FindingList findings;
  std::vector<QueueLayout> queues;
  std::string error;
  REQUIRE(discover_queues(dir.path().string(), &findings, &queues, &error));
  REQUIRE(queues.size() == 1);
  CHECK(queues[0].queue == "jobs");
  REQUIRE(queues[0].segments.size() == 2);
  CHECK(queues[0].segments[0].name == "jobs.3");
  CHECK(queues[0].segments[1].name == "jobs.20");
  REQUIRE(queues[0].bookmarks.size() == 1);
  CHECK(queues[0].bookmarks[0].reader == "w");
  std::vector<std::string> codes;
  for (const Finding& f : findings.findings()) codes.push_back(f.code + ":" + fs::path(f.file).filename().string());
  CHECK(codes == std::vector<std::string>{"unexpected_name:jobs.3leet", "not_libkestrel_file:jobs.5",
                                          "temp_file:jobs.read.x~~9"});
  // The classic view of the same directory sees only the classic files.
  FindingList classic_findings;
  std::vector<kestrel::QueueJournal> classic;
  const auto libkestrel_file = [](const std::string& path) { return file_kind_of(path) != FileKind::kClassic; };
  REQUIRE(kestrel::discover_queues(dir.path().string(), &classic_findings, &classic, &error, libkestrel_file));
  REQUIRE(classic.size() == 2);
  CHECK(classic[0].name == "jobs");
  REQUIRE(classic[0].files.size() == 1);
  CHECK(classic[0].files[0].name == "jobs.5");
  CHECK(classic[1].name == "old");
}

namespace {

Bytes le64(std::uint64_t v) {
  Bytes out;
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  return out;
}

Bytes read_back(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("libkestrel: compaction deletes the segments every reader passed, but the last of them") {
  const Bytes s1 = cat({kSeg, put(1), put(2)}), s2 = cat({kSeg, put(3), put(4)}), s3 = cat({kSeg, put(5), put(6)});
  auto plan = [&](std::vector<Bytes> bookmarks) {
    FindingList findings;
    QueueReplay replay(&findings);
    replay.add_segment("s1", span(s1));
    replay.add_segment("s2", span(s2));
    replay.add_segment("s3", span(s3));
    for (std::size_t i = 0; i < bookmarks.size(); ++i)
      replay.add_bookmark("b" + std::to_string(i), "r" + std::to_string(i), span(bookmarks[i]));
    replay.finish();
    return plan_compaction(replay, false, {}, {}).delete_segments;
  };
  using Paths = std::vector<std::string>;
  CHECK(plan({bookmark(3, {}), bookmark(4, {})}) == Paths{"s1"});  // minHead 4: s1, s2 qualify
  CHECK(plan({bookmark(6, {})}) == Paths{"s1", "s2"});             // minHead = tail 6
  CHECK(plan({}) == Paths{"s1", "s2"});                            // default reader at the tail
  CHECK(plan({bookmark(0, {}), bookmark(6, {})}).empty());         // minHead 1: only s1, the last
  CHECK(plan({bookmark(2, {4})}) == Paths{"s1"});                  // minHead 3: s1 and s2 (first id 3)
}

TEST_CASE("libkestrel: compaction rewrites a bookmark in its canonical form only when it differs") {
  const Bytes s = cat({kSeg, put(1), put(2), put(3)});
  const Bytes canonical = bookmark(1, {3}), messy = bookmark(1, {9, 3, 1});
  FindingList findings;
  QueueReplay replay(&findings);
  replay.add_segment("s", span(s));
  replay.add_bookmark("a", "a", span(canonical));
  replay.add_bookmark("b", "b", span(messy));
  replay.finish();
  const auto plan = plan_compaction(replay, true, {{"a", span(canonical)}, {"b", span(messy)}}, {});
  REQUIRE(plan.rewrite_bookmarks.size() == 1);
  CHECK(plan.rewrite_bookmarks[0].path == "b");
  CHECK(plan.rewrite_bookmarks[0].bytes == std::string(canonical.begin(), canonical.end()));
}

TEST_CASE("libkestrel: a classic queue becomes PUTs from id 1, open transactions first, and back") {
  // Classic (spec §1.2): ADDX "ab" added at 5; ADDX "c" added at 6,
  // expiring at 9; REMOVE_TENTATIVE_XID 1 opens a transaction on "ab".
  const Bytes classic = cat({{0x02, 18, 0, 0, 0},
                             le64(5),
                             le64(0),
                             {'a', 'b'},
                             {0x02, 17, 0, 0, 0},
                             le64(6),
                             le64(9),
                             {'c'},
                             {0x09, 1, 0, 0, 0}});
  FindingList findings;
  kestrel::ReplayState state({}, &findings);
  state.begin_file(0, "q", span(classic), true);
  kestrel::JournalReader reader(span(classic));
  kestrel::JournalRecord record;
  while (reader.next(&record)) state.apply(record);
  qjt_test::TempDir dir("lk-convert");
  std::string error;
  {
    auto writer = FileWriter::create((dir.path() / "q.1").string(), &error);
    REQUIRE(writer);
    REQUIRE(write_segment(state, 0, writer.get(), &error));
    REQUIRE(writer->sync(&error));
  }
  const Bytes segment = read_back(dir.path() / "q.1");
  CHECK(segment == cat({kSeg,
                        {0x86, 2, 0, 0, 0, 0, 0, 0, 0},
                        le64(1),
                        le64(5),
                        {'a', 'b'},
                        {0x88, 1, 0, 0, 0, 0, 0, 0, 0},
                        le64(2),
                        le64(6),
                        le64(9),
                        {'c'}}));
  CHECK(head_bookmark() == std::string("\x26\x3c\x26\x03\x02\0\0\0\0\0\0\0\0\x91\0\0\0\0", 18));
  QueueReplay replay(&findings);
  replay.add_segment("q.1", span(segment));
  const std::string head_bytes = head_bookmark();
  const Bytes head(head_bytes.begin(), head_bytes.end());
  replay.add_bookmark("q.read.", "", span(head));
  replay.finish();
  {
    auto writer = FileWriter::create((dir.path() / "back").string(), &error);
    REQUIRE(writer);
    REQUIRE(write_classic(replay, replay.readers().at(0), writer.get(), &error));
    REQUIRE(writer->sync(&error));
  }
  CHECK(read_back(dir.path() / "back") ==
        cat({{0x02, 18, 0, 0, 0}, le64(5), le64(0), {'a', 'b'}, {0x02, 17, 0, 0, 0}, le64(6), le64(9), {'c'}}));
}

// Found by tests/fuzz (libkestrel_segment): a PUT whose id is INT64_MIN made
// load() compute "first id - 1" with a signed overflow.
TEST_CASE("libkestrel: a first id of INT64_MIN clamps no head below it") {
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  std::string segment;
  append_magic(&segment, FileKind::kSegment);
  append_put(&segment, PutFields{kMin, 0, 0, std::nullopt}, ByteSpan(std::string_view("x")));
  const std::string mark = bookmark_bytes(0, {});
  Replayed r;
  r.replay.add_segment("q.1", ByteSpan(segment));
  r.replay.add_bookmark("q.read.", "", ByteSpan(mark));
  r.replay.finish();
  REQUIRE(r.replay.readers().size() == 1);
  CHECK(r.replay.readers()[0].head == kMin);  // min(0, tail INT64_MIN)
  CHECK(r.pending(0).empty());
  CHECK(r.codes() == std::vector<std::string>{"head_beyond_tail"});
}
