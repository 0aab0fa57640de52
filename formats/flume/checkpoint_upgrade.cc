#include "flume/checkpoint_upgrade.h"

#include <unistd.h>

#include <array>
#include <filesystem>
#include <memory>
#include <system_error>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "durable_file.h"
#include "failpoint.h"
#include "flume/checkpoint_rebuilder.h"
#include "input_file.h"
#include "interrupt.h"

namespace qjt::flume {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kVersionBytes = 8;  // long[0], big-endian

void refuse(Reporter* reporter, const std::string& file, std::string message) {
  reporter->report(Finding{Severity::kError, "upgrade_refused", file, std::nullopt, std::move(message)});
}

std::unique_ptr<InputFile> open_or_report(const std::string& path, Reporter* reporter) {
  std::string error;
  auto input = InputFile::open(path, &error);
  if (!input) reporter->report(Finding{Severity::kError, "io_error", path, std::nullopt, error});
  return input;
}

// Whether Flume opens `checkpoint` as a V2 (or V3) store at all.
bool openable(const CheckpointFile& checkpoint, const std::string& path, Reporter* reporter) {
  if (!checkpoint.length_ok() || !checkpoint.version_ok()) {
    refuse(reporter, path,
           "expected a checkpoint Flume opens (a length of (capacity + 1029) * 8, version 2 or 3), "
           "found none: nothing to upgrade; see the findings above");
    return false;
  }
  if (checkpoint.version() == 2 && checkpoint.marker() != kCheckpointComplete) {
    refuse(reporter, path,
           fmt::format("expected a complete V2 checkpoint (marker 0), found marker {}: Flume refuses "
                       "it before upgrading and replays every log instead",
                       checkpoint.marker()));
    return false;
  }
  return true;
}

// A checkpoint-backup-<ms> already holding these bytes, from an earlier run.
std::string identical_backup(const CheckpointFiles& files, ByteSpan bytes) {
  for (const std::string& backup : files.upgrade_backups) {
    std::string error;
    const auto input = InputFile::open(backup, &error);
    if (input && input->bytes().as_chars() == bytes.as_chars()) return backup;
  }
  return {};
}

// What a V2 checkpoint with a meta beside it is: the interrupted upgrade
// (the meta its header gives) or something qjt will not guess about.
UpgradeState v2_with_meta(const UpgradePlan& plan, Reporter* reporter) {
  const auto input = open_or_report(plan.meta_path, reporter);
  if (!input) return UpgradeState::kRefused;
  if (input->bytes().as_chars() == encode_checkpoint_meta(plan.meta)) return UpgradeState::kHalfDone;
  refuse(reporter, plan.meta_path,
         "expected no checkpoint.meta beside a V2 checkpoint, or the one its header gives "
         "(an interrupted upgrade), found another: Flume refuses this checkpoint; not "
         "changed");
  return UpgradeState::kRefused;
}

// Stale temp files of a run that was killed ("<name>~~qjt-<pid>").
bool remove_stale_temps(const std::string& dir, std::string* error) {
  std::error_code ec;
  std::vector<std::string> stale;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("checkpoint~~qjt-") || name.starts_with("checkpoint.meta~~qjt-"))
      stale.push_back(entry.path().string());
  }
  for (const std::string& path : stale)
    if (!durable_remove(path, error)) return false;
  return true;
}

// Writes `parts` to the new temp file `temp` beside `path`, owned as `path`
// is (or would be: a new checkpoint.meta as its checkpoint), and fsyncs it.
bool write_temp(const std::string& path, const std::string& temp, std::initializer_list<ByteSpan> parts,
                std::string* error) {
  const auto kept = FileOwnership::kept_at(path, error);
  if (!kept) return false;
  auto writer = FileWriter::create(temp, error, &*kept);
  if (!writer) return false;
  for (ByteSpan part : parts)
    if (!writer->append(part, error)) return false;
  return writer->sync(error);
}

std::string temp_name(const std::string& path) { return fmt::format("{}~~qjt-{}", path, ::getpid()); }

}  // namespace

CheckpointMeta meta_from_v2_header(const CheckpointFile& checkpoint) {
  std::vector<std::int32_t> keys;
  std::vector<ActiveLogCount> counts;  // last count of each key, in first-seen order
  for (const auto& slot : checkpoint.v2_active_logs()) {
    std::size_t i = 0;
    while (i < keys.size() && keys[i] != slot.count.file_id) ++i;
    if (i == keys.size()) {
      keys.push_back(slot.count.file_id);
      counts.push_back(slot.count);
    } else {
      counts[i] = slot.count;
    }
  }
  CheckpointMeta meta;
  meta.write_order_id = checkpoint.write_order_id();
  meta.queue_size = static_cast<std::int32_t>(checkpoint.v2_size());
  meta.queue_head = static_cast<std::int32_t>(checkpoint.v2_head());
  for (std::int32_t key : java_hash_map_order(keys)) {
    for (const ActiveLogCount& c : counts)
      if (c.file_id == key && c.count > 0) meta.active_logs.push_back(c);
  }
  return meta;
}

