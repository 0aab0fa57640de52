// Compaction in place (`qjt compact --apply`): the steps that put a
// compacted channel (channel_compaction.h) in the place of the channel it
// was made from, so that Flume, stopped and restarted at any moment,
// recovers the same queue, nothing lost or duplicated.
//
// The danger: Flume replays every record whose write order id is above its
// checkpoint's, and the new logs' ids are above every old one. A new log
// beside the old checkpoint would be replayed as new puts. So each new log
// enters its data dir hidden, behind a meta that marks it read to its end
// as of write order id 0: every replay, from any checkpoint or from none,
// skips it. Then the checkpoint directory is swapped whole, in one
// rename(2) (RENAME_EXCHANGE), for the staged one that points at the new
// logs; then the new logs get their true marks, which the new checkpoint
// reads the same; then the old logs go. The order, and why each state is
// safe, is in formats/flume/README.md ("Compaction in place").
//
// Contract:
//  - The caller holds the channel's guard (qjt's locks, Flume's
//    in_use.lock free, no process with a file open) and has backed up the
//    channel's files; each step reaches a failpoint when done and fails
//    with *error naming the operation, the file and the reason.
//  - Staging stays out of Flume's sight: the new checkpoint in
//    "<checkpoint dir>.qjt-compact" beside the checkpoint dir (one file
//    system, so it can be swapped), the new logs in
//    "<data dir>/.qjt-compact" (Flume lists only log-N files).
#pragma once

#include <string>
#include <vector>

#include "flume/channel_compaction.h"
#include "flume/channel_layout.h"

namespace qjt::flume {

struct InPlaceDirs {
  std::string checkpoint_dir, staged_checkpoint_dir;
  std::vector<std::string> data_dirs, staged_data_dirs;  // in the channel's order
  std::optional<std::string> backup_checkpoint_dir;      // the channel's backupCheckpointDir
  CompactionTarget staged() const { return CompactionTarget{staged_checkpoint_dir, staged_data_dirs, true, true}; }
};

InPlaceDirs in_place_dirs(const ChannelLayout& layout);

// What an interrupted run left beside the channel: the staged data dirs
// are removed, and the staged checkpoint dir (the new set before the swap,
// the old one after it) is moved into `backup_dir`, or removed when there
// is no backup (""). Failpoint flume_compact.leftovers_cleared.
bool clear_leftovers(const InPlaceDirs& dirs, const std::string& backup_dir, std::string* error);

// The staged checkpoint dir owned as the channel's is, and each staged
// file with the owner, group and mode of the file it replaces in the
// channel, or of its siblings there (file_ownership.h): qjt run as root
// for a channel Flume runs as its user.
bool own_staged_like_channel(const InPlaceDirs& dirs, const CompactionResult& staged, std::string* error);

// Each new log into its data dir, hidden: its meta first (read to its end
// as of write order id 0), then the log. Failpoint flume_compact.log_shown
// after each.
bool show_new_logs(const InPlaceDirs& dirs, const CompactionResult& staged, std::string* error);

// The channel's backup checkpoint, which points into the old logs, no
// longer complete (backupComplete removed: it is in the backup), so that
// Flume never restores it. Failpoint flume_compact.backup_retired.
bool retire_backup_checkpoint(const InPlaceDirs& dirs, std::string* error);

// The staged checkpoint dir and the channel's swapped in one step.
// Failpoint flume_compact.checkpoint_swapped.
bool swap_checkpoint(const InPlaceDirs& dirs, std::string* error);

// Each new log's meta replaced by its staged one: its true mark.
// Failpoint flume_compact.log_marked after each.
bool mark_new_logs(const InPlaceDirs& dirs, const CompactionResult& staged, std::string* error);

// The staging dirs removed, with the old checkpoint set that the swap left
// in the staged checkpoint dir; then the old logs (each log before its
// meta: a log without its meta stops Flume, a meta without its log does
// not). They are all in the backup. Failpoint
// flume_compact.old_log_removed after each log.
bool remove_old_files(const InPlaceDirs& dirs, const ChannelLayout& old, std::string* error);

}  // namespace qjt::flume
