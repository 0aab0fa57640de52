// ChannelCompaction: the queue a Flume file channel recovers, written as a
// new channel of as few logs as it needs (`qjt compact`), so that the data
// logs old, pinned events hold can go.
//
// Flume deletes a log only when no queued event and no open transaction is
// in it and no lower log is in use (log_space.h): one event queued long ago
// keeps every log since. Compaction copies the events Flume would recover
// and nothing else.
//
// Contract:
//  - The input is what replay_channel recovered, with the events Flume's
//    next start would restore (open takes back at the head, open puts
//    dropped). Every queued event is read once, in queue order.
//  - plan_compaction: per input log, what it holds and what pins it (the
//    figures `qjt stats` shows, from log_space), what compaction frees, and
//    the exact bytes of the new logs and metas (each event encoded, and the
//    logs rolled, as the writer will).
//  - write_compacted: the queue, head to tail, as put transactions of up to
//    kEventsPerTransaction events (its puts, then a commit), each to data
//    dir (transaction id mod dirs) as Flume spreads them; through
//    ChannelSink (V3 logs, encrypted under the input's newest key alias
//    when the input is encrypted); then a V3 checkpoint of the input's
//    capacity holding the queue from ring slot 0, empty in-flight files, and
//    every log's meta marked at its end. Nothing is renamed into place until
//    every file is written and synced.
//  - Ids: log file ids above every input log's; transaction and write order
//    ids above every one the input shows (its checkpoint's, its logs'
//    marks, every record replayed). A channel left half-migrated, or an old
//    backup restored beside the new logs, so never takes old records for new.
//  - The result, replayed by Flume's rules from its checkpoint, or from the
//    logs alone if the checkpoint is lost, is the input's queue: the same
//    events, in the same order, with the same headers and bodies.
//    check_compacted reads it back and says where it differs.
//  - Memory: the new queue's pointers (8 bytes per event) and one entry per
//    log; events are streamed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "finding.h"
#include "flume/channel_layout.h"
#include "flume/channel_logs.h"
#include "flume/channel_replay.h"
#include "flume/channel_sink.h"
#include "flume/log_space.h"

namespace qjt::flume {

inline constexpr std::uint64_t kEventsPerTransaction = 1000;

struct CompactionTarget {
  std::string checkpoint_dir;
  std::vector<std::string> data_dirs;
  bool force = false;   // replace channel files already there
  bool staged = false;  // a stage of compaction in place: no commit noted (interrupt.h)
};

struct CompactionPlan {
  std::vector<LogSpace> logs;                // the input's, by file id
  std::uint64_t events = 0;                  // the queue: what the new channel holds
  std::uint64_t skipped = 0;                 // queued pointers to NOOP'd records (Flume skips them too)
  std::uint64_t bytes_before = 0;            // every input log and its meta
  std::uint64_t bytes_after = 0;             // the new logs and their metas, exactly
  std::vector<std::uint64_t> bytes_per_dir;  // of bytes_after, per target data dir (when planned for one)
  std::int32_t first_file_id = 1;            // of the new logs
  std::int64_t first_id = 1;                 // the new transaction and write order ids start here
  std::optional<std::string> key_alias;      // the new logs' encryption (the input's newest alias)
  std::uint64_t freed() const { return bytes_before > bytes_after ? bytes_before - bytes_after : 0; }
};

// A channel read for compaction: its logs, its replay, the plan, the keys.
struct Compaction {
  const ChannelLogs& logs;
  const ChannelReplay& replay;
  const CompactionPlan& plan;
  const KeyRing& keys;
};

// The plan for `target_dirs` data dirs (1 when there is no target yet).
// Findings of events that cannot be read go to `reporter`.
CompactionPlan plan_compaction(const ChannelLayout& layout, const ChannelLogs& logs, const ChannelReplay& replay,
                               std::size_t target_dirs, Reporter* reporter);

struct CompactionResult {
  std::vector<std::string> files;  // every file installed (logs, metas, checkpoint files)
  std::vector<SinkLog> logs;       // the new logs, in file id order
  std::optional<std::string> key_alias;
  std::uint64_t bytes = 0;  // of the new logs
  std::int64_t checkpoint_write_order_id = 0;
};

// Writes and installs the new channel; nullopt with *error when it could
// not (nothing is then left under the final names).
std::optional<CompactionResult> write_compacted(const ChannelLogs& logs, const ChannelReplay& replay,
                                                const KeyRing& keys, const CompactionPlan& plan,
                                                const CompactionTarget& target, std::string* error);

// Replays the new channel as Flume would (from its checkpoint, and from its
// logs alone: those from `first_new_file_id` on, when the old logs are
// still beside them) and compares each queued event with the input's:
// findings (error compacted_mismatch) say where they differ; true when
// none does.
bool check_compacted(const ChannelLogs& input_logs, const ChannelReplay& input, const CompactionTarget& target,
                     const KeyRing& keys, Reporter* reporter, std::int32_t first_new_file_id = 0);

}  // namespace qjt::flume
