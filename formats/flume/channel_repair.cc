#include "flume/channel_repair.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <utility>

#include "durable_file.h"
#include "failpoint.h"
#include "flume/channel_replay.h"
#include "input_file.h"
#include "interrupt.h"
#include "path_name.h"

namespace qjt::flume {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kCheckpointName = "checkpoint";
constexpr std::string_view kMetaName = "checkpoint.meta";
constexpr std::string_view kSnappySuffix = ".snappy";

void report(Reporter* reporter, const char* code, const std::string& file, std::string message) {
  reporter->report(Finding{Severity::kError, code, file, std::nullopt, std::move(message)});
}

std::optional<std::uint64_t> size_of(const std::string& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) return std::nullopt;
  return size;
}

FileChange write_change(std::string path, std::string content, std::string reason) {
  FileChange c;
  c.kind = FileChangeKind::kWrite;
  c.size = size_of(path);
  c.size_after = content.size();
  c.path = std::move(path);
  c.content = std::move(content);
  c.reason = std::move(reason);
  return c;
}

// ---- 1. integrity -------------------------------------------------------

// One pass over the logs for the whole plan: the integrity walk reads each
// log from its start, and the rebuild and the history (for the recovery
// comparison) ride on it. What they gathered counts only when every log
// read plainly to its end, exactly as their own readings would have gone:
// no broken record, no CRC32 failure, no damaged length, no data after the
// end-of-data fill, and no change planned to any byte.
class SharedReading {
 public:
  LogRecordVisitor visitor(const ChannelLog& log) {
    return [this, &log](const LogRecord& r) { add(log, r); };
  }
  bool plain(const ChannelLogs& logs, const ChannelRepairPlan& plan) const {
    return plain_ && ended_ == logs.logs().size() && plan.changes.empty();
  }

  RebuildReading rebuild;
  // Without committed_puts: compare_recovery reads the logs again in the
  // rare case it needs them (a replay stopped at damage).
  RecordTally history{RecordTally::Puts::kUnknown};

 private:
  void add(const ChannelLog& log, const LogRecord& r) {
    if (!plain_) return;
    plain_ = r.type != LogRecordType::kBroken && !(r.type == LogRecordType::kPut && !r.crc_ok) &&
             r.trailing_bytes == 0 && !data_after_fill(log, r);
    if (!plain_) return;
    if (r.type == LogRecordType::kEndOfData) ++ended_;
    rebuild.add(log, r);
    history.add(log, r, false);
  }
  // Whether an end of data at a 0x80 byte has a byte other than 0x80
  // after it (a history reads on from there).
  static bool data_after_fill(const ChannelLog& log, const LogRecord& r) {
    return r.type == LogRecordType::kEndOfData && r.offset < log.bytes().size() &&
           find_first_non_fill(log.bytes(), static_cast<std::size_t>(r.offset) + 1).has_value();
  }

  bool plain_ = true;
  std::size_t ended_ = 0;
};

void plan_integrity(ChannelLogs* logs, const ChannelRepairRequest& request, ChannelRepairPlan* plan, Reporter* reporter,
                    SharedReading* shared) {
  for (const auto& [file_id, offsets] : request.drop_events)
    if (logs->find(file_id) == nullptr)
      report(reporter, "drop_unknown_log", "",
             fmt::format("expected a log with file id {} for --drop-event {}:{}, found none", file_id, file_id,
                         *offsets.begin()));
  static const std::set<std::uint64_t> kNone;
  for (const ChannelLog& log : logs->logs()) {
    const auto drops = request.drop_events.find(log.file_id());
    IntegrityPlan integrity =
        plan_integrity_repair(log, drops == request.drop_events.end() ? kNone : drops->second, reporter,
                              shared != nullptr ? shared->visitor(log) : LogRecordVisitor());
    if (integrity.changes.empty()) continue;
    FileChange c;
    c.path = log.layout().path;
    c.kind = FileChangeKind::kPatch;
    c.size = integrity.file_size;
    c.size_after = integrity.file_size;
    c.patches = integrity_patches(integrity);
    c.integrity = std::move(integrity.changes);
    c.reason = fmt::format("{} record(s) neutralised as FileChannelIntegrityTool does: one byte over the OP byte",
                           c.integrity.size());
    plan->changes.push_back(std::move(c));
  }
  // Later steps (the rebuild) read the logs as these patches leave them.
  for (const FileChange& c : plan->changes)
    for (const ChannelLog& log : logs->logs())
      if (log.layout().path == c.path)
        for (const BytePatch& p : c.patches) logs->preview_write(log.file_id(), p.offset, ByteSpan(p.after));
}

