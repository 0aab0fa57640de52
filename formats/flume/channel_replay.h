// ChannelReplay: the queue Flume 1.11 recovers when a file channel starts
// (spec §1.5, §4, §6.2, §6.3), computed without changing a byte.
//
//  1. The main checkpoint, if Flume would open it; else, when a backup
//     directory with backupComplete is given, the backup (checkpoint or
//     checkpoint.snappy); else a fresh empty queue and every log replayed
//     from its start.
//  2. Every log read from the position its meta (or V2 header) marks for
//     that checkpoint's write order id, all logs merged by (write order id,
//     transaction id, Take < Put < Rollback < Commit), records at or below
//     the checkpoint's write order id skipped.
//  3. Transactions as ReplayHandler.replayLog applies them: inflight puts
//     seed the transaction map, commits of puts addTail, commits of takes
//     remove (or wait as pending takes), and finally the inflight takes of
//     transactions that never committed go back to the head, one addHead
//     at a time in the order Flume's HashMultimap iterates them
//     (inflight_multimap.h).
//
// What Flume's own startup would refuse or lose is a finding: an error when
// Flume would not start (a record it cannot decode, a full queue), a
// warning when it starts but an operator should know (pending takes).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "finding.h"
#include "flume/channel_layout.h"
#include "flume/channel_logs.h"
#include "flume/checkpoint_state.h"
#include "flume/event_queue.h"

namespace qjt::flume {

enum class ReplaySource { kCheckpoint, kBackup, kLogs };
const char* replay_source_name(ReplaySource source);  // "checkpoint", "backup", "logs"

struct ChannelReplayOptions {
  // The channel's configured capacity. Without it: the checkpoint's own
  // (taken from its length even when Flume refuses the checkpoint), or
  // Flume's default 1,000,000 when there is none.
  std::optional<std::int64_t> capacity;
  // Checkpoint dir files read from here instead of the disk (a repair's
  // planned state; the layout names the files the plan leaves).
  const FileOverlay* overlay = nullptr;

