// Tests for formats/flume/integrity_repair: V3 logs built with qjt's
// encoders in a temp channel, damaged the ways the spec (§5.1, §5.3, §7.2)
// and Flume's FileChannelIntegrityTool deal with, then planned, patched,
// applied, and read back with LogReader and replay_channel. Every expected
// offset is taken from where the writer put the record.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "durable_file.h"
#include "finding.h"
#include "flume/aes_ctr.h"
#include "flume/channel_layout.h"
#include "flume/channel_logs.h"
#include "flume/channel_replay.h"
#include "flume/checkpoint_file.h"
#include "flume/checkpoint_meta.h"
#include "flume/inflight_file.h"
#include "flume/integrity_repair.h"
#include "flume/log_metadata.h"
#include "flume/log_reader.h"
#include "flume/log_writer.h"
#include "flume_test_channel.h"
#include "unit_helpers.h"

using namespace qjt;
using namespace qjt::flume;
namespace fs = std::filesystem;
using qjt_test::flume::kFill;
using qjt_test::flume::LogFile;
using qjt_test::flume::put_file;

namespace {

// The shared LogFile, with the record offsets integrity plans speak in.
struct V3Log : LogFile {
  using LogFile::LogFile;
  std::uint64_t put(std::int64_t txid, std::int64_t woid, std::string_view body) {
    return static_cast<std::uint64_t>(LogFile::put(txid, woid, body).offset);
  }
  std::uint64_t commit(std::int64_t txid, std::int64_t woid) { return LogFile::commit(txid, woid, 1); }
  // log-N as given (records + `tail`) and its meta; a mark_woid marks a
  // checkpoint taken after every record.
  void write(const fs::path& dir, std::string_view tail = kFill,
             std::optional<LogFileEncryption> encryption = std::nullopt, std::int64_t mark_woid = 0) const {
    write_with_meta(dir, meta(mark_woid != 0 ? position() : 0, mark_woid, std::move(encryption)), tail);
  }
};

// A channel dir pair: an empty checkpoint dir (Flume replays every log from
// its start) and one data dir.
struct Channel {
  explicit Channel(std::string_view tag) : tmp(tag) {
    fs::create_directories(tmp.path() / "checkpoint");
    fs::create_directories(data());
  }
  fs::path data() const { return tmp.path() / "data"; }
  fs::path log_path(std::int32_t id) const { return data() / ("log-" + std::to_string(id)); }
  ChannelDirs dirs() const { return ChannelDirs{(tmp.path() / "checkpoint").string(), {data().string()}, {}}; }
  qjt_test::TempDir tmp;
};

struct Opened {
  FindingList findings;
  ChannelLayout layout;
  std::optional<ChannelLogs> logs;
};

std::unique_ptr<Opened> open_channel(const Channel& channel, const KeyRing& keys = {}) {
  auto o = std::make_unique<Opened>();
  o->layout = discover_channel(channel.dirs(), &o->findings, false);
  o->logs.emplace(o->layout.logs, keys, &o->findings);
  return o;
}

// The integrity plan for log-1 once `log` is written as the channel's.
IntegrityPlan plan_for(const Channel& channel, const V3Log& log, FindingList* findings) {
  log.write(channel.data());
  auto o = open_channel(channel);
  return plan_integrity_repair(*o->logs->find(1), {}, findings);
}

std::size_t count_code(const FindingList& findings, std::string_view code) {
  std::size_t n = 0;
  for (const Finding& f : findings.findings())
    if (f.code == code) ++n;
  return n;
}

// The record types LogReader meets reading the whole file, e.g.
// "put put noop commit end_of_data".
std::string record_types(const ChannelLog& log) {
  LogReader reader = log.reader(log.data_start());
  LogRecord r;
  std::string out;
  while (reader.next(&r)) out += (out.empty() ? "" : " ") + std::string(log_record_type_name(r.type));
  return out;
}

// The queue replay_channel recovers, as the bodies take would read.
std::string replayed_bodies(const Channel& channel, FindingList* findings) {
  auto o = open_channel(channel);
  ChannelReplay replay = replay_channel(o->layout, *o->logs, ChannelReplayOptions{1000}, findings);
  REQUIRE(replay.queue.has_value());
  std::string out;
  for_each_queued_event(*replay.queue, *o->logs, o->layout.checkpoint.dir, findings,
                        [&](std::size_t, EventPointer, const LogRecord& put) {
                          out += (out.empty() ? "" : ",") + std::string(put.body.as_chars());
                        });
  return out;
}

std::string offsets_of(const IntegrityPlan& plan) {
  std::string out;
  for (const IntegrityChange& c : plan.changes)
    out += (out.empty() ? "" : " ") + std::to_string(c.offset) + ":" + integrity_change_kind_name(c.kind);
  return out;
}

// The offsets at which two equally long byte strings differ.
std::vector<std::uint64_t> differing(std::string_view a, std::string_view b) {
  REQUIRE(a.size() == b.size());
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) out.push_back(i);
  return out;
}

