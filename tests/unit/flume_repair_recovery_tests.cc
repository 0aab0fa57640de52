// What a channel repair does to the queue Flume recovers (repair_recovery.h)
// and the rule that a damaged byte costs at most the event whose record
// holds it: regression tests for single flipped bytes, and the property
// over every byte of testdata/flume/channel's logs, planned and applied as
// `qjt repair --apply` (with and without --rebuild-checkpoint) does it.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "flume/channel_repair.h"
#include "flume/log_metadata.h"
#include "flume/log_reader.h"
#include "flume/log_writer.h"
#include "flume/repair_recovery.h"
#include "flume_test_channel.h"
#include "unit_helpers.h"

namespace {

namespace fs = std::filesystem;
using namespace qjt;
using namespace qjt::flume;
using qjt_test::flume::put_file;

using EventSet = std::set<EventPointer>;

// A copy of testdata/flume/channel (capacity 10; log-1 and log-2, the
// scenario in tests/support/make_flume_testdata.cc) in a temporary dir,
// put back as it was by restore().
class TestChannel {
 public:
  TestChannel() : tmp_("repair-recovery") {
    const fs::path from = fs::path(QJT_TESTDATA_DIR) / "flume" / "channel";
    for (const auto& entry : fs::recursive_directory_iterator(from)) {
      if (!entry.is_regular_file()) continue;
      const fs::path relative = fs::relative(entry.path(), from);
      pristine_[relative] = qjt_test::read_file(entry.path());
    }
    restore();
  }

  void restore() const {
    std::error_code ec;
    fs::remove_all(tmp_.path() / "c", ec);
    for (const auto& [relative, bytes] : pristine_) {
      fs::create_directories((tmp_.path() / "c" / relative).parent_path());
      put_file(tmp_.path() / "c" / relative, bytes);
    }
  }

  // The channel with byte `offset` of log-`file_id` XOR'ed with `mask`.
  void flip(std::int32_t file_id, std::size_t offset, std::uint8_t mask = 0xFF) const {
    std::string log = pristine(file_id);
    log[offset] = static_cast<char>(log[offset] ^ mask);
    put_file(log_path(file_id), log);
  }

  const std::string& pristine(std::int32_t file_id) const {
    return pristine_.at(fs::path("data" + std::to_string(file_id)) / ("log-" + std::to_string(file_id)));
  }
  fs::path log_path(std::int32_t file_id) const {
    return tmp_.path() / "c" / ("data" + std::to_string(file_id)) / ("log-" + std::to_string(file_id));
  }

  ChannelDirs dirs() const {
    ChannelDirs d;
    d.checkpoint_dir = (tmp_.path() / "c" / "checkpoint").string();
    d.data_dirs = {(tmp_.path() / "c" / "data1").string(), (tmp_.path() / "c" / "data2").string()};
    return d;
  }

