// LogSpace: what each data log of a Flume channel holds and what keeps it
// on disk: the space report of `qjt stats` and of compaction's dry-run
// plan, computed here once so that both say the same.
//
// Flume's rule (spec §6.4, Log.removeOldLogs): after a checkpoint it
// deletes, with its meta, each log of a data dir whose file id is below the
// lowest one still in use (queue reference counts, open transactions, the
// logs being written), never the newest two of a dir. The rule is applied
// as it runs after Flume's next start (what check_log_retention checks):
// the replay has settled the open transactions (takes back in the queue,
// puts dropped) and rolled every dir to a new log, so the logs in use are
// those the recovered queue's reference counts name, and of the logs here
// only the newest of each dir is kept for sure.
//
// Contract:
//  - One LogSpace per log of ChannelLogs, in its order (by file id).
//  - Exact: sizes from the layout and a stat of each meta file; queued
//    events and their bytes as the caller counted them (QueuedByLog);
//    reference counts as the queue holds them (what Flume trusts, even
//    where they disagree with the queue: then log_would_be_deleted).
//  - Memory: one entry per log; QueuedByLog one per log the queue names.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "flume/channel_logs.h"
#include "flume/channel_replay.h"
#include "flume/event_queue.h"

namespace qjt::flume {

// The queued events in each log and their body bytes, counted while the
// queue's events are read (for_each_queued_event), so that the space
// report needs no read of its own.
class QueuedByLog {
 public:
  struct Tally {
    std::uint64_t events = 0;
    std::uint64_t bytes = 0;  // of the events' bodies
  };

  void add(EventPointer pointer, const LogRecord& put) {
    if (last_ == nullptr || pointer.file_id != last_id_) {  // a queue runs through one log at a time
      last_ = &by_id_[pointer.file_id];
      last_id_ = pointer.file_id;
    }
    ++last_->events;
    last_->bytes += put.body.size();
  }
  Tally of(std::int32_t file_id) const;

 private:
  std::map<std::int32_t, Tally> by_id_;
  Tally* last_ = nullptr;
  std::int32_t last_id_ = 0;
};

struct LogSpace {
  const ChannelLog* log = nullptr;
  std::uint64_t bytes = 0;       // the log file
  std::uint64_t meta_bytes = 0;  // its log-N.meta (none for V2)
  QueuedByLog::Tally queued;     // the queue's readable events in it
  // What pins it.
  std::int64_t reference_count = 0;  // the queue's count for it: Flume keeps a log it counts
  std::uint64_t inflight = 0;        // pointers into it of transactions open at the end of the logs
  bool current_write_log = false;    // the newest log of its data dir: the one Flume writes
  bool pinned_by_lower_log = false;  // a lower log is in use: Flume deletes only below the lowest
  bool deletable = false;            // Flume deletes it after its next start
  // What deleting it frees (log and meta) once nothing pins it: 0 for the
  // current write log, which Flume never deletes.
  std::uint64_t reclaimable = 0;
};

// The lowest file id the queue's reference counts name (count > 0);
// nullopt when they name none.
std::optional<std::int32_t> lowest_log_in_use(const EventQueue& queue);

// The file ids of the logs Flume deletes after its next start.
std::set<std::int32_t> logs_flume_deletes(const ChannelLogs& logs, const EventQueue& queue);

// The space report of every log: `replay` gives the open transactions'
// pointers and the queue it recovered, `queued` that queue's events
// counted. Without a queue (no capacity Flume accepts) Flume does not
// start, so it deletes nothing and no count pins a log.
std::vector<LogSpace> log_space(const ChannelLogs& logs, const ChannelReplay& replay, const QueuedByLog& queued);

}  // namespace qjt::flume
