// Scenario tests for the replay of a whole Flume file channel: small
// channels built on disk with qjt's encoders (V3 logs + metas, checkpoint +
// checkpoint.meta + inflight files, backups), then discover_channel +
// ChannelLogs + replay_channel (+ for_each_queued_event,
// check_log_retention). Every expected queue, count and finding was derived
// by hand from the spec's rules (flume-format.md §1.3-1.5, §3, §4, §5.4,
// §6): the comments walk through each derivation.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "finding.h"
#include "flume/aes_ctr.h"
#include "flume/channel_layout.h"
#include "flume/channel_logs.h"
#include "flume/channel_replay.h"
#include "flume/checkpoint_file.h"
#include "flume/checkpoint_meta.h"
#include "flume/event_queue.h"
#include "flume/inflight_file.h"
#include "flume/log_metadata.h"
#include "flume/log_writer.h"
#include "flume/snappy_stream.h"
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

// A V3 checkpoint directory's four files.
struct CheckpointSpec {
  std::int64_t woid = 0;
  std::int64_t marker = kCheckpointComplete;
  std::optional<std::int64_t> meta_woid;  // when it should differ from woid
  std::size_t capacity = 10;
  std::size_t head = 8;
  std::vector<EventPointer> queue;
  std::vector<ActiveLogCount> counts;
  std::vector<InflightTransaction> inflight_puts, inflight_takes;
};

std::string checkpoint_bytes(const CheckpointSpec& spec) {
  CheckpointImage image;
  image.version = 3;
  image.write_order_id = spec.woid;
  image.marker = spec.marker;
  auto slots = place_in_ring(spec.capacity, spec.head, spec.queue);
  REQUIRE(slots.has_value());
  image.slots = std::move(*slots);
  auto bytes = encode_checkpoint(image);
  REQUIRE(bytes.has_value());
  return *bytes;
}

void write_checkpoint(const fs::path& dir, const CheckpointSpec& spec, bool snappy = false) {
  fs::create_directories(dir);
  const std::string checkpoint = checkpoint_bytes(spec);
  if (snappy)
    put_file(dir / "checkpoint.snappy", compress_snappy_stream(ByteSpan(checkpoint)));
  else
    put_file(dir / "checkpoint", checkpoint);
  CheckpointMeta meta;
  meta.write_order_id = spec.meta_woid.value_or(spec.woid);
  meta.queue_size = static_cast<std::int32_t>(spec.queue.size());
  meta.queue_head = static_cast<std::int32_t>(spec.head);
  meta.active_logs = spec.counts;
  put_file(dir / "checkpoint.meta", encode_checkpoint_meta(meta));
  put_file(dir / "inflightputs", encode_inflight(spec.inflight_puts));
  put_file(dir / "inflighttakes", encode_inflight(spec.inflight_takes));
}

// discover_channel + ChannelLogs + replay_channel, all findings in one list.
struct Run {
  FindingList findings;
  ChannelLayout layout;
  std::optional<ChannelLogs> logs;
  ChannelReplay replay;
};

std::unique_ptr<Run> replay(const ChannelDirs& dirs, std::optional<std::int64_t> capacity = 10,
                            const KeyRing& keys = {}) {
  auto run = std::make_unique<Run>();
  run->layout = discover_channel(dirs, &run->findings, false);
  run->logs.emplace(run->layout.logs, keys, &run->findings);
  run->replay = replay_channel(run->layout, *run->logs, ChannelReplayOptions{capacity}, &run->findings);
  for (const Finding& f : run->findings.findings()) MESSAGE(format_finding(f));
  return run;
}

std::string show(const std::vector<EventPointer>& pointers) {
  std::string out;
  for (EventPointer p : pointers)
    out += (out.empty() ? "" : " ") + std::to_string(p.file_id) + ":" + std::to_string(p.offset);
  return out;
}

std::string queue_of(const Run& run) {
  REQUIRE(run.replay.queue.has_value());
  std::vector<EventPointer> pointers;
  for (EventPointer p : *run.replay.queue) pointers.push_back(p);
  return show(pointers);
}