 private:
  qjt_test::TempDir tmp_;
  std::map<fs::path, std::string> pristine_;
};

// The events Flume's take would deliver from the channel as it is.
EventSet recovered(const TestChannel& channel) {
  FindingList ignored;
  const ChannelLayout layout = discover_channel(channel.dirs(), &ignored, false);
  const RecoveryChange none = compare_recovery(layout, {}, ChannelRepairPlan{}, std::nullopt);
  return EventSet(none.now.begin(), none.now.end());
}

struct Outcome {
  bool applied = false;
  RecoveryChange recovery;
  std::vector<IntegrityChange> integrity;
};

// The plan's figures add up (repair_recovery.h): each event recovered now
// is kept, lost, dropped or consumed; each recovered after is kept,
// revived or reached.
void check_figures(const RecoveryChange& c) {
  CHECK(c.now.size() - c.lost.size() - c.dropped.size() - c.consumed.size() + c.revived.size() + c.reached.size() ==
        c.after.size());
}

// `qjt repair --apply [--rebuild-checkpoint]` without --force: the plan,
// refused when it loses or revives events, else carried out.
Outcome repair(const TestChannel& channel, bool rebuild) {
  FindingList findings;
  const ChannelLayout layout = discover_channel(channel.dirs(), &findings, false);
  ChannelLogs logs(layout.logs, {}, &findings);
  ChannelRepairRequest request;
  if (rebuild) {
    request.checkpoint = CheckpointAction::kRebuild;
    request.rebuild = RebuildOptions{10, std::nullopt, 0, false};
  }
  const ChannelRepairPlan plan = plan_channel_repair(layout, &logs, request, &findings);
  Outcome outcome;
  for (const FileChange& c : plan.changes)
    outcome.integrity.insert(outcome.integrity.end(), c.integrity.begin(), c.integrity.end());
  if (!plan.feasible || plan.changes.empty()) return outcome;
  outcome.recovery = compare_recovery(layout, {}, plan, std::nullopt);
  check_figures(outcome.recovery);
  if (!outcome.recovery.keeps_queue()) return outcome;
  std::string error;
  REQUIRE(check_still_as_planned(plan, &error));
  for (const FileChange& c : plan.changes) REQUIRE(apply_file_change(c, &error));
  outcome.applied = true;
  return outcome;
}

// The events a damaged byte `at` of log-`file_id` may cost: the event of
// the put whose record holds it, or those of the transaction whose commit
// record holds it (without its commit nothing says they were committed).
EventSet events_held(const TestChannel& channel, std::int32_t file_id, std::size_t at) {
  std::map<std::int64_t, EventSet> puts;  // by transaction
  std::optional<std::int64_t> commit_txid;
  EventSet held;
  LogRecord r;
  for (std::int32_t id : {1, 2}) {
    LogReader reader(ByteSpan(channel.pristine(id)), 3, 0);
    while (reader.next(&r)) {
      const EventPointer here{id, static_cast<std::int32_t>(r.offset)};
      const bool holds = id == file_id && at >= r.offset && at < r.offset + r.size;
      if (r.type == LogRecordType::kPut) puts[r.transaction_id].insert(here);
      if (holds && r.type == LogRecordType::kPut) held.insert(here);
      if (holds && r.type == LogRecordType::kCommit && r.commit_type == 1) commit_txid = r.transaction_id;
    }
  }
  if (commit_txid) held.insert(puts[*commit_txid].begin(), puts[*commit_txid].end());
  return held;
}

std::string describe(const EventSet& events) {
  std::string out;
  for (EventPointer p : events) out += " " + std::to_string(p.file_id) + ":" + std::to_string(p.offset);
  return out.empty() ? " none" : out;
}

// Every single-byte flip in [0, limit) of each log, repaired as qjt repair
// --apply does: whatever is carried out loses no event but those the
// damaged record holds (events_held), and brings back no event that Flume
// delivers neither from the undamaged channel nor from the damaged one.
// Returns one line per violation.
std::vector<std::string> violations(bool rebuild, std::size_t limit) {
  TestChannel channel;
  const EventSet undamaged = recovered(channel);
  std::vector<std::string> out;
  for (std::int32_t file_id : {1, 2}) {
    const std::string& log = channel.pristine(file_id);
    for (std::size_t at = 0; at < std::min(limit, log.size()); ++at) {
      channel.restore();
      channel.flip(file_id, at);
      const EventSet damaged = recovered(channel);
      const Outcome outcome = repair(channel, rebuild);
      if (!outcome.applied) continue;
      const EventSet after = recovered(channel);
      EventSet lost, revived;
      for (EventPointer p : undamaged)
        if (!after.count(p)) lost.insert(p);
      for (EventPointer p : after)
        if (!undamaged.count(p) && !damaged.count(p)) revived.insert(p);
      const EventSet held = events_held(channel, file_id, at);
      const bool lost_ok = std::includes(held.begin(), held.end(), lost.begin(), lost.end());
      if (!lost_ok || !revived.empty())
        out.push_back(fmt::format("log-{} byte {}{}: lost{}, revived{}", file_id, at, rebuild ? " (rebuild)" : "",
                                  describe(lost), describe(revived)));
    }
  }
  return out;
}

}  // namespace

TEST_CASE("repair recovery: every byte of the first 200 of each log flipped, kept checkpoint") {
  const std::vector<std::string> bad = violations(false, 200);
  for (const std::string& line : bad) MESSAGE(line);
  CHECK(bad.empty());
}

TEST_CASE("repair recovery: every byte of the first 200 of each log flipped, rebuilt checkpoint") {
  const std::vector<std::string> bad = violations(true, 200);
  for (const std::string& line : bad) MESSAGE(line);
  CHECK(bad.empty());
}

namespace {

std::string events_text(const std::vector<EventPointer>& events) {
  return describe(EventSet(events.begin(), events.end()));
}

// The single flip `at` of log-`file_id`, repaired with or without a rebuild.
struct FlipCase {
  std::int32_t file_id;
  std::size_t at;
  bool rebuild;
  bool applied;
  const char* planned;  // the integrity changes, "offset:kind ..."
  const char* lost;     // as compare_recovery names them
  const char* revived;
};

std::string planned_text(const std::vector<IntegrityChange>& changes) {
  std::string out;
  for (const IntegrityChange& c : changes)
    out += (out.empty() ? "" : " ") + std::to_string(c.offset) + ":" + integrity_change_kind_name(c.kind);
  return out;
}

}  // namespace