void set_byte(std::string* bytes, std::uint64_t at, std::uint8_t value) {
  (*bytes)[static_cast<std::size_t>(at)] = static_cast<char>(value);
}

}  // namespace

TEST_CASE("flume integrity: a CRC mismatch, a decode error and a dropped put become NOOPs, nothing else changes") {
  Channel channel("integrity-basic");
  V3Log log(1);
  const auto a = log.put(10, 100, "event-A");
  const auto b = log.put(10, 101, "event-B");
  const auto c = log.put(10, 102, "event-C");
  const auto d = log.put(10, 103, "event-D");
  log.commit(10, 104);
  const auto e = log.put(11, 105, "event-E");
  log.commit(11, 106);
  // B: one body byte changed, so its stored CRC32 no longer matches.
  set_byte(&log.bytes, log.bytes.find("event-B") + 6, 'b');
  // C: its footer (the record's last byte, an empty message's length 0)
  // now claims 5 bytes the payload does not have: a protobuf decode error.
  set_byte(&log.bytes, d - 1, 0x05);
  log.write(channel.data());

  auto o = open_channel(channel);
  const ChannelLog* l = o->logs->find(1);
  REQUIRE(l != nullptr);
  FindingList findings;
  const IntegrityPlan plan = plan_integrity_repair(*l, {d}, &findings);
  CHECK(findings.findings().empty());
  CHECK(plan.checked);
  CHECK(offsets_of(plan) ==
        std::to_string(b) + ":crc_mismatch " + std::to_string(c) + ":corrupt " + std::to_string(d) + ":dropped");
  for (const IntegrityChange& ch : plan.changes) {
    CHECK(ch.old_byte == 0x7F);
    CHECK(ch.new_byte == 0x00);
  }
  CHECK(plan.changes[0].reason.starts_with("CRC32 mismatch"));
  CHECK(qjt_test::contains(plan.changes[1].reason, "footer"));
  CHECK(plan.changes[2].reason == "dropped by request");
  CHECK(plan.records == 6);  // A, B, D, E and two commits decode; C does not
  CHECK(plan.puts == 4);

  // Byte-identical to the tool: 0x00 over each OP byte, nothing else.
  const std::string original(l->bytes().as_chars());
  const std::string patched = patched_bytes(l->bytes(), plan);
  CHECK(differing(original, patched) == std::vector<std::uint64_t>{b, c, d});
  for (std::uint64_t at : {b, c, d}) CHECK(patched[static_cast<std::size_t>(at)] == '\0');

  std::string error;
  REQUIRE(apply_integrity_plan(l->layout().path, plan, &error));
  CHECK(qjt_test::read_file(channel.log_path(1)) == patched);

  auto after = open_channel(channel);
  CHECK(record_types(*after->logs->find(1)) == "put noop noop noop commit put commit end_of_data");
  FindingList replay_findings;
  CHECK(replayed_bodies(channel, &replay_findings) == "event-A,event-E");
  CHECK(replay_findings.count(Severity::kError) == 0);
  (void)a;
  (void)e;

  // A second plan finds nothing left to do.
  FindingList again;
  CHECK(plan_integrity_repair(*after->logs->find(1), {}, &again).changes.empty());
  CHECK(again.findings().empty());
}