// The bodies for_each_queued_event visits, joined by ','.
std::string bodies_of(Run& run) {
  REQUIRE(run.replay.queue.has_value());
  std::string out;
  std::uint64_t calls = 0;
  const std::uint64_t visited =
      for_each_queued_event(*run.replay.queue, *run.logs, run.layout.checkpoint.dir, &run.findings,
                            [&](std::size_t, EventPointer, const LogRecord& put) {
                              ++calls;
                              out += (out.empty() ? "" : ",") + std::string(put.body.as_chars());
                            });
  CHECK(visited == calls);
  return out;
}

std::size_t count_code(const FindingList& findings, std::string_view code) {
  std::size_t n = 0;
  for (const Finding& f : findings.findings())
    if (f.code == code) ++n;
  return n;
}

const Finding* first(const FindingList& findings, std::string_view code) {
  for (const Finding& f : findings.findings())
    if (f.code == code) return &f;
  return nullptr;
}

}  // namespace

TEST_CASE("flume replay: full replay from two data dirs merges by write order id") {
  // No checkpoint: W = 0, every log read from offset 0, nothing skipped
  // (§6.3). Even txids in data1/log-1, odd ones in data2/log-2 (§5.5).
  Dirs d("flume-replay-full", 2);
  LogFile l1(1), l2(2);
  const EventPointer A = l1.put(10, 1, "A");
  const EventPointer G = l2.put(11, 2, "G");
  const EventPointer C = l2.put(11, 3, "C");
  l2.commit(11, 4, 1);  // queue: G C
  const EventPointer B = l1.put(10, 5, "B");
  l1.commit(10, 6, 1);  // G C A B (merge order: log-2's commit comes first)
  l2.put(13, 7, "X");
  l2.rollback(13, 8);  // X dropped
  const EventPointer E = l1.put(12, 9, "E");
  l1.commit(12, 10, 1);  // G C A B E
  l2.put(15, 11, "U");   // never committed: dropped
  l1.take(14, 12, C);
  l1.commit(14, 13, 2);  // C removed: G A B E
  const EventPointer F = l2.put(17, 14, "F");
  l2.commit(17, 15, 1);  // G A B E F
  l1.write(d.data[0]);
  l2.write(d.data[1]);

  auto run = replay(d.channel(), 100);
  CHECK(run->findings.count(Severity::kError) == 0);
  CHECK(count_code(run->findings, "no_checkpoint") == 1);
  CHECK(std::string(replay_source_name(run->replay.source)) == "logs");
  CHECK(run->replay.checkpoint_version == 0);
  CHECK(run->replay.checkpoint_write_order_id == 0);
  CHECK(queue_of(*run) == show({G, A, B, E, F}));
  CHECK(bodies_of(*run) == "G,A,B,E,F");
  const ReplayCounts& c = run->replay.counts;
  CHECK(c.read == 15);
  CHECK(c.puts == 8);
  CHECK(c.takes == 1);
  CHECK(c.rollbacks == 1);
  CHECK(c.commits == 5);
  CHECK(c.skipped == 0);
  CHECK(c.noops == 0);
  CHECK(c.pending_takes == 0);
  CHECK(c.uncommitted_takes == 0);
  CHECK(run->replay.max_write_order_id == 15);
  CHECK(run->replay.max_transaction_id == 17);
  CHECK(run->replay.queue->reference_count(1) == 3);  // A B E
  CHECK(run->replay.queue->reference_count(2) == 2);  // G F
}

TEST_CASE("flume replay: a checkpoint skips records at or below its write order id and starts at the meta position") {
  Dirs d("flume-replay-checkpoint", 2);
  LogFile l1(1), l2(2);
  // data2/log-2: no longer referenced, its meta never marked (0/0), so it
  // is read from 0 and both its records (woid <= W) are skipped.
  const EventPointer Z = l2.put(5, 90, "Z");
  l2.commit(5, 91, 1);
  // data1/log-1: everything before the mark is in the checkpoint.
  l1.take(4, 92, Z);
  l1.commit(4, 93, 2);
  const EventPointer A = l1.put(6, 94, "A");
  l1.commit(6, 95, 1);
  const EventPointer B = l1.put(8, 96, "B");
  l1.commit(8, 97, 1);
  const std::int64_t mark = l1.position();
  const EventPointer C = l1.put(10, 101, "C");
  l1.commit(10, 102, 1);
  l1.write(d.data[0], mark, 100);
  l2.write(d.data[1]);
  CheckpointSpec spec;
  spec.woid = 100;
  spec.head = 9;  // A in slot 9, B wraps to slot 0
  spec.queue = {A, B};
  spec.counts = {{1, 2}};
  write_checkpoint(d.cp, spec);

  auto run = replay(d.channel());
  CHECK(run->findings.findings().empty());
  CHECK(std::string(replay_source_name(run->replay.source)) == "checkpoint");
  CHECK(run->replay.checkpoint_version == 3);
  CHECK(run->replay.checkpoint_write_order_id == 100);
  CHECK(queue_of(*run) == show({A, B, C}));
  CHECK(bodies_of(*run) == "A,B,C");
  const ReplayCounts& c = run->replay.counts;
  CHECK(c.read == 4);     // log-2's two + log-1's two after the mark
  CHECK(c.skipped == 2);  // log-2's put and commit
  CHECK(c.puts == 1);
  CHECK(c.commits == 1);
  CHECK(c.takes == 0);
  CHECK(run->replay.max_write_order_id == 102);
  CHECK(run->replay.queue->reference_count(1) == 3);
}