// ---- 2. rebuild ---------------------------------------------------------

// Where the rebuilder's markCheckpoint puts log `file_id`'s new mark.
void plan_mark(const ChannelLog& log, std::string mark, ChannelRepairPlan* plan) {
  const std::string why = "the rebuilder's checkpoint mark (markCheckpoint: write order id only, position kept)";
  if (log.version() == 3) {
    plan->changes.push_back(write_change(log_meta_path(log.layout()), std::move(mark), why));
    return;
  }
  // V2: the header is the mark; patch the bytes that change.
  FileChange c;
  c.path = log.layout().path;
  c.kind = FileChangeKind::kPatch;
  c.size = log.bytes().size();
  c.size_after = log.bytes().size();
  c.reason = why;
  const ByteSpan now = log.bytes();
  for (std::size_t i = 0; i < mark.size() && i < now.size(); ++i)
    if (static_cast<char>(now[i]) != mark[i])
      c.patches.push_back(BytePatch{i, std::string(1, static_cast<char>(now[i])), std::string(1, mark[i])});
  if (!c.patches.empty()) plan->changes.push_back(std::move(c));
}

bool plan_rebuild(const ChannelLayout& layout, const ChannelLogs& logs, const ChannelRepairRequest& request,
                  ChannelRepairPlan* plan, Reporter* reporter, SharedReading* shared) {
  const bool plain = shared->plain(logs, *plan);
  plan->rebuilt = rebuild_checkpoint(logs, request.rebuild, reporter, plain ? &shared->rebuild : nullptr);
  if (plain) plan->history = shared->history.history();
  if (!plan->rebuilt) return false;
  RebuiltCheckpoint& r = *plan->rebuilt;
  const fs::path dir = layout.checkpoint.dir;
  const std::string why = fmt::format(
      "rebuilt from the logs as CheckpointRebuilder writes it ({} event(s), write "
      "order id {})",
      r.events, r.write_order_id);
  plan->changes.push_back(write_change((dir / kCheckpointName).string(), std::move(r.checkpoint), why));
  plan->changes.push_back(write_change((dir / "inflightputs").string(), std::move(r.inflight_puts), why));
  plan->changes.push_back(write_change((dir / "inflighttakes").string(), std::move(r.inflight_takes), why));
  plan->changes.push_back(write_change((dir / kMetaName).string(), std::move(r.checkpoint_meta), why));
  for (auto& [file_id, mark] : r.log_metas)
    if (const ChannelLog* log = logs.find(file_id)) plan_mark(*log, std::move(mark), plan);
  return true;
}

// ---- 2. restore the backup ----------------------------------------------

bool read_whole(const std::string& path, std::string* content, Reporter* reporter) {
  std::string error;
  const auto input = InputFile::open(path, &error);
  if (!input) {
    report(reporter, "io_error", path, error);
    return false;
  }
  content->assign(input->bytes().as_chars());
  return true;
}

// The files restoreBackup copies, by target name: every file of the backup
// dir but backupComplete and in_use.lock; *.snappy decompressed.
bool restored_files(const BackupFiles& backup, std::map<std::string, std::string>* files, Reporter* reporter) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(backup.dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || name == "backupComplete" || name == kLockFileName) continue;
    if (name.size() > kSnappySuffix.size() && name.ends_with(kSnappySuffix)) continue;
    if (!read_whole(entry.path().string(), &(*files)[name], reporter)) return false;
  }
  if (files->count(std::string(kCheckpointName)) == 0) {
    auto plain = backup_checkpoint_bytes(backup, reporter);
    if (!plain) return false;
    (*files)[std::string(kCheckpointName)] = std::move(*plain);
  }
  return !ec;
}