TEST_CASE("flume integrity: a torn tail is made to read as Flume reads it") {
  struct Case {
    const char* name;
    std::string tail;       // what follows B's OP byte offset instead of B and the fill
    std::uint8_t new_byte;  // the OP byte planned
    const char* types;      // LogReader's walk after the repair
  };
  V3Log probe(1);
  probe.put(20, 200, "event-B-is-long-enough");
  const std::string record_b = probe.bytes;
  const std::vector<Case> cases = {
      // Cut short, no fill (a copy or a file system without the
      // preallocation): the length runs past the end: 0x80, end of data.
      {"cut mid-payload", record_b.substr(0, 20), 0x80, "put commit end_of_data"},
      {"cut inside the length", record_b.substr(0, 3), 0x80, "put commit end_of_data"},
      // Only the OP byte reached the disk; the fill makes the length
      // 0x80808080, negative: 0x80.
      {"only the OP byte", std::string(1, '\x7F') + kFill, 0x80, "put commit end_of_data"},
      // Part of the payload reached the disk, the rest is fill: the length
      // stays in the file, the payload does not decode: 0x00 as the tool.
      {"payload into the fill", record_b.substr(0, 20) + kFill, 0x00, "put commit noop end_of_data"},
  };
  for (const Case& tc : cases) {
    CAPTURE(tc.name);
    Channel channel("integrity-torn");
    V3Log log(1);
    log.put(10, 100, "event-A");
    log.commit(10, 101);
    const std::uint64_t b = log.bytes.size();
    log.write(channel.data(), tc.tail);

    auto o = open_channel(channel);
    const ChannelLog* l = o->logs->find(1);
    REQUIRE(l != nullptr);
    FindingList findings;
    const IntegrityPlan plan = plan_integrity_repair(*l, {}, &findings);
    CHECK(findings.findings().empty());
    CHECK(offsets_of(plan) == std::to_string(b) + ":torn_record");
    REQUIRE(plan.changes.size() == 1);
    CHECK(plan.changes[0].old_byte == 0x7F);
    CHECK(plan.changes[0].new_byte == tc.new_byte);
    CHECK(plan.changes[0].reason.starts_with("torn record: "));
    const std::string original(l->bytes().as_chars());
    CHECK(differing(original, patched_bytes(l->bytes(), plan)) == std::vector<std::uint64_t>{b});

    std::string error;
    REQUIRE(apply_integrity_plan(l->layout().path, plan, &error));
    auto after = open_channel(channel);
    CHECK(record_types(*after->logs->find(1)) == tc.types);
    FindingList replay_findings;
    CHECK(replayed_bodies(channel, &replay_findings) == "event-A");
    CHECK(replay_findings.count(Severity::kError) == 0);
  }
}

TEST_CASE("flume integrity: a NOOP the tool left over a torn tail becomes end of data") {
  // Flume's tool writes 0x00 over a record whose length runs past the end;
  // Flume then skips to the end, qjt's reader calls it broken.
  Channel channel("integrity-old-noop");
  V3Log log(1);
  log.put(10, 100, "event-A");
  log.commit(10, 101);
  const std::uint64_t b = log.bytes.size();
  V3Log probe(1);
  probe.put(20, 200, "event-B-is-long-enough");
  std::string tail = probe.bytes.substr(0, 20);
  tail[0] = '\0';
  log.write(channel.data(), tail);
  auto o = open_channel(channel);
  FindingList findings;
  const IntegrityPlan plan = plan_integrity_repair(*o->logs->find(1), {}, &findings);
  REQUIRE(plan.changes.size() == 1);
  CHECK(plan.changes[0].offset == b);
  CHECK(plan.changes[0].old_byte == 0x00);
  CHECK(plan.changes[0].new_byte == 0x80);
}

TEST_CASE("flume integrity: a corrupt record right after an existing NOOP is neutralised itself") {
  Channel channel("integrity-after-noop");
  V3Log log(1);
  const auto a = log.put(10, 100, "event-A");
  const auto b = log.put(10, 101, "event-B");
  log.commit(10, 102);
  set_byte(&log.bytes, a, 0x00);                             // an earlier run's NOOP
  set_byte(&log.bytes, log.bytes.find("event-B") + 6, 'b');  // CRC mismatch
  log.write(channel.data());
  auto o = open_channel(channel);
  FindingList findings;
  const IntegrityPlan plan = plan_integrity_repair(*o->logs->find(1), {}, &findings);
  CHECK(offsets_of(plan) == std::to_string(b) + ":crc_mismatch");
  CHECK(plan.noops == 1);
}

