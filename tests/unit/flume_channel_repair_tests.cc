// The plan and application of a whole-channel repair (channel_repair.h),
// and the pieces under it: lib's byte patches and InputFile::preview_write.
// The repair's bytes themselves (integrity NOOPs, rebuilt checkpoints) are
// checked against the spec in flume_integrity_tests.cc and
// flume_rebuild_tests.cc; here: which files change, in which order, what
// the later steps see of the earlier ones, and refusals.
#include <doctest/doctest.h>

#include <filesystem>

#include "byte_patch.h"
#include "flume/channel_repair.h"
#include "flume/checkpoint_file.h"
#include "flume/checkpoint_meta.h"
#include "flume/inflight_file.h"
#include "flume_test_channel.h"
#include "input_file.h"
#include "unit_helpers.h"

namespace {

namespace fs = std::filesystem;
using namespace qjt;
using namespace qjt::flume;
using qjt_test::flume::Dirs;
using qjt_test::flume::LogFile;
using qjt_test::flume::put_file;

// The plan carried out in the three steps channel_repair.h names, as qjt
// repair runs them under guarded_replace (a backup unless `backup_dir` is
// empty).
bool apply_channel_repair(const ChannelRepairPlan& plan, const std::string& backup_dir,
                          std::vector<AppliedBackup>* backups, std::string* error) {
  if (!check_still_as_planned(plan, error)) return false;
  if (!backup_dir.empty() && !back_up_channel(plan, backup_dir, backups, error)) return false;
  for (const FileChange& c : plan.changes)
    if (!apply_file_change(c, error)) return false;
  return true;
}

std::string names_of(const ChannelRepairPlan& plan) {
  std::string out;
  for (const FileChange& c : plan.changes)
    out += std::string(file_change_kind_name(c.kind)) + " " + fs::path(c.path).filename().string() + "\n";
  return out;
}

std::size_t count_code(const FindingList& findings, std::string_view code) {
  std::size_t n = 0;
  for (const Finding& f : findings.findings()) n += f.code == code;
  return n;
}

// A V3 checkpoint dir holding an empty queue of capacity 4 at `woid`.
void write_empty_checkpoint(const fs::path& dir, std::int64_t woid) {
  CheckpointImage image;
  image.write_order_id = woid;
  image.slots.assign(4, 0);
  put_file(dir / "checkpoint", *encode_checkpoint(image));
  CheckpointMeta meta;
  meta.write_order_id = woid;
  put_file(dir / "checkpoint.meta", encode_checkpoint_meta(meta));
  put_file(dir / "inflightputs", encode_inflight({}));
  put_file(dir / "inflighttakes", encode_inflight({}));
}

}  // namespace

TEST_CASE("byte patches: pieces, skipped misfits, and the refusals of patch_file_atomically") {
  const std::string original = "0123456789";
  const std::vector<BytePatch> patches{{1, "1", "a"}, {4, "45", "bc"}, {9, "9", "z"}};
  CHECK(patched_bytes(ByteSpan(original), patches) == "0a23bc678z");
  // Out of the file, or overlapping the one before: skipped by the walk.
  CHECK(patched_bytes(ByteSpan(original), {{5, "5", "x"}, {5, "5", "y"}, {10, "", ""}, {11, "?", "!"}}) ==
        "01234x6789");

  qjt_test::TempDir tmp("byte-patch");
  const fs::path file = tmp.path() / "f";
  put_file(file, original);
  std::string error;
  CHECK_FALSE(patch_file_atomically(file.string(), 11, patches, &error));
  CHECK(qjt_test::contains(error, "expected 11 bytes as planned, found 10"));
  CHECK_FALSE(patch_file_atomically(file.string(), 10, {{2, "x", "y"}}, &error));
  CHECK(qjt_test::contains(error, "expected bytes 78 at offset 2 as planned, found 32"));
  CHECK(qjt_test::read_file(file) == original);
  REQUIRE(patch_file_atomically(file.string(), 10, patches, &error));
  CHECK(qjt_test::read_file(file) == "0a23bc678z");
}