  // What a replay of the same log bytes already found, from these starts
  // (file id -> offset): every record at or below `at_most`, and nothing
  // that stops the reading. A repair plan replays the channel now and as
  // planned, and a rebuilt checkpoint changes no log byte.
  struct KnownRecords {
    std::int64_t at_most = 0;
    std::map<std::int32_t, std::uint64_t> starts;
  };
  // When given, and the replay opens a checkpoint at or above `at_most`
  // whose marks start every readable log where `starts` says, merging the
  // logs would skip every record: they are not read. The queue is the
  // checkpoint's with its inflight transactions settled; counts, logs and
  // the maxima then say nothing of the records (a caller that wants only
  // the queue).
  const KnownRecords* known_records = nullptr;
};

struct ReplayCounts {
  std::uint64_t read = 0;  // records the merge returned
  std::uint64_t puts = 0, takes = 0, rollbacks = 0, commits = 0;
  std::uint64_t skipped = 0;            // at or below the checkpoint's write order id
  std::uint64_t noops = 0;              // NOOP records stepped over
  std::uint64_t uncommitted_takes = 0;  // inflight takes put back at the head
  std::uint64_t pending_takes = 0;      // committed takes whose put never came
};

// One log's part in the replay: its records replayed (after the
// checkpoint's write order id), by type, and the pointers into it of the
// transactions still open at the end of the logs (a put's event, a take's
// taken event), which a running Flume counts as in use (getFileIDs).
struct LogReplayCounts {
  std::uint64_t read_bytes = 0;  // from the replay's start in it to where its records end
  std::uint64_t puts = 0, takes = 0, rollbacks = 0, commits = 0;
  std::uint64_t inflight = 0;
};

struct ChannelReplay {
  ReplaySource source = ReplaySource::kLogs;
  std::optional<EventQueue> queue;  // empty only when no queue could be built
  std::int64_t checkpoint_write_order_id = 0;
  int checkpoint_version = 0;  // 0 for a replay from the logs alone
  ReplayCounts counts;
  // By file id: every readable log, and a log an open transaction points into.
  std::map<std::int32_t, LogReplayCounts> logs;
  // Transactions neither committed nor rolled back at the end of the logs:
  // from the checkpoint's inflight files or the logs. Flume's next start
  // drops their puts and puts their takes back at the head.
  std::uint64_t open_transactions = 0;
  std::uint64_t inflight_puts = 0, inflight_takes = 0;  // their events
  std::int64_t max_transaction_id = 0;
  std::int64_t max_write_order_id = 0;
  // Logs whose reading ended before their last record: a broken record, a
  // failed CRC, or a 0x80 with data after the fill. File id -> that
  // record's offset; nothing from there on was replayed.
  std::map<std::int32_t, std::uint64_t> stopped_at;
};

ChannelReplay replay_channel(const ChannelLayout& layout, const ChannelLogs& logs, const ChannelReplayOptions& options,
                             Reporter* reporter);

// Reads every event of `queue`, head to tail, as Flume's take would: a
// pointer to a NOOP'd record is skipped with a warning (pointer_to_noop),
// one that leads to no readable put is an error (dangling_pointer) saying
// what is there. `visit` gets each readable put; *record's views last until
// it returns. Returns the number of events visited.
// The backup checkpoint (checkpoint, else checkpoint.snappy decompressed)
// as Flume's restoreBackup would leave it, opened by Flume's rules; nullopt,
// with findings, when Flume would refuse it too.
std::optional<CheckpointState> load_backup(const BackupFiles& backup, std::optional<std::int64_t> capacity,
                                           Reporter* reporter);

// The content of the backup's checkpoint file as restoreBackup writes it:
// `checkpoint` copied, else `checkpoint.snappy` decompressed (bounded by
// the largest checkpoint Flume can have). nullopt, with findings, when
// neither can be read.
std::optional<std::string> backup_checkpoint_bytes(const BackupFiles& backup, Reporter* reporter);

using QueuedEventVisitor = std::function<void(std::size_t index, EventPointer pointer, const LogRecord& put)>;
// Each element that delivers nothing, and what is there instead (a repair
// plan counts them: events already lost to the damage).
using SkippedEventVisitor = std::function<void(EventPointer pointer, PointerTarget target)>;
std::uint64_t for_each_queued_event(const EventQueue& queue, const ChannelLogs& logs, const std::string& where,
                                    Reporter* reporter, const QueuedEventVisitor& visit,
                                    const SkippedEventVisitor& skipped = nullptr);

// The puts a scan of the logs found intact (decoded, CRC32 matching), by
// pointer: what read_pointer would find kPut at, without reading it again.
// 8 bytes a put.
class IntactPuts {
 public:
  // A record of log `file_id`, as a scan decoded it.
  void add(std::int32_t file_id, const LogRecord& record);
  // Sorts what was added; contains() needs it.
  void seal();
  bool contains(EventPointer pointer) const;

 private:
  std::vector<std::int64_t> pointers_;  // EventPointer::to_long()
};

// What for_each_queued_event reports and visits, for a caller that needs
// no event's bytes (verify, a repair's recovery): an element whose pointer
// `intact` holds is not read again; the others are, and reported the same
// way. `delivered` (may be empty) gets each element that delivers an
// event. Returns how many do.
using DeliveredEventVisitor = std::function<void(EventPointer pointer)>;
std::uint64_t check_queued_events(const EventQueue& queue, const ChannelLogs& logs, const std::string& where,
                                  const IntactPuts& intact, Reporter* reporter,
                                  const DeliveredEventVisitor& delivered = nullptr,
                                  const SkippedEventVisitor& skipped = nullptr);

// Flume deletes, after its next checkpoint, every log below the lowest file
// id its reference counts (and inflight pointers) still name, except the
// newest two of each data dir (spec §6.4; log_space.h's logs_flume_deletes).
// Counts that are wrong make it delete a log the queue still points into:
// error log_would_be_deleted.
void check_log_retention(const ChannelLogs& logs, const EventQueue& queue, Reporter* reporter);

}  // namespace qjt::flume