TEST_CASE("repair recovery: single flips that used to lose events (issue 14)") {
  // log-1: alpha's put @0, bravo's @64, their commit @113, txn 3's take of
  // alpha @149, then (after the checkpoint) echo @190 rolled back, txn 7's
  // take of charlie (log-2 @0) @269 and its commit @310, golf @346 never
  // committed. Flume recovers alpha, bravo, delta (2:96), foxtrot (2:181).
  const std::vector<FlipCase> cases = {
      // Byte 2 of alpha's length: it runs past the end, yet bravo decodes
      // after it: mid-log damage, not a torn tail (0x80 there emptied the
      // log). The rebuild, cut short at 0, loses bravo and revives charlie.
      {1, 2, false, false, "", " none", " none"},
      {1, 2, true, false, "", " 1:64", " 2:0"},
      {1, 3, false, false, "", " none", " none"},
      {1, 3, true, false, "", " 1:64", " 2:0"},
      // Inside alpha's header: it still decodes, under another transaction,
      // so the rebuild would drop the intact alpha.
      {1, 13, false, false, "", " none", " none"},
      {1, 13, true, false, "", " 1:0", " none"},
      // The last byte of bravo's record: bravo is neutralised, as it costs
      // only bravo, and the rebuild keeps everything else.
      {1, 112, false, true, "64:corrupt", " none", " none"},
      {1, 112, true, true, "64:corrupt", " none", " none"},
      // The commit of alpha and bravo decodes as something else: the
      // rebuild would lose both.
      {1, 126, true, false, "", " 1:0 1:64", " none"},
      // Inside golf's body (never committed): its CRC fails, it is
      // neutralised, the queue stays.
      {1, 386, false, true, "346:crc_mismatch", " none", " none"},
      {1, 386, true, true, "346:crc_mismatch", " none", " none"},
      // log-2: delta's put @96, its commit @145 (after the checkpoint),
      // foxtrot's put @181 and commit @247. The commit's OP byte turned
      // 0x80 ends log-2 for Flume, and a damaged length there cannot be
      // skipped: today's replay never reaches foxtrot, and a rebuilt
      // checkpoint newer than its commit would bury it for good.
      {2, 145, true, false, "", " 2:181", " none"},
      {2, 147, true, false, "", " 2:181", " none"},
  };
  TestChannel channel;
  const EventSet undamaged = recovered(channel);
  for (const FlipCase& tc : cases) {
    CAPTURE(tc.file_id);
    CAPTURE(tc.at);
    CAPTURE(tc.rebuild);
    channel.restore();
    channel.flip(tc.file_id, tc.at);
    const Outcome outcome = repair(channel, tc.rebuild);
    CHECK(outcome.applied == tc.applied);
    CHECK(planned_text(outcome.integrity) == tc.planned);
    std::vector<EventPointer> lost = outcome.recovery.lost;
    lost.insert(lost.end(), outcome.recovery.lost_unreached.begin(), outcome.recovery.lost_unreached.end());
    CHECK(events_text(lost) == tc.lost);
    CHECK(events_text(outcome.recovery.revived) == tc.revived);
    if (!outcome.applied) continue;
    EventSet expected = undamaged;
    for (const IntegrityChange& c : outcome.integrity)
      expected.erase(EventPointer{tc.file_id, static_cast<std::int32_t>(c.offset)});
    CHECK(describe(recovered(channel)) == describe(expected));
  }
}

TEST_CASE("repair recovery: ChannelLogs reads the planned marks (log-N.meta from an overlay, a V2 header previewed)") {
  const fs::path v2 = fs::path(QJT_TESTDATA_DIR) / "flume" / "v2";
  FindingList findings;
  const ChannelLayout v2_layout = discover_channel(
      ChannelDirs{(v2 / "checkpoint").string(), {(v2 / "data1").string(), (v2 / "data2").string()}, {}}, &findings,
      false);
  ChannelLogs v2_logs(v2_layout.logs, {}, &findings);
  REQUIRE(v2_logs.find(1) != nullptr);
  REQUIRE(v2_logs.find(1)->v2_header().has_value());
  CHECK(v2_logs.find(1)->v2_header()->checkpoint_write_order_id == 1000);
  std::string header;
  append_v2_log_header(&header, V2LogHeader{2, 1, 24, 5000});
  REQUIRE(v2_logs.preview_write(1, 0, ByteSpan(header)));
  CHECK(v2_logs.find(1)->v2_header()->checkpoint_write_order_id == 5000);
  CHECK(v2_logs.find(1)->replay_start(5000) == 24);

  TestChannel channel;
  const ChannelLayout layout = discover_channel(channel.dirs(), &findings, false);
  REQUIRE(layout.logs.size() == 2);
  LogMetadata meta;
  meta.log_file_id = 1;
  meta.checkpoint_position = 64;
  meta.checkpoint_write_order_id = 7000;
  const std::string meta_bytes = encode_log_metadata(meta);
  const FileOverlay overlay{{layout.logs[0].meta_path, &meta_bytes}};
  ChannelLogs logs(layout.logs, {}, &findings, &overlay);
  CHECK(logs.find(1)->metadata()->checkpoint_write_order_id == 7000);
  CHECK(logs.find(1)->replay_start(7000) == 64);
  CHECK(logs.find(2)->metadata()->checkpoint_write_order_id == 1000);  // not in the overlay: from the disk
  CHECK(findings.count(Severity::kError) == 0);
}