TEST_CASE("flume integrity: drop requests that name no put are findings, not changes") {
  Channel channel("integrity-drops");
  V3Log log(1);
  const auto a = log.put(10, 100, "event-A");
  const auto b = log.put(10, 101, "event-B");
  const auto commit = log.commit(10, 102);
  set_byte(&log.bytes, b, 0x00);  // already a NOOP
  log.write(channel.data());
  auto o = open_channel(channel);
  FindingList findings;
  const IntegrityPlan plan = plan_integrity_repair(*o->logs->find(1), {a + 1, b, commit}, &findings);
  CHECK(plan.changes.empty());
  CHECK(count_code(findings, "integrity_drop_not_a_put") == 2);  // a + 1 and the commit
  CHECK(count_code(findings, "integrity_drop_noop") == 1);
  CHECK(findings.count(Severity::kError) == 2);
}

TEST_CASE("flume integrity: lost framing mid-file stops the walk with a finding") {
  Channel channel("integrity-unrepairable");
  V3Log log(1);
  log.put(10, 100, "event-A");
  const auto bad = log.put(10, 101, "event-B");
  const auto c = log.put(10, 102, "event-C");
  log.commit(10, 103);
  set_byte(&log.bytes, bad, 0x42);                           // not an OP byte
  set_byte(&log.bytes, log.bytes.find("event-C") + 6, 'c');  // never reached
  FindingList findings;
  const IntegrityPlan plan = plan_for(channel, log, &findings);
  CHECK(plan.changes.empty());
  REQUIRE(count_code(findings, "integrity_unrepairable") == 1);
  CHECK(findings.findings()[0].offset == bad);
  (void)c;

  // A negative length followed by data: the tool would read on at
  // offset + 5, inside the payload. Not repaired either.
  V3Log log2(1);
  log2.put(10, 100, "event-A");
  const auto neg = log2.put(10, 101, "event-B");
  log2.commit(10, 102);
  set_byte(&log2.bytes, neg + 1, 0xFF);
  FindingList findings2;
  CHECK(plan_for(channel, log2, &findings2).changes.empty());
  CHECK(count_code(findings2, "integrity_unrepairable") == 1);
}

TEST_CASE("flume integrity: a length damaged in mid-log is not a torn tail (issue 14)") {
  // The first record's length with byte 2 XOR 0xFF runs past the end, but
  // records that decode follow: a crash tears only the last record, so this
  // is damage in mid-log. Taken for a torn tail, 0x80 there would end the
  // log at byte 0 and lose every event after it.
  Channel channel("integrity-length-mid-log");
  V3Log log(1);
  const auto a = log.put(10, 100, "event-A");
  log.put(10, 101, "event-B");
  log.commit(10, 102);
  set_byte(&log.bytes, a + 2, static_cast<std::uint8_t>(log.bytes[a + 2] ^ 0xFF));
  FindingList findings;
  const IntegrityPlan plan = plan_for(channel, log, &findings);
  CHECK(plan.changes.empty());
  REQUIRE(count_code(findings, "integrity_unrepairable") == 1);
  CHECK(findings.findings()[0].offset == a);

  // The same length at the end of the log, nothing decodable after it:
  // a torn tail, 0x80 as before.
  V3Log tail(1);
  tail.put(10, 100, "event-A");
  tail.commit(10, 101);
  const auto b = tail.put(11, 102, "event-B");
  set_byte(&tail.bytes, b + 2, static_cast<std::uint8_t>(tail.bytes[b + 2] ^ 0xFF));
  FindingList findings2;
  CHECK(offsets_of(plan_for(channel, tail, &findings2)) == std::to_string(b) + ":torn_record");
  CHECK(findings2.findings().empty());
}