TEST_CASE("flume replay: records before the meta's checkpoint position are never read") {
  // Whatever their write order id: the reader seeks past them (§6.2 step 2).
  Dirs d("flume-replay-position");
  LogFile l1(1);
  l1.put(1, 200, "before");
  l1.commit(1, 201, 1);
  const std::int64_t mark = l1.position();
  const EventPointer after = l1.put(2, 202, "after");
  l1.commit(2, 203, 1);
  l1.write(d.data[0], mark, 100);  // mark woid 100 <= W = 150: seek to the mark
  CheckpointSpec spec;
  spec.woid = 150;
  write_checkpoint(d.cp, spec);

  auto run = replay(d.channel());
  CHECK(run->findings.findings().empty());
  CHECK(queue_of(*run) == show({after}));
  CHECK(bodies_of(*run) == "after");
  CHECK(run->replay.counts.read == 2);
  CHECK(run->replay.counts.skipped == 0);

  SUBCASE("a mark newer than the checkpoint, without a backup mark, reads from 0") {
    // The meta says woid 200 > W = 150 and has no backup mark: seek to 0;
    // "before" (woid 200, 201 > 150) is then applied too.
    Dirs d2("flume-replay-position-0");
    LogFile m(1);
    const EventPointer b = m.put(1, 200, "before");
    m.commit(1, 201, 1);
    const std::int64_t at = m.position();
    const EventPointer a = m.put(2, 202, "after");
    m.commit(2, 203, 1);
    m.write(d2.data[0], at, 200);
    write_checkpoint(d2.cp, spec);
    auto run2 = replay(d2.channel());
    CHECK(queue_of(*run2) == show({b, a}));
    CHECK(run2->replay.counts.read == 4);
  }
}

TEST_CASE("flume replay: inflight puts and takes across the checkpoint") {
  Dirs d("flume-replay-inflight");
  LogFile l1(1);
  const EventPointer A = l1.put(1, 91, "A");
  l1.commit(1, 92, 1);
  const EventPointer B = l1.put(2, 93, "B");
  l1.commit(2, 94, 1);
  const EventPointer C = l1.put(3, 95, "C");
  l1.commit(3, 96, 1);
  const EventPointer D = l1.put(4, 97, "D");  // txn 4 open at the checkpoint
  l1.take(5, 98, A);                          // txn 5 open: removeHead took A
  l1.take(6, 99, B);                          // txn 6 open: removeHead took B
  const std::int64_t mark = l1.position();
  // Checkpoint W = 100: queue C; inflightputs {4: D}; inflighttakes {5: A, 6: B}.
  l1.commit(4, 101, 1);  // D added: C D
  l1.commit(6, 102, 2);  // txn 6's inflight take B: not in the queue -> pending (as in Flume)
  l1.take(7, 103, C);
  l1.commit(7, 104, 2);  // C removed: D
  // End: txn 5 never committed: A back at the head: A D.
  l1.write(d.data[0], mark, 100);
  CheckpointSpec spec;
  spec.woid = 100;
  spec.queue = {C};
  spec.counts = {{1, 1}};
  spec.inflight_puts = {InflightTransaction{4, {D}, 0}};
  spec.inflight_takes = {InflightTransaction{5, {A}, 0}, InflightTransaction{6, {B}, 0}};
  write_checkpoint(d.cp, spec);

  auto run = replay(d.channel());
  CHECK(run->findings.count(Severity::kError) == 0);
  CHECK(std::string(replay_source_name(run->replay.source)) == "checkpoint");
  CHECK(queue_of(*run) == show({A, D}));
  CHECK(bodies_of(*run) == "A,D");
  const ReplayCounts& c = run->replay.counts;
  CHECK(c.read == 4);
  CHECK(c.commits == 3);
  CHECK(c.takes == 1);
  CHECK(c.puts == 0);
  CHECK(c.skipped == 0);
  CHECK(c.uncommitted_takes == 1);
  // ReplayHandler adds a committed inflight take to the commit's pointers
  // and queue.remove() cannot find it (inflight takes are not in the
  // slots, §3); Flume files it as pending and logs "Pending takes exist",
  // but the event left the queue before the checkpoint: nothing is
  // duplicated, so qjt neither counts nor reports it.
  CHECK(c.pending_takes == 0);
  CHECK(count_code(run->findings, "pending_takes") == 0);
}