TEST_CASE("InputFile::preview_write changes what this process reads, never the file") {
  qjt_test::TempDir tmp("preview-write");
  const fs::path file = tmp.path() / "f";
  const std::string content(10000, 'a');  // spans a page boundary
  put_file(file, content);
  std::string error;
  auto input = InputFile::open(file.string(), &error);
  REQUIRE(input);
  CHECK(input->preview_write(4094, ByteSpan(std::string_view("XYZW"))));
  CHECK(input->bytes().as_chars().substr(4093, 6) == "aXYZWa");
  CHECK_FALSE(input->preview_write(9998, ByteSpan(std::string_view("abc"))));
  CHECK(input->bytes().as_chars().substr(9997) == "aaa");
  CHECK(qjt_test::read_file(file) == content);
}

TEST_CASE("channel repair: the rebuild reads the logs as the integrity repair leaves them") {
  Dirs d("repair-rebuild");
  LogFile log(1);
  const EventPointer a = log.put(10, 100, "event-A");
  log.commit(10, 101, 1);
  const EventPointer b = log.put(11, 102, "event-B");
  log.commit(11, 103, 1);
  log.bytes[static_cast<std::size_t>(b.offset) + 40] ^= 0x01;  // inside B's body: its CRC fails
  log.write(d.data[0]);
  const std::string log_before = qjt_test::read_file(d.data[0] / "log-1");

  FindingList findings;
  const ChannelLayout layout = discover_channel(d.channel(), &findings, false);
  ChannelLogs logs(layout.logs, {}, &findings);
  {
    FindingList unpatched;
    RebuildOptions options{10, 500, 0, false};
    CHECK_FALSE(rebuild_checkpoint(logs, options, &unpatched).has_value());  // Flume's rebuilder fails on B
    CHECK(count_code(unpatched, "crc_mismatch") == 1);
  }
  ChannelRepairRequest request;
  request.checkpoint = CheckpointAction::kRebuild;
  request.rebuild = RebuildOptions{10, 500, 0, false};
  const ChannelRepairPlan plan = plan_channel_repair(layout, &logs, request, &findings);
  REQUIRE(findings.findings().size() == 1);
  CHECK(findings.findings()[0].code == "no_checkpoint");  // the layout's: the rebuild is why we are here
  REQUIRE(plan.feasible);
  CHECK(names_of(plan) ==
        "patch log-1\nwrite checkpoint\nwrite inflightputs\nwrite inflighttakes\nwrite checkpoint.meta\n"
        "write log-1.meta\n");
  REQUIRE(plan.changes[0].patches.size() == 1);
  CHECK(plan.changes[0].patches[0].offset == static_cast<std::uint64_t>(b.offset));
  CHECK(plan.changes[0].patches[0].before == "\x7F");
  CHECK(plan.changes[0].patches[0].after == std::string(1, '\0'));
  REQUIRE(plan.rebuilt.has_value());
  CHECK(plan.rebuilt->queue == std::vector<EventPointer>{a});
  CHECK(plan.rebuilt->write_order_id == 500);
  CHECK(qjt_test::read_file(d.data[0] / "log-1") == log_before);  // planning wrote nothing

  std::vector<AppliedBackup> backups;
  std::string error;
  REQUIRE(apply_channel_repair(plan, (d.tmp.path() / "bak").string(), &backups, &error));
  CHECK(backups.size() == 2);  // log-1 and log-1.meta: the checkpoint files are new
  CHECK(qjt_test::read_file(backups[0].copy) == log_before);
  CHECK(qjt_test::read_file(d.data[0] / "log-1") == patched_bytes(ByteSpan(log_before), plan.changes[0].patches));
  CHECK(qjt_test::read_file(d.cp / "checkpoint") == plan.changes[1].content);
  CHECK(qjt_test::read_file(d.tmp.path() / "bak" / "qjt-backup.txt") ==
        backups[0].copy + "\t" + (d.data[0] / "log-1").string() + "\n" + backups[1].copy + "\t" +
            (d.data[0] / "log-1.meta").string() + "\n");
}