bool plan_restore(const ChannelLayout& layout, const ChannelRepairRequest& request, ChannelRepairPlan* plan,
                  Reporter* reporter) {
  if (!layout.backup || !layout.backup->complete || !(layout.backup->checkpoint || layout.backup->checkpoint_snappy)) {
    report(reporter, "restore_backup_unavailable", layout.backup ? layout.backup->dir : "",
           "expected a backup checkpoint dir (--backup-dir) holding backupComplete and a checkpoint or "
           "checkpoint.snappy, found none: Flume would not restore it");
    return false;
  }
  if (!load_backup(*layout.backup, request.capacity, reporter)) {
    report(reporter, "backup_unusable", layout.backup->dir,
           "expected a backup checkpoint Flume opens, found one it refuses too: not restored");
    return false;
  }
  std::map<std::string, std::string> files;
  if (!restored_files(*layout.backup, &files, reporter)) return false;
  const fs::path dir = layout.checkpoint.dir;
  const std::string why = "restored from the backup checkpoint in " + layout.backup->dir;
  auto take = [&](const std::string& name) {
    plan->changes.push_back(write_change((dir / name).string(), std::move(files[name]), why));
    files.erase(name);
  };
  take(std::string(kCheckpointName));  // first: from here on Flume refuses the half-restored checkpoint
  const bool has_meta = files.count(std::string(kMetaName)) > 0;
  std::set<std::string> names;
  for (const auto& [name, content] : files) names.insert(name);
  for (const std::string& name : names)
    if (name != kMetaName) take(name);
  if (has_meta) take(std::string(kMetaName));  // last: it makes the checkpoint whole again
  // restoreBackup empties the directory first (but in_use.lock, queueset).
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || name == kLockFileName || name == kCheckpointName || names.count(name)) continue;
    FileChange c;
    c.path = entry.path().string();
    c.kind = FileChangeKind::kRemove;
    c.size = size_of(c.path);
    c.reason = "not in the backup: Flume's restoreBackup deletes it";
    plan->changes.push_back(std::move(c));
  }
  // The removal of a stale checkpoint.meta (a V2 backup) completes the
  // restore, so it goes first among the removals.
  std::stable_partition(plan->changes.begin(), plan->changes.end(), [](const FileChange& c) {
    return c.kind != FileChangeKind::kRemove || base_name(c.path) == kMetaName;
  });
  return true;
}

// ---- apply ----------------------------------------------------------------

std::string precondition_failure(const FileChange& c) {
  const auto now = size_of(c.path);
  if (now == c.size) return "";
  auto describe = [](std::optional<std::uint64_t> size) {
    return size ? fmt::format("{} bytes", *size) : std::string("no file");
  };
  return fmt::format("{}: expected {} as planned, found {}; the channel changed since the plan, nothing written",
                     c.path, describe(c.size), describe(now));
}

// backup_dir/<the channel directory's name>/<file>, one subdirectory per
// directory (numbered when two have one name).
class BackupNames {
 public:
  explicit BackupNames(std::string root) : root_(std::move(root)) {}
  std::string copy_of(const std::string& path) {
    const fs::path parent = fs::path(path).parent_path();
    auto it = subdirs_.find(parent.string());
    if (it == subdirs_.end()) {
      std::string name = parent.filename().string();
      if (name.empty() || name == "." || name == "..") name = "dir";
      std::string unique = name;
      for (int n = 2; used_.count(unique); ++n) unique = fmt::format("{}-{}", name, n);
      used_.insert(unique);
      it = subdirs_.emplace(parent.string(), unique).first;
    }
    return (fs::path(root_) / it->second / base_name(path)).string();
  }

 private:
  std::string root_;
  std::map<std::string, std::string> subdirs_;
  std::set<std::string> used_;
};

// A rebuild may be the channel's first checkpoint: Flume creates the
// directory too.
bool ensure_directory(const fs::path& dir, std::string* error) {
  std::error_code ec;
  if (dir.empty() || fs::is_directory(dir, ec)) return true;
  fs::create_directories(dir, ec);
  if (ec) {
    *error = fmt::format("cannot create directory {}: {}", dir.string(), ec.message());
    return false;
  }
  const fs::path parent = fs::absolute(dir).parent_path();
  return sync_directory(parent.string(), error);
}

}  // namespace

bool back_up_channel(const ChannelRepairPlan& plan, const std::string& backup_dir, std::vector<AppliedBackup>* backups,
                     std::string* error) {
  std::vector<std::string> files;
  for (const FileChange& c : plan.changes)
    if (c.size) files.push_back(c.path);
  return back_up_channel_files(files, backup_dir, "flume_repair.backed_up", backups, error);
}