TEST_CASE("flume replay: a take committed before its put is pending until the put commits") {
  Dirs d("flume-replay-pending", 2);
  LogFile l1(1), l2(2);
  const EventPointer P = l2.put(1, 1, "P");
  l1.take(2, 2, P);
  l1.commit(2, 3, 2);  // P not queued yet: pending
  l2.commit(1, 4, 1);  // addTail P, then the pending take removes it
  const EventPointer ghost{2, 5000};
  l1.take(4, 5, ghost);
  l1.commit(4, 6, 2);  // no such put ever: pending to the end
  const EventPointer Q = l2.put(3, 7, "Q");
  l2.commit(3, 8, 1);
  l1.write(d.data[0]);
  l2.write(d.data[1]);

  auto run = replay(d.channel());
  CHECK(run->findings.count(Severity::kError) == 0);
  CHECK(queue_of(*run) == show({Q}));
  CHECK(bodies_of(*run) == "Q");
  CHECK(run->replay.counts.pending_takes == 1);
  CHECK(run->replay.counts.takes == 2);
  CHECK(run->replay.counts.commits == 4);
  REQUIRE(count_code(run->findings, "pending_takes") == 1);
  CHECK(first(run->findings, "pending_takes")->severity == Severity::kWarning);
  CHECK(run->replay.queue->reference_count(2) == 1);
}

namespace {

// data1/log-1: A, B committed before the checkpoint (W = 5, mark after
// woid 4), C committed after it.
struct AbcChannel {
  explicit AbcChannel(std::string_view tag) : d(tag), l1(1) {
    A = l1.put(1, 1, "A");
    l1.commit(1, 2, 1);
    B = l1.put(2, 3, "B");
    l1.commit(2, 4, 1);
    const std::int64_t mark = l1.position();
    C = l1.put(3, 6, "C");
    l1.commit(3, 7, 1);
    l1.write(d.data[0], mark, 5);
    spec.woid = 5;
    spec.head = 9;
    spec.queue = {A, B};
    spec.counts = {{1, 2}};
  }
  Dirs d;
  LogFile l1;
  EventPointer A, B, C;
  CheckpointSpec spec;
};

}  // namespace

