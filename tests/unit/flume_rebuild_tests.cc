// Tests for rebuild_checkpoint, the files Flume's standalone
// CheckpointRebuilder writes (flume-format.md §7.1). Channels are built on
// disk with qjt's encoders; every expected queue, slot and byte below was
// derived by hand from Flume's rules (CheckpointRebuilder.rebuild, the
// FlumeEventQueue add rules of §1.3, writeCheckpointMetaData, and
// LogFile(V2|V3).MetaDataWriter.markCheckpoint); the comments walk through
// each derivation.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "finding.h"
#include "flume/channel_layout.h"
#include "flume/channel_logs.h"
#include "flume/channel_replay.h"
#include "flume/checkpoint_file.h"
#include "flume/checkpoint_meta.h"
#include "flume/checkpoint_rebuilder.h"
#include "flume/event_queue.h"
#include "flume/inflight_file.h"
#include "flume/log_metadata.h"
#include "flume/log_writer.h"
#include "flume_test_channel.h"
#include "unit_helpers.h"

using namespace qjt;
using namespace qjt::flume;
namespace fs = std::filesystem;
using qjt_test::flume::Dirs;
using qjt_test::flume::lay_out_v2_fixture;
using qjt_test::flume::LogFile;
using qjt_test::flume::put_file;