bool back_up_channel_files(const std::vector<std::string>& files, const std::string& backup_dir,
                           const char* failpoint_name, std::vector<AppliedBackup>* backups, std::string* error) {
  BackupNames names(backup_dir);
  std::string manifest;
  for (const std::string& path : files) {
    if (std::any_of(backups->begin(), backups->end(), [&](const AppliedBackup& b) { return b.original == path; }))
      continue;
    const std::string copy = names.copy_of(path);
    if (!make_directories(fs::path(copy).parent_path().string(), error) || !durable_copy(path, copy, error))
      return false;
    backups->push_back(AppliedBackup{path, copy});
    manifest += copy + "\t" + fs::absolute(path).string() + "\n";
  }
  if (backups->empty()) return true;
  const std::string manifest_path = (fs::path(backup_dir) / "qjt-backup.txt").string();
  CommitSection section;  // until the manifest is tracked: an interrupt removes the whole backup
  const bool ok = write_file_atomically(
      manifest_path, Ownership::kNewOutput,
      [&](FileWriter* writer, std::string* e) { return writer->append(ByteSpan(manifest), e); }, error);
  if (ok) track_created(manifest_path);
  if (ok) failpoint(failpoint_name);
  return ok;
}

bool apply_file_change(const FileChange& c, std::string* error) {
  switch (c.kind) {
    case FileChangeKind::kPatch:
      return patch_file_atomically(c.path, c.size.value_or(0), c.patches, error);
    case FileChangeKind::kWrite:
      if (!ensure_directory(fs::path(c.path).parent_path(), error)) return false;
      return write_file_atomically(
          c.path, Ownership::kKept,
          [&](FileWriter* writer, std::string* e) { return writer->append(ByteSpan(c.content), e); }, error);
    case FileChangeKind::kRemove:
      return durable_remove(c.path, error);
  }
  return false;
}

std::string log_meta_path(const DataLog& log) {
  return log.meta_source == MetaSource::kMeta ? log.meta_path
                                              : (fs::path(log.dir) / fmt::format("log-{}.meta", log.file_id)).string();
}

namespace {

constexpr std::array<std::pair<CheckpointAction, const char*>, 3> kCheckpointActionNames = {{
    {CheckpointAction::kKeep, "keep"},
    {CheckpointAction::kRebuild, "rebuild"},
    {CheckpointAction::kRestoreBackup, "restore_backup"},
}};

}  // namespace

const char* checkpoint_action_name(CheckpointAction action) {
  for (const auto& [value, text] : kCheckpointActionNames)
    if (value == action) return text;
  return "unknown";
}

namespace {

constexpr std::array<std::pair<FileChangeKind, const char*>, 3> kFileChangeKindNames = {{
    {FileChangeKind::kPatch, "patch"},
    {FileChangeKind::kWrite, "write"},
    {FileChangeKind::kRemove, "remove"},
}};

}  // namespace

const char* file_change_kind_name(FileChangeKind kind) {
  for (const auto& [value, text] : kFileChangeKindNames)
    if (value == kind) return text;
  return "unknown";
}

ChannelRepairPlan plan_channel_repair(const ChannelLayout& layout, ChannelLogs* logs,
                                      const ChannelRepairRequest& request, Reporter* reporter) {
  ChannelRepairPlan plan;
  std::optional<SharedReading> shared;
  if (request.checkpoint == CheckpointAction::kRebuild) shared.emplace();
  plan_integrity(logs, request, &plan, reporter, shared ? &*shared : nullptr);
  switch (request.checkpoint) {
    case CheckpointAction::kKeep:
      break;
    case CheckpointAction::kRebuild:
      plan.feasible = plan_rebuild(layout, *logs, request, &plan, reporter, &*shared);
      break;
    case CheckpointAction::kRestoreBackup:
      plan.feasible = plan_restore(layout, request, &plan, reporter);
      break;
  }
  return plan;
}

bool check_still_as_planned(const ChannelRepairPlan& plan, std::string* error) {
  if (!plan.feasible) {
    *error = "the plan cannot be carried out (see its findings); nothing written";
    return false;
  }
  for (const FileChange& c : plan.changes)
    if (const std::string why = precondition_failure(c); !why.empty()) {
      *error = why;
      return false;
    }
  return true;
}

}  // namespace qjt::flume