TEST_CASE("flume replay: an incomplete checkpoint, with and without a usable backup") {
  AbcChannel ch("flume-replay-incomplete");
  CheckpointSpec incomplete = ch.spec;
  incomplete.marker = kCheckpointIncomplete;
  write_checkpoint(ch.d.cp, incomplete);
  const fs::path backup = ch.d.tmp.path() / "backup";

  SUBCASE("no backup: every log from its start") {
    auto run = replay(ch.d.channel());
    REQUIRE(count_code(run->findings, "checkpoint_incomplete") == 1);
    CHECK(first(run->findings, "checkpoint_incomplete")->offset == std::optional<std::uint64_t>(32));
    CHECK(count_code(run->findings, "checkpoint_unusable") == 1);
    CHECK(run->findings.count(Severity::kError) == 2);
    CHECK(std::string(replay_source_name(run->replay.source)) == "logs");
    CHECK(run->replay.checkpoint_write_order_id == 0);
    CHECK(queue_of(*run) == show({ch.A, ch.B, ch.C}));
    CHECK(run->replay.counts.read == 6);  // the meta's mark (woid 5 > 0) is not used
  }
  SUBCASE("a complete backup is restored") {
    write_checkpoint(backup, ch.spec);
    put_file(backup / "backupComplete", "");
    auto run = replay(ch.d.channel(backup));
    CHECK(count_code(run->findings, "checkpoint_incomplete") == 1);
    CHECK(count_code(run->findings, "checkpoint_unusable") == 1);
    CHECK(count_code(run->findings, "backup_unusable") == 0);
    CHECK(run->findings.count(Severity::kError) == 2);
    CHECK(std::string(replay_source_name(run->replay.source)) == "backup");
    CHECK(run->replay.checkpoint_write_order_id == 5);
    CHECK(queue_of(*run) == show({ch.A, ch.B, ch.C}));
    CHECK(bodies_of(*run) == "A,B,C");
    CHECK(run->replay.counts.read == 2);  // from the mark
  }
  SUBCASE("a complete backup with checkpoint.snappy is restored") {
    write_checkpoint(backup, ch.spec, true);
    put_file(backup / "backupComplete", "");
    auto run = replay(ch.d.channel(backup));
    CHECK(count_code(run->findings, "backup_unusable") == 0);
    CHECK(run->findings.count(Severity::kError) == 2);
    CHECK(std::string(replay_source_name(run->replay.source)) == "backup");
    CHECK(run->replay.checkpoint_write_order_id == 5);
    CHECK(queue_of(*run) == show({ch.A, ch.B, ch.C}));
    CHECK(run->replay.counts.read == 2);
  }
  SUBCASE("a backup without backupComplete is not used") {
    write_checkpoint(backup, ch.spec);
    auto run = replay(ch.d.channel(backup));
    CHECK(count_code(run->findings, "incomplete_backup") == 1);
    CHECK(count_code(run->findings, "checkpoint_unusable") == 1);
    CHECK(std::string(replay_source_name(run->replay.source)) == "logs");
    CHECK(queue_of(*run) == show({ch.A, ch.B, ch.C}));
    CHECK(run->replay.counts.read == 6);
  }
}

TEST_CASE("flume replay: checkpoint.meta with another write order id than the checkpoint is refused") {
  AbcChannel ch("flume-replay-meta-woid");
  CheckpointSpec spec = ch.spec;
  spec.meta_woid = 6;
  write_checkpoint(ch.d.cp, spec);
  auto run = replay(ch.d.channel());
  REQUIRE(count_code(run->findings, "checkpoint_meta_write_order_id") == 1);
  CHECK(first(run->findings, "checkpoint_meta_write_order_id")->file == (ch.d.cp / "checkpoint.meta").string());
  CHECK(count_code(run->findings, "checkpoint_unusable") == 1);
  CHECK(std::string(replay_source_name(run->replay.source)) == "logs");
  CHECK(queue_of(*run) == show({ch.A, ch.B, ch.C}));
}

TEST_CASE("flume replay: an inflight file with a bad checksum makes the checkpoint unusable") {
  AbcChannel ch("flume-replay-inflight-md5");
  write_checkpoint(ch.d.cp, ch.spec);
  SUBCASE("inflightputs") {
    std::string bytes = encode_inflight({InflightTransaction{9, {EventPointer{1, 0}}, 0}});
    bytes[0] = static_cast<char>(bytes[0] ^ 0x01);
    put_file(ch.d.cp / "inflightputs", bytes);
    auto run = replay(ch.d.channel());
    CHECK(count_code(run->findings, "inflight_checksum") == 1);
    CHECK(count_code(run->findings, "checkpoint_unusable") == 1);
    CHECK(std::string(replay_source_name(run->replay.source)) == "logs");
    CHECK(queue_of(*run) == show({ch.A, ch.B, ch.C}));
  }
  SUBCASE("inflighttakes") {
    std::string bytes = encode_inflight({});
    bytes[20] = '\x01';  // a payload byte: the MD5 no longer matches
    put_file(ch.d.cp / "inflighttakes", bytes);
    auto run = replay(ch.d.channel());
    CHECK(count_code(run->findings, "inflight_checksum") == 1);
    CHECK(count_code(run->findings, "checkpoint_unusable") == 1);
    CHECK(std::string(replay_source_name(run->replay.source)) == "logs");
  }
}

