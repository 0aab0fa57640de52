// ChannelRepair: the repair of one stopped Flume file channel as an ordered
// list of whole-file changes, planned without writing anything, then carried
// out with a backup of every file it touches and an atomic replacement of
// each (spec §1.5, §4, §5.4, §7).
//
// What a plan holds, in the order it is carried out:
//  1. The integrity repair of every data log (integrity_repair.h): single
//     bytes over OP bytes, as FileChannelIntegrityTool writes them, for the
//     records that do not decode, fail their CRC, were cut short by a crash,
//     or that the operator drops (drop_events).
//  2. Optionally a new checkpoint:
//     - kRebuild: what Flume's CheckpointRebuilder writes (checkpoint_
//       rebuilder.h), computed over the logs as step 1 leaves them;
//     - kRestoreBackup: the backup checkpoint dir's files installed as
//       Flume's restoreBackup installs them (checkpoint.snappy decompressed,
//       backupComplete and in_use.lock not copied, every other file of the
//       checkpoint dir but in_use.lock and queueset removed).
//     `checkpoint` is replaced first and `checkpoint.meta` last, so that
//     from the first replacement until the last the directory holds a
//     checkpoint Flume refuses (the write order ids of checkpoint and
//     checkpoint.meta differ, or one is missing): Flume then restores its
//     backup or replays every log, never pairing the new queue with the old
//     inflight files or the other way round. The new inflight files are
//     written inside that window, for the same reason.
//  3. With kRebuild, each log's new checkpoint mark (log-N.meta, or a V2
//     log's header), as the rebuilder's markCheckpoint writes it. These come
//     after the checkpoint: a log mark newer than the checkpoint would make
//     Flume seek to the mark's backup position instead.
// A crash between any two steps therefore leaves a channel that Flume
// recovers as it would have before the repair or as it will after it.
//
// Every file replaced is a new inode (temp file, fsync, rename, directory
// fsync), so a backup made as a hard link keeps the old bytes.
//
// Findings of planning (besides those of integrity_repair.h and
// checkpoint_rebuilder.h): drop_unknown_log (error: --drop-event names a
// file id with no log), restore_backup_unavailable (error: no backup dir,
// or no backupComplete, or no checkpoint in it), backup_unusable (error:
// Flume would refuse the backup checkpoint too).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "byte_patch.h"
#include "finding.h"
#include "flume/channel_layout.h"
#include "flume/channel_logs.h"
#include "flume/checkpoint_rebuilder.h"
#include "flume/integrity_repair.h"
#include "flume/log_history.h"

namespace qjt::flume {

enum class CheckpointAction { kKeep, kRebuild, kRestoreBackup };
const char* checkpoint_action_name(CheckpointAction action);  // "keep", "rebuild", "restore_backup"

struct ChannelRepairRequest {
  std::map<std::int32_t, std::set<std::uint64_t>> drop_events;  // file id -> put offsets
  CheckpointAction checkpoint = CheckpointAction::kKeep;
  RebuildOptions rebuild;                // for kRebuild
  std::optional<std::int64_t> capacity;  // the configured capacity, to check a restored backup
};

enum class FileChangeKind { kPatch, kWrite, kRemove };
const char* file_change_kind_name(FileChangeKind kind);  // "patch", "write", "remove"

struct FileChange {
  std::string path;
  FileChangeKind kind = FileChangeKind::kWrite;
  std::string reason;                      // one sentence: why this file changes
  std::optional<std::uint64_t> size;       // now; nullopt for a file that does not exist yet
  std::uint64_t size_after = 0;            // 0 for a removal
  std::vector<BytePatch> patches;          // kPatch, ascending offsets
  std::vector<IntegrityChange> integrity;  // kPatch of a log: what each patched OP byte was
  std::string content;                     // kWrite: the whole new file
};

struct ChannelRepairPlan {
  std::vector<FileChange> changes;  // in the order apply carries them out
  // False when a requested step cannot be planned (the rebuild fails, the
  // backup cannot be restored): the findings say why, and nothing may be
  // applied.
  bool feasible = true;
  std::optional<RebuiltCheckpoint> rebuilt;  // kRebuild; its file contents moved into changes
  // The logs' history as they are now (log_history.h), when the plan's one
  // pass over them could gather it (a rebuild of logs that read plainly):
  // compare_recovery takes it instead of reading the logs again.
  std::optional<LogHistory> history;
};

// Plans the repair. `logs` are the channel's logs as read now; the planned
// integrity changes are previewed in them (ChannelLogs::preview_write), so
// afterwards they read as the repaired files will.
ChannelRepairPlan plan_channel_repair(const ChannelLayout& layout, ChannelLogs* logs,
                                      const ChannelRepairRequest& request, Reporter* reporter);

// The log-N.meta a rebuild writes for `log`: the one a reader uses now
// when it is the .meta itself, else a new log-N.meta in the log's dir.
std::string log_meta_path(const DataLog& log);

struct AppliedBackup {
  std::string original;
  std::string copy;
};

// Carrying the plan out takes three steps, in this order (the writer runs
// them under its guard): check_still_as_planned, back_up_channel (unless
// no backup is kept), then apply_file_change for each change in order.
// What was done stays done on a failure: every step is safe on its own.

// False with *error when the plan is not feasible, or a file is no longer
// as planned (its size): then nothing may be written.
bool check_still_as_planned(const ChannelRepairPlan& plan, std::string* error);

// Copies every file of the plan that exists into `backup_dir`, one
// subdirectory per channel directory, and writes there a manifest
// `qjt-backup.txt` of "copy<TAB>original" lines; failpoint
// "flume_repair.backed_up" when done. *backups lists what was copied.
bool back_up_channel(const ChannelRepairPlan& plan, const std::string& backup_dir, std::vector<AppliedBackup>* backups,
                     std::string* error);

// The same for any of a channel's files (compaction's backup), reaching
// `failpoint_name` when done.
bool back_up_channel_files(const std::vector<std::string>& files, const std::string& backup_dir,
                           const char* failpoint_name, std::vector<AppliedBackup>* backups, std::string* error);

// Makes one change durably (a new inode for a file replaced).
bool apply_file_change(const FileChange& change, std::string* error);

}  // namespace qjt::flume