TEST_CASE("flume integrity: a length off by one in mid-log is not skipped (issue 14)") {
  // B's length one short: its payload misses the footer, and skipping it
  // lands on B's last byte, not on C. A NOOP of that length would end the
  // log there for Flume and hide C and the commit; nothing is planned.
  Channel channel("integrity-length-off-by-one");
  V3Log log(1);
  log.put(10, 100, "event-A");
  const auto b = log.put(10, 101, "event-B");
  log.put(10, 102, "event-C");
  log.commit(10, 103);
  set_byte(&log.bytes, b + 4, static_cast<std::uint8_t>(log.bytes[b + 4] - 1));  // B is far shorter than 256
  FindingList findings;
  const IntegrityPlan plan = plan_for(channel, log, &findings);
  CHECK(plan.changes.empty());
  REQUIRE(count_code(findings, "integrity_unrepairable") == 1);
  CHECK(findings.findings()[0].offset == b);
}

TEST_CASE("flume integrity: a clean V2 log needs nothing; a broken one or a drop is not handled") {
  std::string clean;
  append_v2_log_header(&clean, V2LogHeader{2, 1, 0, 0});
  append_v2_put(&clean, 10, 100, {}, std::string_view("event-A"));
  append_v2_commit(&clean, 10, 101, 1);
  const std::uint64_t put_offset = kV2LogHeaderSize;
  std::string broken = clean;
  broken.append("\x7F\x00\x00", 3);  // an OP_RECORD cut short: no type, no ids

  struct Case {
    const char* name;
    const std::string* bytes;
    std::set<std::uint64_t> drops;
    bool checked;
  };
  for (const Case& c : {Case{"clean", &clean, {}, true}, Case{"broken", &broken, {}, false},
                        Case{"drop", &clean, {put_offset}, false}}) {
    CAPTURE(c.name);
    Channel channel(std::string("integrity-v2-") + c.name);
    put_file(channel.log_path(1), *c.bytes);
    auto o = open_channel(channel);
    const ChannelLog* l = o->logs->find(1);
    REQUIRE(l != nullptr);
    REQUIRE(l->version() == 2);
    FindingList findings;
    const IntegrityPlan plan = plan_integrity_repair(*l, c.drops, &findings);
    CHECK(plan.checked == c.checked);
    CHECK(plan.changes.empty());
    CHECK(count_code(findings, "integrity_unsupported") == (c.checked ? 0 : 1));
    CHECK(findings.findings().size() == (c.checked ? 0 : 1));
  }
}

TEST_CASE("flume integrity: encrypted logs are planned with their key, refused without it or with a wrong one") {
  const std::string key(16, '\x11'), wrong_key(16, '\x22'), iv = std::string(12, '\x05') + std::string("\0\0\0\1", 4);
  std::string error;
  auto cipher = AesCtr::create(ByteSpan(key), ByteSpan(iv), &error);
  REQUIRE(cipher.has_value());
  Channel channel("integrity-encrypted");
  V3Log log(1, &*cipher);
  log.put(10, 100, "event-A");
  const auto b = log.put(10, 101, "event-B");
  log.commit(10, 102);
  // CTR: a flipped ciphertext bit flips the same plaintext bit, in B's body
  // (the last 17 payload bytes are 7 body bytes, the checksum and footer).
  const auto b_end = log.bytes.size() - 36;
  set_byte(&log.bytes, b_end - 12, static_cast<std::uint8_t>(log.bytes[b_end - 12] ^ 0x01));
  log.write(channel.data(), kFill, LogFileEncryption{"AESCTRNOPADDING", "k", iv});

  {
    auto o = open_channel(channel, {{"k", key}});
    FindingList findings;
    const IntegrityPlan plan = plan_integrity_repair(*o->logs->find(1), {}, &findings);
    CHECK(findings.findings().empty());
    CHECK(offsets_of(plan) == std::to_string(b) + ":crc_mismatch");
  }
  {
    auto o = open_channel(channel);
    FindingList findings;
    const IntegrityPlan plan = plan_integrity_repair(*o->logs->find(1), {}, &findings);
    CHECK(plan.changes.empty());
    CHECK(count_code(findings, "integrity_unsupported") == 1);
  }
  {
    auto o = open_channel(channel, {{"k", wrong_key}});
    FindingList findings;
    const IntegrityPlan plan = plan_integrity_repair(*o->logs->find(1), {}, &findings);
    CHECK(plan.changes.empty());
    CHECK(count_code(findings, "integrity_suspect_key") == 1);
  }
}