TEST_CASE("flume replay: a put whose CRC does not match ends that log's replay") {
  Dirs d("flume-replay-crc", 2);
  LogFile l1(1), l2(2);
  const EventPointer A = l1.put(2, 1, "A");
  l1.commit(2, 2, 1);
  const EventPointer B = l1.put(4, 3, "body-B");
  l1.commit(4, 4, 1);
  l1.put(6, 5, "C");
  l1.commit(6, 6, 1);
  const EventPointer D = l2.put(1, 7, "D");
  l2.commit(1, 8, 1);
  const auto body = l1.bytes.find("body-B");
  REQUIRE(body != std::string::npos);
  l1.bytes[body + 5] = 'X';
  l1.write(d.data[0]);
  l2.write(d.data[1]);

  auto run = replay(d.channel());
  REQUIRE(count_code(run->findings, "crc_mismatch") == 1);
  const Finding* crc = first(run->findings, "crc_mismatch");
  CHECK(crc->severity == Severity::kError);
  CHECK(crc->file == (d.data[0] / "log-1").string());
  CHECK(crc->offset == std::optional<std::uint64_t>(static_cast<std::uint64_t>(B.offset)));
  CHECK(run->findings.count(Severity::kError) == 1);
  CHECK(queue_of(*run) == show({A, D}));  // B, C and their commits are never read
  CHECK(run->replay.counts.read == 4);
}

TEST_CASE("flume replay: queued pointers to a NOOP'd put and to a missing log") {
  Dirs d("flume-replay-noop");
  LogFile l1(1);
  const EventPointer A = l1.put(1, 1, "A");
  const EventPointer B = l1.put(1, 2, "B");
  const EventPointer C = l1.put(1, 3, "C");
  l1.commit(1, 4, 1);
  l1.bytes[static_cast<std::size_t>(B.offset)] = '\x00';  // the integrity tool's NOOP
  l1.write(d.data[0], l1.position(), 10);
  const EventPointer M{7, 0};  // log-7 is in no data dir
  CheckpointSpec spec;
  spec.woid = 10;
  spec.queue = {A, B, M, C};
  spec.counts = {{1, 3}, {7, 1}};
  write_checkpoint(d.cp, spec);

  auto run = replay(d.channel());
  CHECK(run->findings.findings().empty());
  CHECK(std::string(replay_source_name(run->replay.source)) == "checkpoint");
  CHECK(queue_of(*run) == show({A, B, M, C}));
  CHECK(bodies_of(*run) == "A,C");
  REQUIRE(count_code(run->findings, "pointer_to_noop") == 1);
  const Finding* noop = first(run->findings, "pointer_to_noop");
  CHECK(noop->severity == Severity::kWarning);
  CHECK(noop->file == (d.data[0] / "log-1").string());
  CHECK(noop->offset == std::optional<std::uint64_t>(static_cast<std::uint64_t>(B.offset)));
  REQUIRE(count_code(run->findings, "dangling_pointer") == 1);
  CHECK(first(run->findings, "dangling_pointer")->severity == Severity::kError);
  CHECK(run->findings.count(Severity::kError) == 1);
}

TEST_CASE("flume replay: an encrypted log needs its key") {
  Dirs d("flume-replay-aes", 2);
  const std::string key = "0123456789abcdef";
  const std::string iv =
      std::string("\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc", 12) + std::string("\x00\x00\x00\x01", 4);
  std::string error;
  auto cipher = AesCtr::create(ByteSpan(key), ByteSpan(iv), &error);
  REQUIRE(cipher.has_value());
  LogFile l1(1, &*cipher), l2(2);
  const EventPointer S1 = l1.put(1, 1, "secret-1");
  l1.commit(1, 2, 1);
  const EventPointer S2 = l1.put(3, 3, "secret-2");
  l1.commit(3, 4, 1);
  const EventPointer P = l2.put(5, 5, "plain");
  l2.commit(5, 6, 1);
  CHECK(l1.bytes.find("secret-1") == std::string::npos);
  l1.write(d.data[0], 0, 0, LogFileEncryption{"AESCTRNOPADDING", "k1", iv});
  l2.write(d.data[1]);

  SUBCASE("with the key") {
    auto run = replay(d.channel(), 10, KeyRing{{"k1", key}});
    CHECK(run->findings.count(Severity::kError) == 0);
    CHECK(queue_of(*run) == show({S1, S2, P}));
    CHECK(bodies_of(*run) == "secret-1,secret-2,plain");
  }
  SUBCASE("without it") {
    auto run = replay(d.channel(), 10, KeyRing{{"other", key}});
    REQUIRE(count_code(run->findings, "missing_key") == 1);
    CHECK(first(run->findings, "missing_key")->file == (d.data[0] / "log-1").string());
    CHECK(queue_of(*run) == show({P}));
    CHECK(bodies_of(*run) == "plain");
    CHECK(run->replay.counts.read == 2);
  }
}