namespace {

// discover_channel + ChannelLogs, then the rebuild.
struct Rebuild {
  FindingList findings;
  ChannelLayout layout;
  std::optional<ChannelLogs> logs;
  std::optional<RebuiltCheckpoint> result;
};

std::unique_ptr<Rebuild> rebuild(const Dirs& d, const RebuildOptions& options) {
  auto run = std::make_unique<Rebuild>();
  run->layout = discover_channel(d.channel(), &run->findings, false);
  run->logs.emplace(run->layout.logs, KeyRing{}, &run->findings);
  run->result = rebuild_checkpoint(*run->logs, options, &run->findings);
  for (const Finding& f : run->findings.findings()) MESSAGE(format_finding(f));
  return run;
}

std::unique_ptr<ChannelReplay> replay(const Dirs& d, std::int64_t capacity, FindingList* findings) {
  const ChannelLayout layout = discover_channel(d.channel(), findings, false);
  const ChannelLogs logs(layout.logs, KeyRing{}, findings);
  return std::make_unique<ChannelReplay>(replay_channel(layout, logs, ChannelReplayOptions{capacity}, findings));
}

std::string show(const std::vector<EventPointer>& pointers) {
  std::string out;
  for (EventPointer p : pointers)
    out += (out.empty() ? "" : " ") + std::to_string(p.file_id) + ":" + std::to_string(p.offset);
  return out;
}

std::string show(const EventQueue& queue) {
  std::vector<EventPointer> pointers(queue.begin(), queue.end());
  return show(pointers);
}

std::size_t count_code(const FindingList& findings, std::string_view code) {
  return static_cast<std::size_t>(std::count_if(findings.findings().begin(), findings.findings().end(),
                                                [&](const Finding& f) { return f.code == code; }));
}

std::string checkpoint_bytes(std::int64_t woid, std::size_t capacity, std::size_t head,
                             const std::vector<EventPointer>& queue) {
  CheckpointImage image;
  image.version = 3;
  image.write_order_id = woid;
  auto slots = place_in_ring(capacity, head, queue);
  REQUIRE(slots.has_value());
  image.slots = std::move(*slots);
  auto bytes = encode_checkpoint(image);
  REQUIRE(bytes.has_value());
  return *bytes;
}

std::string hex(std::string_view bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

// The bodies the rebuilt queue points at, joined by ','.
std::string bodies(const ChannelLogs& logs, const std::vector<EventPointer>& queue) {
  std::string out;
  for (EventPointer p : queue) {
    LogRecord record;
    std::string why;
    REQUIRE(logs.read_pointer(p, &record, &why) == PointerTarget::kPut);
    out += (out.empty() ? "" : ",") + std::string(record.body.as_chars());
  }
  return out;
}

// Two data dirs, even txids in data1/log-1, odd ones in data2/log-2 (§5.5).
// The rebuilder reads log-1 whole, then log-2 whole.
struct TwoDirChannel {
  explicit TwoDirChannel(std::string_view tag) : d(tag, 2), l1(1), l2(2) {
    A = l1.put(10, 5, "A");
    l1.commit(10, 6, 1);     // A committed
    l1.take(12, 4, C_at());  // a take of C (in log-2), read before C's put:
    l1.commit(12, 9, 2);     //   pending, and it cancels C's put later
    B = l2.put(11, 1, "B");
    C = l2.put(11, 2, "C");
    l2.commit(11, 3, 1);  // B committed, C cancelled by the pending take
    l1.take(14, 10, B);
    l1.rollback(14, 11);  // txid 14 has no puts: its takes are dropped, B stays
    l2.put(13, 7, "X");
    l2.rollback(13, 8);   // X dropped
    l2.put(15, 12, "U");  // never committed: dropped
    D = l1.put(16, 13, "D");
    E = l2.put(17, 14, "E");
    l2.commit(17, 15, 1);  // E committed before D ...
    l1.commit(16, 16, 1);  // ... but D's put has the lower write order id
    l1.write(d.data[0]);
    l2.write(d.data[1], 40, 3);  // an old mark: (40, 3) becomes the backup
  }
  // C's pointer is known before it is written: log-2 starts with B (one
  // put of body "B", txid 11, woid 1), and C follows it.
  EventPointer C_at() {
    std::string probe;
    V3RecordWriter w;
    REQUIRE(w.put(&probe, 11, 1, {}, "B"));
    return EventPointer{2, static_cast<std::int32_t>(probe.size())};
  }

  Dirs d;
  LogFile l1, l2;
  EventPointer A, B, C, D, E;
};

}  // namespace

TEST_CASE("flume rebuild: java HashMap iteration order of file ids") {
  CHECK(java_hash_map_order({2, 1}) == std::vector<std::int32_t>{1, 2});
  // Table of 16: 17 and 1 share bucket 1 (insertion order), 16 is bucket 0.
  CHECK(java_hash_map_order({17, 1, 16, 2}) == std::vector<std::int32_t>{16, 17, 1, 2});
  // h ^ (h >>> 16): 65537 lands in bucket 0.
  CHECK(java_hash_map_order({1, 65537}) == std::vector<std::int32_t>{65537, 1});
  // 13 keys pass 3/4 of 16: the table is 32, so 20 and 4 no longer share a bucket.
  std::vector<std::int32_t> keys{20};
  for (std::int32_t k = 1; k <= 12; ++k) keys.push_back(k);
  std::vector<std::int32_t> expected{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 20};
  CHECK(java_hash_map_order(keys) == expected);
  CHECK(java_hash_map_order({20, 4}) == std::vector<std::int32_t>{20, 4});
}

TEST_CASE("flume rebuild: queue order by put write order id across two data dirs") {
  TwoDirChannel ch("flume-rebuild-order");
  CHECK(ch.C == ch.C_at());
  auto run = rebuild(ch.d, RebuildOptions{10, std::nullopt, 3, false});
  REQUIRE(run->result.has_value());
  const RebuiltCheckpoint& r = *run->result;
  CHECK(run->findings.count(Severity::kError) == 0);
  // Committed: A(5), B(1), D(13), E(14); C cancelled. By put woid: B A D E,
  // though E's transaction committed first (a full replay gives B A E D).
  CHECK(show(r.queue) == show({ch.B, ch.A, ch.D, ch.E}));
  CHECK(r.events == 4);
  CHECK(r.dropped_events == 0);
  // Highest woid read is 16 > now_ms 3: W = 17.
  CHECK(r.write_order_id == 17);
  CHECK(bodies(*run->logs, r.queue) == "B,A,D,E");

  SUBCASE("the clock wins when it is ahead") {
    auto later = rebuild(ch.d, RebuildOptions{10, std::nullopt, 1700000000000, false});
    REQUIRE(later->result.has_value());
    CHECK(later->result->write_order_id == 1700000000001);
  }
  SUBCASE("a full replay orders by commit instead") {
    FindingList findings;
    auto full = replay(ch.d, 10, &findings);
    REQUIRE(full->queue.has_value());
    CHECK(show(*full->queue) == show({ch.B, ch.A, ch.E, ch.D}));
  }
}

TEST_CASE("flume rebuild: equal write order ids keep the HashSet's order, not the commit order") {
  // FlumeEventPointer.hashCode = 31 * (31 + fileID) + offset; HashMap
  // bucket = (h ^ h >>> 16) & 15 in the initial table of 16.
  //   A = 1:0   h = 992   bucket 0
  //   B = 1:45  h = 1037  bucket 13  (a put of a 1-byte body, no headers, is 45 bytes)
  //   C = 2:0   h = 1023  bucket 15
  // All three puts carry woid 7, so the TreeSet keeps the HashSet's
  // iteration order A B C, though B's transaction committed before A's.
  Dirs d("flume-rebuild-ties", 2);
  LogFile l1(1), l2(2);
  const EventPointer A = l1.put(1, 7, "A");
  const EventPointer B = l1.put(2, 7, "B");
  CHECK(B.offset == 45);
  l1.commit(2, 8, 1);
  l1.commit(1, 9, 1);
  const EventPointer C = l2.put(3, 7, "C");
  l2.commit(3, 10, 1);
  l1.write(d.data[0]);
  l2.write(d.data[1]);
  auto run = rebuild(d, RebuildOptions{10, std::nullopt, 0, false});
  REQUIRE(run->result.has_value());
  CHECK(show(run->result->queue) == show({A, B, C}));
  CHECK(count_code(run->findings, "rebuild_tie_order") == 0);
}

TEST_CASE("flume rebuild: the exact checkpoint, meta, inflight and log-meta bytes") {
  TwoDirChannel ch("flume-rebuild-bytes");
  auto run = rebuild(ch.d, RebuildOptions{10, 1000, 3, false});
  REQUIRE(run->result.has_value());
  const RebuiltCheckpoint& r = *run->result;
  CHECK(r.write_order_id == 1000);
  // addTail into an empty head-0 queue of 10 (§1.3): B: size 1, index 0 <=
  // 0, head 9, slot 9. A: size 2, index 1 <= 1, head 8, B shifts to slot 8,
  // A to 9. D: size 3, index 2 > 1, slot (8+2)%10 = 0. E: slot 1.
  CHECK(r.checkpoint == checkpoint_bytes(1000, 10, 8, {ch.B, ch.A, ch.D, ch.E}));
  CHECK(r.checkpoint.size() == (10 + 1029) * 8);
  // Counts first added 2 (B) then 1 (A); HashMap order: 1, 2.
  CheckpointMeta meta;
  meta.write_order_id = 1000;
  meta.queue_size = 4;
  meta.queue_head = 8;
  meta.active_logs = {{1, 2}, {2, 2}};
  CHECK(hex(r.checkpoint_meta) == hex(encode_checkpoint_meta(meta)));
  // Version 3, woid 1000 = 0x3E8, size 4, head 8, {1:2}, {2:2}.
  CHECK(hex(r.checkpoint_meta) ==
        "30"  // 48 bytes follow
        "0d03000000"
        "11e803000000000000"  // version 3, writeOrderID 1000
        "1d04000000"
        "2508000000"                  // queueSize 4, queueHead 8
        "2a0a0d010000001502000000"    // activeLogs {1, 2}
        "2a0a0d020000001502000000");  // activeLogs {2, 2}
  const std::string empty_inflight = "4ae71336e44bf9bf79d2752e234818a5" + std::string(32, '0');
  CHECK(hex(r.inflight_puts) == empty_inflight);
  CHECK(hex(r.inflight_takes) == empty_inflight);
  // markCheckpoint(1000): position kept, old mark to the backup fields.
  REQUIRE(r.log_metas.size() == 2);
  CHECK(r.log_metas[0].first == 1);
  LogMetadata m1 = ch.l1.meta(0, 1000);
  m1.backup_checkpoint_position = 0;
  m1.backup_checkpoint_write_order_id = 0;
  CHECK(r.log_metas[0].second == encode_log_metadata(m1));
  CHECK(r.log_metas[1].first == 2);
  LogMetadata m2 = ch.l2.meta(40, 1000);
  m2.backup_checkpoint_position = 40;
  m2.backup_checkpoint_write_order_id = 3;
  CHECK(r.log_metas[1].second == encode_log_metadata(m2));
  CHECK(r.log_metas[1].second.size() == 47);
}

TEST_CASE("flume rebuild: replaying the rebuilt checkpoint gives the full replay's queue") {
  // Commits in put order here, so both orders agree. A take committed in
  // log-1 before its put's log is read: pending, it cancels Q.
  Dirs d("flume-rebuild-replay", 2);
  LogFile l1(1), l2(2);
  const EventPointer P = l2.put(1, 1, "P");
  const EventPointer Q = l2.put(1, 2, "Q");
  l2.commit(1, 3, 1);
  l1.take(2, 4, Q);
  l1.commit(2, 5, 2);
  const EventPointer R = l1.put(4, 6, "R");
  l1.commit(4, 7, 1);
  const EventPointer S = l2.put(3, 8, "S");
  l2.commit(3, 9, 1);
  l1.write(d.data[0]);
  l2.write(d.data[1]);

  FindingList full_findings;
  auto full = replay(d, 10, &full_findings);
  REQUIRE(full->queue.has_value());
  CHECK(show(*full->queue) == show({P, R, S}));

  auto run = rebuild(d, RebuildOptions{10, std::nullopt, 5, false});
  REQUIRE(run->result.has_value());
  const RebuiltCheckpoint& r = *run->result;
  CHECK(show(r.queue) == show({P, R, S}));
  put_file(d.cp / "checkpoint", r.checkpoint);
  put_file(d.cp / "checkpoint.meta", r.checkpoint_meta);
  put_file(d.cp / "inflightputs", r.inflight_puts);
  put_file(d.cp / "inflighttakes", r.inflight_takes);
  for (const auto& [id, bytes] : r.log_metas)
    put_file(d.data[id == 1 ? 0 : 1] / ("log-" + std::to_string(id) + ".meta"), bytes);

  FindingList findings;
  auto again = replay(d, 10, &findings);
  for (const Finding& f : findings.findings()) MESSAGE(format_finding(f));
  CHECK(findings.count(Severity::kError) == 0);
  CHECK(std::string(replay_source_name(again->source)) == "checkpoint");
  CHECK(again->checkpoint_write_order_id == r.write_order_id);
  CHECK(again->counts.skipped == again->counts.read);  // every record is at or below W
  REQUIRE(again->queue.has_value());
  CHECK(show(*again->queue) == show(*full->queue));
  CHECK(again->queue->slots() == full->queue->slots());
  CHECK(again->queue->head() == full->queue->head());
}

TEST_CASE("flume rebuild: failures") {
  Dirs d("flume-rebuild-fail", 1);
  LogFile l1(1);
  l1.put(1, 1, "A");
  l1.put(1, 2, "B");
  l1.put(1, 3, "C");
  l1.commit(1, 4, 1);

  SUBCASE("capacity too small: refused, or Flume's lossy result on request") {
    l1.write(d.data[0]);
    auto run = rebuild(d, RebuildOptions{2, std::nullopt, 0, false});
    CHECK_FALSE(run->result.has_value());
    CHECK(count_code(run->findings, "queue_full") == 1);
    auto lossy = rebuild(d, RebuildOptions{2, std::nullopt, 0, true});
    REQUIRE(lossy->result.has_value());
    CHECK(lossy->result->events == 2);
    CHECK(lossy->result->dropped_events == 1);
    CHECK(bodies(*lossy->logs, lossy->result->queue) == "A,B");
    CHECK(lossy->findings.count(Severity::kError) == 0);
  }
  SUBCASE("bad capacity") {
    l1.write(d.data[0]);
    auto run = rebuild(d, RebuildOptions{0, std::nullopt, 0, false});
    CHECK_FALSE(run->result.has_value());
    CHECK(count_code(run->findings, "bad_capacity") == 1);
  }
  SUBCASE("a record that cannot be decoded") {
    l1.bytes += std::string("\x7F\x00\x00\x00\x03\xFF\xFF\xFF", 8);
    l1.write(d.data[0]);
    auto run = rebuild(d, RebuildOptions{10, std::nullopt, 0, false});
    CHECK_FALSE(run->result.has_value());
    CHECK(count_code(run->findings, "broken_record") == 1);
  }
  SUBCASE("a put whose CRC fails") {
    const auto at = l1.bytes.rfind('C');
    l1.bytes[at] = 'Z';
    l1.write(d.data[0]);
    auto run = rebuild(d, RebuildOptions{10, std::nullopt, 0, false});
    CHECK_FALSE(run->result.has_value());
    CHECK(count_code(run->findings, "crc_mismatch") == 1);
  }
  SUBCASE("an encrypted log") {
    LogMetadata meta = l1.meta(0, 0);
    meta.encryption = LogFileEncryption{"AESCTRNOPADDING", "key-0", std::string(16, '\x01')};
    l1.write_with_meta(d.data[0], meta);
    auto run = rebuild(d, RebuildOptions{10, std::nullopt, 0, false});
    CHECK_FALSE(run->result.has_value());
    CHECK(count_code(run->findings, "rebuild_encrypted_log") == 1);
  }
  SUBCASE("a meta naming another file id") {
    LogMetadata meta = l1.meta(0, 0);
    meta.log_file_id = 5;
    l1.write_with_meta(d.data[0], meta);
    auto run = rebuild(d, RebuildOptions{10, std::nullopt, 0, false});
    CHECK_FALSE(run->result.has_value());
    CHECK(count_code(run->findings, "log_file_id_mismatch") >= 1);
  }
  SUBCASE("a byte that is no OP code ends the log quietly, as in Flume") {
    l1.bytes += '\x42';
    V3RecordWriter w;
    REQUIRE(w.put(&l1.bytes, 2, 5, {}, "lost"));
    REQUIRE(w.commit(&l1.bytes, 2, 6, 1));
    l1.write(d.data[0]);
    auto run = rebuild(d, RebuildOptions{10, std::nullopt, 0, false});
    REQUIRE(run->result.has_value());
    CHECK(count_code(run->findings, "rebuild_log_cut_short") == 1);
    CHECK(bodies(*run->logs, run->result->queue) == "A,B,C");
    CHECK(run->result->write_order_id == 5);  // 4 was the highest woid read
  }
}

TEST_CASE("flume rebuild: the real V2 fixture channels") {
  SUBCASE("post-FLUME-1432, capacity 10") {
    // The rebuilder ignores the checkpoint and reads every record from
    // offset 24. The logs hold the whole history (puts of "0".."2691" and
    // the takes of all but the last 8), so committed puts minus committed
    // takes are the 8 events Flume's own replay recovers, "2684".."2691",
    // whose puts came in that order. 8 addTails into 10 slots: head 8.
    Dirs d("flume-rebuild-v2", 3);
    if (!lay_out_v2_fixture(d, "fileformat-v2-", false)) {
      MESSAGE("shared Flume V2 fixtures not found: skipped");
      return;
    }
    auto run = rebuild(d, RebuildOptions{10, std::nullopt, 0, false});
    REQUIRE(run->result.has_value());
    const RebuiltCheckpoint& r = *run->result;
    CHECK(run->findings.count(Severity::kError) == 0);
    CHECK(bodies(*run->logs, r.queue) == "2684,2685,2686,2687,2688,2689,2690,2691");
    CHECK(r.write_order_id > 1344302226747);
    CHECK(r.checkpoint == checkpoint_bytes(r.write_order_id, 10, 8, r.queue));
    // V2 marks: header bytes 0..15 (version, id, position) kept, 16..23 = W.
    REQUIRE(r.log_metas.size() == 3);
    const std::int64_t positions[] = {2587, 2557, 2554};
    for (std::size_t i = 0; i < 3; ++i) {
      V2LogHeader header;
      header.file_id = static_cast<std::int32_t>(i + 1);
      header.checkpoint_position = positions[i];
      header.checkpoint_write_order_id = r.write_order_id;
      std::string expected;
      append_v2_log_header(&expected, header);
      CHECK(r.log_metas[i].first == static_cast<std::int32_t>(i + 1));
      CHECK(hex(r.log_metas[i].second) == hex(expected));
    }
  }
  SUBCASE("pre-FLUME-1432, capacity 10000: the 50 events, ties aside") {
    Dirs d("flume-rebuild-v2-pre", 3);
    if (!lay_out_v2_fixture(d, "fileformat-v2-pre-FLUME-1432-", false)) {
      MESSAGE("shared Flume V2 fixtures not found: skipped");
      return;
    }
    auto run = rebuild(d, RebuildOptions{10000, std::nullopt, 0, false});
    REQUIRE(run->result.has_value());
    CHECK(run->result->events == 50);
    std::vector<std::string> got;
    std::string all = bodies(*run->logs, run->result->queue);
    MESSAGE("pre-FLUME-1432 rebuilt order: " << all);
    std::size_t start = 0;
    while (start <= all.size()) {
      const auto comma = all.find(',', start);
      got.push_back(all.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    std::vector<std::string> expected;
    for (int i = 0; i < 50; ++i) expected.push_back("rollback-" + std::to_string(i) + "-0");
    std::sort(got.begin(), got.end());
    std::sort(expected.begin(), expected.end());
    CHECK(got == expected);
  }
}

TEST_CASE("flume rebuild: a transaction id committed again finds Flume's sets as Flume keeps them") {
  // Flume never clears an uncommitted set on commit. Txid 10 commits A, a
  // take removes A, then txid 10 puts B and commits again: its set still
  // holds A, so the second commit adds A back beside B. qjt lets go of a
  // set it committed and, when the id comes back, reads the logs again
  // keeping every set.
  Dirs d("flume-rebuild-txid-again", 1);
  LogFile l1(1);
  const EventPointer A = l1.put(10, 1, "A");
  l1.commit(10, 2, 1);
  l1.take(11, 3, A);
  l1.commit(11, 4, 2);
  const EventPointer B = l1.put(10, 5, "B");
  l1.commit(10, 6, 1);
  l1.write(d.data[0]);
  auto run = rebuild(d, RebuildOptions{10, std::nullopt, 3, false});
  REQUIRE(run->result.has_value());
  CHECK(show(run->result->queue) == show({A, B}));
  CHECK(bodies(*run->logs, run->result->queue) == "A,B");
}