namespace {

constexpr std::array<std::pair<UpgradeState, const char*>, 4> kUpgradeStateNames = {{
    {UpgradeState::kV2, "v2"},
    {UpgradeState::kHalfDone, "half_done"},
    {UpgradeState::kV3, "v3"},
    {UpgradeState::kRefused, "refused"},
}};

}  // namespace

const char* upgrade_state_name(UpgradeState state) {
  for (const auto& [value, text] : kUpgradeStateNames)
    if (value == state) return text;
  return "refused";
}

UpgradePlan plan_checkpoint_upgrade(const CheckpointFiles& files, Reporter* reporter) {
  UpgradePlan plan;
  plan.checkpoint_path = files.checkpoint.value_or((fs::path(files.dir) / "checkpoint").string());
  plan.meta_path = files.checkpoint_meta.value_or((fs::path(files.dir) / "checkpoint.meta").string());
  if (!files.checkpoint) {
    refuse(reporter, plan.checkpoint_path, "expected a checkpoint to upgrade, found none");
    return plan;
  }
  const auto input = open_or_report(plan.checkpoint_path, reporter);
  if (!input) return plan;
  const auto checkpoint = CheckpointFile::decode(input->bytes(), plan.checkpoint_path, reporter);
  if (!checkpoint || !openable(*checkpoint, plan.checkpoint_path, reporter)) return plan;
  plan.version = checkpoint->version();
  if (plan.version == 3) {
    if (files.checkpoint_meta) {
      plan.state = UpgradeState::kV3;
    } else {
      refuse(reporter, plan.checkpoint_path,
             "expected checkpoint.meta beside a V3 checkpoint, found none: not a "
             "state an upgrade leaves; Flume refuses it");
    }
    return plan;
  }
  plan.meta = meta_from_v2_header(*checkpoint);
  plan.state = files.checkpoint_meta ? v2_with_meta(plan, reporter) : UpgradeState::kV2;
  if (plan.state != UpgradeState::kRefused) plan.existing_backup = identical_backup(files, input->bytes());
  return plan;
}

bool apply_checkpoint_upgrade(const UpgradePlan& plan, std::int64_t now_ms, std::string* backup, std::string* error) {
  const std::string dir = fs::path(plan.checkpoint_path).parent_path().string();
  if (!remove_stale_temps(dir.empty() ? "." : dir, error)) return false;
  *backup = plan.existing_backup;
  if (backup->empty()) {
    *backup = (fs::path(dir) / fmt::format("checkpoint-backup-{}", now_ms)).string();
    if (!durable_copy(plan.checkpoint_path, *backup, error)) return false;
    failpoint("upgrade.after_backup");
  }
  std::string open_error;
  const auto input = InputFile::open(plan.checkpoint_path, &open_error);
  if (!input || input->bytes().size() < kVersionBytes) {
    *error = input ? fmt::format("{} changed while upgrading", plan.checkpoint_path) : open_error;
    return false;
  }
  static constexpr std::uint8_t kVersion3[kVersionBytes] = {0, 0, 0, 0, 0, 0, 0, 3};
  const std::string meta_bytes = encode_checkpoint_meta(plan.meta);
  const std::string meta_temp = temp_name(plan.meta_path);
  const std::string checkpoint_temp = temp_name(plan.checkpoint_path);
  const bool need_meta = plan.state == UpgradeState::kV2;
  // A failure removes the temp files not renamed yet (unlinking a renamed one fails harmlessly).
  const auto abandon = [&] {
    remove_temp(meta_temp);
    remove_temp(checkpoint_temp);
    return false;
  };
  if (need_meta && !write_temp(plan.meta_path, meta_temp, {ByteSpan(meta_bytes)}, error)) return abandon();
  if (!write_temp(plan.checkpoint_path, checkpoint_temp,
                  {ByteSpan(kVersion3, kVersionBytes), input->bytes().subspan(kVersionBytes)}, error))
    return abandon();
  failpoint("upgrade.after_temp_files");
  CommitSection commit;  // the renames: an interrupt waits for the V3 checkpoint
  if (need_meta) {
    if (!durable_rename(meta_temp, plan.meta_path, error)) return abandon();
    failpoint("upgrade.after_meta_rename");
  }
  if (!durable_rename(checkpoint_temp, plan.checkpoint_path, error)) return abandon();
  note_committed(fmt::format("the V3 checkpoint {} was installed (backup in {})", plan.checkpoint_path, *backup));
  failpoint("upgrade.after_checkpoint_rename");
  return true;
}

}  // namespace qjt::flume