TEST_CASE("flume replay: a committed put that does not fit the capacity is queue_full") {
  Dirs d("flume-replay-full-queue");
  LogFile l1(1);
  const EventPointer A = l1.put(1, 1, "A");
  l1.commit(1, 2, 1);
  const EventPointer B = l1.put(2, 3, "B");
  l1.commit(2, 4, 1);
  l1.put(3, 5, "C");
  const std::size_t third = l1.commit(3, 6, 1);
  l1.write(d.data[0]);

  auto run = replay(d.channel(), 2);
  REQUIRE(count_code(run->findings, "queue_full") == 1);
  const Finding* full = first(run->findings, "queue_full");
  CHECK(full->severity == Severity::kError);
  CHECK(full->file == (d.data[0] / "log-1").string());
  CHECK(full->offset == std::optional<std::uint64_t>(third));
  CHECK(queue_of(*run) == show({A, B}));
  CHECK(run->findings.count(Severity::kError) == 1);
}

TEST_CASE("flume replay: check_log_retention finds a referenced log the counts omit") {
  Dirs d("flume-replay-retention");
  LogFile l1(1), l2(2), l3(3);
  const EventPointer A = l1.put(1, 1, "A");
  l1.commit(1, 2, 1);
  l2.put(2, 3, "X");
  l2.rollback(2, 4);
  const EventPointer E = l3.put(3, 5, "E");
  l3.commit(3, 6, 1);
  l1.write(d.data[0], l1.position(), 20);
  l2.write(d.data[0], l2.position(), 20);
  l3.write(d.data[0], l3.position(), 20);
  CheckpointSpec spec;
  spec.woid = 20;
  spec.queue = {A, E};

  SUBCASE("counts omit log-1: it is below the lowest counted id and not among the newest two") {
    spec.counts = {{3, 1}};
    write_checkpoint(d.cp, spec);
    auto run = replay(d.channel());
    // Loading the checkpoint already says the stored count of log-1 (0) is
    // below the queue's 1 reference into it; Flume still uses it.
    REQUIRE(count_code(run->findings, "active_log_count") == 1);
    CHECK(first(run->findings, "active_log_count")->file == (d.cp / "checkpoint.meta").string());
    CHECK(run->findings.findings().size() == 1);
    CHECK(std::string(replay_source_name(run->replay.source)) == "checkpoint");
    CHECK(queue_of(*run) == show({A, E}));
    check_log_retention(*run->logs, *run->replay.queue, &run->findings);
    // Candidates: log-1 and log-2 (after the post-replay roll the newest two
    // are log-3 and the new log); below the lowest counted id 3 both are
    // deleted, and only log-1 is still referenced.
    REQUIRE(count_code(run->findings, "log_would_be_deleted") == 1);
    const Finding* f = first(run->findings, "log_would_be_deleted");
    CHECK(f->severity == Severity::kError);
    CHECK(f->file == (d.data[0] / "log-1").string());
  }
  SUBCASE("two logs in the dir: the older is a candidate once Flume has rolled after the replay") {
    fs::remove(d.data[0] / "log-2");
    fs::remove(d.data[0] / "log-2.meta");
    spec.counts = {{3, 1}};
    write_checkpoint(d.cp, spec);
    auto run = replay(d.channel());
    check_log_retention(*run->logs, *run->replay.queue, &run->findings);
    REQUIRE(count_code(run->findings, "log_would_be_deleted") == 1);
    CHECK(first(run->findings, "log_would_be_deleted")->file == (d.data[0] / "log-1").string());
  }
  SUBCASE("one log per dir is never deleted") {
    // log-1 alone in data1, log-3 in data2: each is its dir's newest.
    const fs::path data2 = d.tmp.path() / "data2";
    fs::create_directories(data2);
    for (const char* name : {"log-2", "log-2.meta"}) fs::remove(d.data[0] / name);
    for (const char* name : {"log-3", "log-3.meta"}) fs::rename(d.data[0] / name, data2 / name);
    spec.counts = {{3, 1}};
    write_checkpoint(d.cp, spec);
    ChannelDirs dirs = d.channel();
    dirs.data_dirs.push_back(data2.string());
    auto run = replay(dirs);
    CHECK(queue_of(*run) == show({A, E}));
    check_log_retention(*run->logs, *run->replay.queue, &run->findings);
    CHECK(count_code(run->findings, "log_would_be_deleted") == 0);
  }
  SUBCASE("correct counts: nothing the queue needs is deleted") {
    spec.counts = {{1, 1}, {3, 1}};
    write_checkpoint(d.cp, spec);
    auto run = replay(d.channel());
    check_log_retention(*run->logs, *run->replay.queue, &run->findings);
    CHECK(run->findings.findings().empty());
  }
}