TEST_CASE("channel repair: restoring the backup replaces checkpoint first, checkpoint.meta last, and empties the dir") {
  Dirs d("repair-restore");
  LogFile log(1);
  log.put(10, 100, "event-A");
  log.commit(10, 101, 1);
  log.write(d.data[0], log.position(), 101);
  write_empty_checkpoint(d.cp, 90);
  put_file(d.cp / "checkpoint-backup-123", "an upgrade's copy");
  put_file(d.cp / "in_use.lock", "");
  const fs::path backup = d.tmp.path() / "backup";
  fs::create_directories(backup);
  write_empty_checkpoint(backup, 80);
  put_file(backup / "backupComplete", "");
  put_file(backup / "in_use.lock", "");

  FindingList findings;
  const ChannelLayout layout = discover_channel(d.channel(backup), &findings, false);
  ChannelLogs logs(layout.logs, {}, &findings);
  ChannelRepairRequest request;
  request.checkpoint = CheckpointAction::kRestoreBackup;
  const ChannelRepairPlan plan = plan_channel_repair(layout, &logs, request, &findings);
  CHECK(findings.findings().empty());
  REQUIRE(plan.feasible);
  CHECK(names_of(plan) ==
        "write checkpoint\nwrite inflightputs\nwrite inflighttakes\nwrite checkpoint.meta\n"
        "remove checkpoint-backup-123\n");
  std::vector<AppliedBackup> backups;
  std::string error;
  REQUIRE(apply_channel_repair(plan, "", &backups, &error));
  CHECK(backups.empty());
  for (const char* name : {"checkpoint", "checkpoint.meta", "inflightputs", "inflighttakes"})
    CHECK(qjt_test::read_file(d.cp / name) == qjt_test::read_file(backup / name));
  CHECK_FALSE(fs::exists(d.cp / "checkpoint-backup-123"));
  CHECK(fs::exists(d.cp / "in_use.lock"));

  SUBCASE("a backup without checkpoint.meta (V2): the main one is removed before anything else is") {
    fs::remove(backup / "checkpoint.meta");
    put_file(d.cp / "stray", "x");
    FindingList again;
    const ChannelLayout l2 = discover_channel(d.channel(backup), &again, false);
    ChannelLogs logs2(l2.logs, {}, &again);
    request.capacity = 4;
    const ChannelRepairPlan p2 = plan_channel_repair(l2, &logs2, request, &again);
    // A V3 checkpoint without its meta is refused by Flume: so is the backup.
    CHECK_FALSE(p2.feasible);
    CHECK(count_code(again, "backup_unusable") == 1);
  }
}

TEST_CASE("channel repair: refusals") {
  Dirs d("repair-refusals");
  LogFile log(1);
  const EventPointer a = log.put(10, 100, "event-A");
  log.commit(10, 101, 1);
  log.write(d.data[0]);
  FindingList findings;
  const ChannelLayout layout = discover_channel(d.channel(), &findings, false);
  ChannelLogs logs(layout.logs, {}, &findings);

  SUBCASE("no backup to restore") {
    ChannelRepairRequest request;
    request.checkpoint = CheckpointAction::kRestoreBackup;
    const ChannelRepairPlan plan = plan_channel_repair(layout, &logs, request, &findings);
    CHECK_FALSE(plan.feasible);
    CHECK(count_code(findings, "restore_backup_unavailable") == 1);
    std::vector<AppliedBackup> backups;
    std::string error;
    CHECK_FALSE(apply_channel_repair(plan, "", &backups, &error));
    CHECK(qjt_test::contains(error, "cannot be carried out"));
  }
  SUBCASE("a drop in a log that does not exist, and one that does") {
    ChannelRepairRequest request;
    request.drop_events[7].insert(0);
    request.drop_events[1].insert(static_cast<std::uint64_t>(a.offset));
    const ChannelRepairPlan plan = plan_channel_repair(layout, &logs, request, &findings);
    CHECK(count_code(findings, "drop_unknown_log") == 1);
    CHECK(names_of(plan) == "patch log-1\n");
    CHECK(plan.changes[0].integrity.at(0).kind == IntegrityChangeKind::kDropped);
  }
  SUBCASE("a file that changed after the plan: nothing is written") {
    ChannelRepairRequest request;
    request.drop_events[1].insert(static_cast<std::uint64_t>(a.offset));
    const ChannelRepairPlan plan = plan_channel_repair(layout, &logs, request, &findings);
    REQUIRE(plan.changes.size() == 1);
    const std::string grown = qjt_test::read_file(d.data[0] / "log-1") + "x";
    put_file(d.data[0] / "log-1", grown);
    std::vector<AppliedBackup> backups;
    std::string error;
    CHECK_FALSE(apply_channel_repair(plan, (d.tmp.path() / "bak").string(), &backups, &error));
    CHECK(qjt_test::contains(error, "the channel changed since the plan"));
    CHECK(backups.empty());
    CHECK_FALSE(fs::exists(d.tmp.path() / "bak"));
    CHECK(qjt_test::read_file(d.data[0] / "log-1") == grown);
  }
}