TEST_CASE("flume integrity: apply refuses a log that changed since the plan") {
  Channel channel("integrity-refuse");
  V3Log log(1);
  const auto a = log.put(10, 100, "event-A");
  log.commit(10, 101);
  log.write(channel.data());
  auto o = open_channel(channel);
  FindingList findings;
  const IntegrityPlan plan = plan_integrity_repair(*o->logs->find(1), {a}, &findings);
  REQUIRE(plan.changes.size() == 1);
  const std::string before = qjt_test::read_file(channel.log_path(1));

  std::string changed = before;
  changed[static_cast<std::size_t>(a)] = '\0';
  put_file(channel.log_path(1), changed);
  std::string error;
  CHECK_FALSE(apply_integrity_plan(channel.log_path(1).string(), plan, &error));
  CHECK(qjt_test::contains(error, "expected bytes 7F at offset 0 as planned, found 00"));
  CHECK(qjt_test::read_file(channel.log_path(1)) == changed);

  put_file(channel.log_path(1), before + "x");
  CHECK_FALSE(apply_integrity_plan(channel.log_path(1).string(), plan, &error));
  CHECK(qjt_test::contains(error, "as planned"));
}

namespace {

struct Written {
  std::int32_t file_id;
  std::uint64_t offset;
  bool is_commit;
};

// A V3 checkpoint at write order id `woid` (after every record) whose queue
// holds every put, in write order, as the tool test's channel leaves it.
void write_full_checkpoint(const Channel& channel, const std::vector<Written>& records, std::int64_t woid) {
  const fs::path dir = channel.tmp.path() / "checkpoint";
  std::vector<EventPointer> queue;
  std::map<std::int32_t, std::int32_t> counts;
  for (const Written& w : records) {
    if (w.is_commit) continue;
    queue.push_back(EventPointer{w.file_id, static_cast<std::int32_t>(w.offset)});
    ++counts[w.file_id];
  }
  CheckpointImage image;
  image.version = 3;
  image.write_order_id = woid;
  image.marker = kCheckpointComplete;
  auto slots = place_in_ring(1000, 0, queue);
  REQUIRE(slots.has_value());
  image.slots = std::move(*slots);
  auto bytes = encode_checkpoint(image);
  REQUIRE(bytes.has_value());
  put_file(dir / "checkpoint", *bytes);
  CheckpointMeta meta;
  meta.write_order_id = woid;
  meta.queue_size = static_cast<std::int32_t>(queue.size());
  meta.queue_head = 0;
  for (const auto& [id, n] : counts) meta.active_logs.push_back(ActiveLogCount{id, n});
  put_file(dir / "checkpoint.meta", encode_checkpoint_meta(meta));
  put_file(dir / "inflightputs", encode_inflight({}));
  put_file(dir / "inflighttakes", encode_inflight({}));
}

// TestFileChannelIntegrityTool.doTestFixCorruptEvents (spec §7.2): 5
// transactions of 5 puts of 2000-byte bodies, maxFileSize 10000, so the
// records roll over several logs (Log.java rolls when position + L >
// maxFileSize, L the payload length). In each log whose first record is
// not a commit, a random int is written at that record's offset + 100 (in
// its body), and likewise in the second record unless it is a commit.
// After the repair the channel yields 25 - corrupted events.
// With a checkpoint (testFixCorruptRecordsWithCheckpoint) the queue still
// holds the corrupted puts' pointers; take skips the NOOPs.
void run_tool_test(bool with_checkpoint) {
  Channel channel("integrity-tool-test");
  constexpr std::uint64_t kMaxFileSize = 10000;
  std::vector<V3Log> logs;
  logs.emplace_back(1);
  std::vector<Written> records;
  std::int64_t woid = 1000;
  auto append = [&](bool commit, std::int64_t txid, std::string_view body) {
    std::string record;
    V3RecordWriter writer;
    REQUIRE((commit ? writer.commit(&record, txid, woid, 1) : writer.put(&record, txid, woid, {}, body)));
    ++woid;
    if (logs.back().bytes.size() + (record.size() - 5) > kMaxFileSize) logs.emplace_back(logs.back().id + 1);
    records.push_back(Written{logs.back().id, logs.back().bytes.size(), commit});
    logs.back().bytes += record;
  };
  std::string body(2000, '\x01');
  for (int t = 0; t < 5; ++t) {
    for (int i = 0; i < 5; ++i) {
      body[0] = static_cast<char>('A' + t * 5 + i);  // tells the events apart
      append(false, 100 + t, body);
    }
    append(true, 100 + t, "");
  }
  // Put records are 2047 bytes (L = 2042), commits 36 (L = 31): the logs
  // hold P P P P | P C P P P | P P C P P | P P P C P | P P P P C | P P P P |
  // P C, so 2+1+2+2+2+2+1 = 12 records are corrupted.
  REQUIRE(logs.size() == 7);

  std::mt19937 random(20240325);
  std::size_t corrupted = 0;
  std::map<std::int32_t, std::vector<std::uint64_t>> expected;  // file id -> corrupted offsets
  for (V3Log& log : logs) {
    std::vector<const Written*> in_file;
    for (const Written& w : records)
      if (w.file_id == log.id) in_file.push_back(&w);
    for (std::size_t k = 0; k < 2 && k < in_file.size() && !in_file[k]->is_commit; ++k) {
      const auto value = static_cast<std::uint32_t>(random());
      for (int byte = 0; byte < 4; ++byte)
        set_byte(&log.bytes, in_file[k]->offset + 100 + static_cast<std::uint64_t>(byte),
                 static_cast<std::uint8_t>(value >> (24 - 8 * byte)));  // writeInt: big-endian
      ++corrupted;
      expected[log.id].push_back(in_file[k]->offset);
    }
    log.write(channel.data(), kFill, std::nullopt, with_checkpoint ? woid : 0);
  }
  if (with_checkpoint) write_full_checkpoint(channel, records, woid);
  REQUIRE(corrupted == 12);

  auto o = open_channel(channel);
  for (const ChannelLog& l : o->logs->logs()) {
    CAPTURE(l.layout().path);
    FindingList findings;
    const IntegrityPlan plan = plan_integrity_repair(l, {}, &findings);
    CHECK(findings.findings().empty());
    std::vector<std::uint64_t> planned;
    for (const IntegrityChange& ch : plan.changes) {
      planned.push_back(ch.offset);
      CHECK(ch.kind == IntegrityChangeKind::kCrcMismatch);
    }
    CHECK(planned == expected[l.file_id()]);
    const std::string original(l.bytes().as_chars());
    CHECK(differing(original, patched_bytes(l.bytes(), plan)) == planned);
    std::string error;
    REQUIRE(apply_integrity_plan(l.layout().path, plan, &error));
  }

  auto after = open_channel(channel);
  for (const ChannelLog& l : after->logs->logs()) CHECK_FALSE(qjt_test::contains(record_types(l), "broken"));
  FindingList replay_findings;
  const std::string bodies = replayed_bodies(channel, &replay_findings);
  CHECK(replay_findings.count(Severity::kError) == 0);
  CHECK(count_code(replay_findings, "pointer_to_noop") == (with_checkpoint ? corrupted : 0));
  CHECK(static_cast<std::size_t>(std::count(bodies.begin(), bodies.end(), ',')) + 1 == 25 - corrupted);
}

}  // namespace

TEST_CASE("flume integrity: the tool's own test, 25 puts over several logs, corrupted ones removed") {
  run_tool_test(false);
}

TEST_CASE("flume integrity: the tool's own test with the checkpoint, take skips the NOOP'd puts") {
  run_tool_test(true);
}

TEST_CASE("flume integrity: apply replaces the file, so a hard-linked backup keeps the old bytes") {
  Channel channel("integrity-backup");
  V3Log log(1);
  const auto a = log.put(10, 100, "event-A");
  log.commit(10, 101);
  log.write(channel.data());
  const std::string path = channel.log_path(1).string();
  const std::string before = qjt_test::read_file(path);
  std::string error;
  REQUIRE(durable_copy(path, path + ".bak", &error));  // a hard link on one file system
  auto o = open_channel(channel);
  FindingList findings;
  const IntegrityPlan plan = plan_integrity_repair(*o->logs->find(1), {a}, &findings);
  REQUIRE(apply_integrity_plan(path, plan, &error));
  CHECK(qjt_test::read_file(path + ".bak") == before);
  CHECK(qjt_test::read_file(path) == patched_bytes(ByteSpan(before), plan));
  CHECK(qjt_test::read_file(path)[static_cast<std::size_t>(a)] == '\0');
}