TEST_CASE("flume replay: the real V2 fixture channels") {
  SUBCASE("post-FLUME-1432, capacity 10: 2684..2691") {
    Dirs d("flume-replay-v2", 3);
    if (!lay_out_v2_fixture(d, "fileformat-v2-", true)) {
      MESSAGE("shared Flume V2 fixtures not found: skipped");
      return;
    }
    auto run = replay(d.channel(), 10);
    CHECK(run->findings.count(Severity::kError) == 0);
    CHECK(std::string(replay_source_name(run->replay.source)) == "checkpoint");
    CHECK(run->replay.checkpoint_version == 2);
    CHECK(run->replay.checkpoint_write_order_id == 1344302226747);
    CHECK(bodies_of(*run) == "2684,2685,2686,2687,2688,2689,2690,2691");
  }
  SUBCASE("pre-FLUME-1432, capacity 10000: rollback-0-0..rollback-49-0") {
    Dirs d("flume-replay-v2-pre", 3);
    if (!lay_out_v2_fixture(d, "fileformat-v2-pre-FLUME-1432-", true)) {
      MESSAGE("shared Flume V2 fixtures not found: skipped");
      return;
    }
    auto run = replay(d.channel(), 10000);
    CHECK(run->findings.count(Severity::kError) == 0);
    std::string expected;
    for (int i = 0; i < 50; ++i) expected += (i ? "," : "") + ("rollback-" + std::to_string(i) + "-0");
    CHECK(bodies_of(*run) == expected);
  }
}

TEST_CASE("flume replay: known records at or below the checkpoint are not read again") {
  // What a repair plan's second replay (the planned state, after a rebuilt
  // checkpoint above every record) is told by its first.
  Dirs d("flume-replay-known", 1);
  LogFile l1(1);
  const EventPointer A = l1.put(6, 94, "A");
  l1.commit(6, 95, 1);
  const EventPointer B = l1.put(8, 96, "B");
  l1.commit(8, 97, 1);
  l1.write(d.data[0]);
  CheckpointSpec spec;
  spec.woid = 100;
  spec.head = 0;
  spec.queue = {A, B};
  spec.counts = {{1, 2}};
  write_checkpoint(d.cp, spec);

  auto first = replay(d.channel());
  REQUIRE(first->replay.queue.has_value());
  CHECK(first->replay.counts.read == 4);
  ChannelReplayOptions::KnownRecords known;
  known.at_most = first->replay.max_write_order_id;
  for (const ChannelLog& log : first->logs->logs()) known.starts[log.file_id()] = log.replay_start(100);

  const auto pointers = [](const EventQueue& q) { return show(std::vector<EventPointer>(q.begin(), q.end())); };
  auto again = [&](const ChannelReplayOptions::KnownRecords& k) {
    FindingList findings;
    ChannelReplayOptions options{10};
    options.known_records = &k;
    return replay_channel(first->layout, *first->logs, options, &findings);
  };
  const ChannelReplay skipped = again(known);
  REQUIRE(skipped.queue.has_value());
  CHECK(skipped.counts.read == 0);  // not read: every record would have been skipped
  CHECK(pointers(*skipped.queue) == pointers(*first->replay.queue));

  SUBCASE("a record above the checkpoint: read") {
    known.at_most = 101;
    const ChannelReplay read = again(known);
    CHECK(read.counts.read == 4);
    CHECK(pointers(*read.queue) == pointers(*first->replay.queue));
  }
  SUBCASE("a log that starts elsewhere: read") {
    known.starts[1] = 5;
    CHECK(again(known).counts.read == 4);
  }
}
