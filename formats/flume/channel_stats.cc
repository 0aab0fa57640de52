#include "flume/channel_stats.h"

#include <algorithm>
#include <set>

namespace qjt::flume {
namespace {

// The channel's gauges.
constexpr StatsMetric kCapacity{"capacity", StatsUnit::kCount,
                                "Events the channel's queue holds at most: its checkpoint's capacity, or --capacity."};
constexpr StatsMetric kQueuedItems{"queued_items", StatsUnit::kCount,
                                   "Events in the queue Flume recovers at its next start."};
constexpr StatsMetric kQueued{"queued", StatsUnit::kBytes, "Body bytes of the queued events that could be read."};
constexpr StatsMetric kFill{"fill", StatsUnit::kRatio, "Queued events over the queue's capacity."};
constexpr StatsMetric kOpenTransactions{
    "open_transactions", StatsUnit::kCount,
    "Transactions neither committed nor rolled back at the end of the logs (with the checkpoint's inflight files)."};
constexpr StatsMetric kInflightPuts{"inflight_puts", StatsUnit::kCount,
                                    "Events put by the open transactions: Flume's next start drops them."};
constexpr StatsMetric kInflightTakes{
    "inflight_takes", StatsUnit::kCount,
    "Events taken by the open transactions: Flume's next start puts them back at the queue's head."};
constexpr StatsMetric kRecords{"records", StatsUnit::kCount,
                               "Log records the replay read, from each log's checkpoint position."};
constexpr StatsMetric kJournal{"journal", StatsUnit::kBytes, "Bytes of the channel's data logs and their meta files."};
constexpr StatsMetric kReplay{"replay", StatsUnit::kBytes,
                              "Bytes of data logs the next start replays: from each log's checkpoint position."};
constexpr StatsMetric kReclaimable{"reclaimable", StatsUnit::kBytes,
                                   "Bytes of the logs and metas Flume deletes after its next start."};
constexpr StatsMetric kPayload{"payload", StatsUnit::kBytes, "Body sizes of the queued events."};

// The data_log table: log_space.h's report, and the records replayed.
constexpr StatsMetric kLogJournal{"journal", StatsUnit::kBytes, "Bytes of the data log file."};
constexpr StatsMetric kLogReplay{"replay", StatsUnit::kBytes,
                                 "Bytes of the log the next start replays: from its checkpoint position to its end."};
constexpr StatsMetric kLogPuts{"puts", StatsUnit::kCount,
                               "Put records (events put) of the log the next start replays."};
constexpr StatsMetric kLogTakes{"takes", StatsUnit::kCount,
                                "Take records (events taken) of the log the next start replays."};
constexpr StatsMetric kLogCommits{"commits", StatsUnit::kCount, "Commit records of the log the next start replays."};
constexpr StatsMetric kLogRollbacks{"rollbacks", StatsUnit::kCount,
                                    "Rollback records of the log the next start replays."};
constexpr StatsMetric kLogQueuedItems{"queued_items", StatsUnit::kCount, "Queued events whose put is in the log."};
constexpr StatsMetric kLogQueued{"queued", StatsUnit::kBytes, "Body bytes of the queued events in the log."};
constexpr StatsMetric kPinnedByQueue{"pinned_by_queue", StatsUnit::kCount,
                                     "The queue's reference count of the log: queued events Flume keeps it for."};
constexpr StatsMetric kPinnedByInflight{"pinned_by_inflight", StatsUnit::kCount,
                                        "Events in the log that open transactions put or took."};
constexpr StatsMetric kCurrentWriteLog{"current_write_log", StatsUnit::kCount,
                                       "1 for the newest log of its data dir, the one Flume writes and keeps."};
constexpr StatsMetric kPinnedByLowerLog{"pinned_by_lower_log", StatsUnit::kCount,
                                        "1 when a lower log is in use: Flume deletes only logs below the lowest."};
constexpr StatsMetric kDeletable{"deletable", StatsUnit::kCount,
                                 "1 when Flume deletes the log (and its meta) after its next start."};
constexpr StatsMetric kLogReclaimable{
    "reclaimable", StatsUnit::kBytes,
    "Bytes of the log and its meta that deleting it frees once nothing pins it (0 for the current write log)."};

// The recovery table.
constexpr StatsMetric kChosen{"chosen", StatsUnit::kCount,
                              "1 for the source Flume's next start recovers the queue from, else 0."};

// The header_value table.
constexpr StatsMetric kHeaderQueuedItems{"queued_items", StatsUnit::kCount,
                                         "Queued events with this value of the header."};
constexpr StatsMetric kHeaderQueued{"queued", StatsUnit::kBytes,
                                    "Body bytes of the queued events with this value of the header."};

std::optional<StatsValue> whole(std::uint64_t n) { return StatsValue::whole(n); }

void add_log_rows(const ChannelReplay& replay, const std::vector<LogSpace>& space, StatsEntity* channel) {
  StatsTable& table = channel->table(
      "data_log", {"log"},
      {kLogJournal, kLogReplay, kLogPuts, kLogTakes, kLogCommits, kLogRollbacks, kLogQueuedItems, kLogQueued,
       kPinnedByQueue, kPinnedByInflight, kCurrentWriteLog, kPinnedByLowerLog, kDeletable, kLogReclaimable});
  for (const LogSpace& s : space) {
    const auto counted = replay.logs.find(s.log->file_id());
    const LogReplayCounts c = counted == replay.logs.end() ? LogReplayCounts{} : counted->second;
    table.add_row({s.log->layout().path},
                  {whole(s.bytes), whole(c.read_bytes), whole(c.puts), whole(c.takes), whole(c.commits),
                   whole(c.rollbacks), whole(s.queued.events), whole(s.queued.bytes),
                   whole(static_cast<std::uint64_t>(std::max<std::int64_t>(s.reference_count, 0))), whole(s.inflight),
                   whole(s.current_write_log), whole(s.pinned_by_lower_log), whole(s.deletable), whole(s.reclaimable)});
  }
}

// The reason in each row of the recovery table, as replay_channel's
// choose_checkpoint decides (spec §1.5, §4). Returned from ifs, not
// conditional expressions, so that tests/man/check_codes.sh does not take
// these labels for finding codes.
const char* checkpoint_reason(bool has_checkpoint, ReplaySource source) {
  if (source == ReplaySource::kCheckpoint) return "opens";
  if (has_checkpoint) return "refused";
  return "absent";
}

const char* backup_reason(const BackupFiles* b, ReplaySource source) {
  if (b == nullptr) return "not_configured";
  if (!b->complete) return "incomplete";
  if (!b->checkpoint && !b->checkpoint_snappy) return "empty";
  if (source == ReplaySource::kBackup) return "restored";
  if (source == ReplaySource::kLogs) return "refused";
  return "not_needed";
}

const char* logs_reason(bool has_checkpoint, ReplaySource source) {
  if (source != ReplaySource::kLogs) return "not_needed";
  if (has_checkpoint) return "no_usable_checkpoint";
  return "new_channel";
}

// Why each source is or is not the one recovered: one row per source.
void add_recovery_rows(const ChannelLayout& layout, ReplaySource source, StatsEntity* channel) {
  const bool has_checkpoint = layout.checkpoint.checkpoint || layout.checkpoint.checkpoint_meta;
  const char* checkpoint = checkpoint_reason(has_checkpoint, source);
  const char* backup = backup_reason(layout.backup ? &*layout.backup : nullptr, source);
  const char* logs = logs_reason(has_checkpoint, source);
  StatsTable& table = channel->table("recovery", {"source", "reason"}, {kChosen});
  table.add_row({replay_source_name(ReplaySource::kCheckpoint), checkpoint},
                {whole(source == ReplaySource::kCheckpoint)});
  table.add_row({replay_source_name(ReplaySource::kBackup), backup}, {whole(source == ReplaySource::kBackup)});
  table.add_row({replay_source_name(ReplaySource::kLogs), logs}, {whole(source == ReplaySource::kLogs)});
}

void add_header_rows(const std::vector<HeaderTally>& headers, StatsEntity* channel) {
  if (headers.empty()) return;
  StatsTable& table = channel->table("header_value", {"header", "group", "value"}, {kHeaderQueuedItems, kHeaderQueued});
  for (const HeaderTally& h : headers) {
    const HeaderTally::Summary s = h.summary();
    for (const HeaderTally::Row& row : s.top)
      table.add_row({h.key(), "value", row.value}, {whole(row.tally.events), whole(row.tally.bytes)});
    table.add_row({h.key(), "other", ""}, {whole(s.other.events), whole(s.other.bytes)});
    table.add_row({h.key(), "absent", ""}, {whole(s.absent.events), whole(s.absent.bytes)});
  }
}

}  // namespace

ChannelStats::ChannelStats(const std::vector<std::string>& by_header) {
  std::set<std::string> seen;
  for (const std::string& key : by_header)
    if (seen.insert(key).second) headers_.emplace_back(key);
}

void ChannelStats::add_event(EventPointer pointer, const LogRecord& put) {
  payload_.add(put.body.size());
  queued_.add(pointer, put);
  for (HeaderTally& h : headers_) h.add(put);
}

void ChannelStats::fill(const ChannelLayout& layout, const ChannelLogs& logs, const ChannelReplay& replay,
                        StatsModel* model) const {
  StatsEntity& channel = model->entity("channel", {{"format", "flume"}, {"path", layout.checkpoint.dir}});
  if (replay.queue) {
    const EventQueue& queue = *replay.queue;
    channel.set(kCapacity, StatsValue::whole(static_cast<std::uint64_t>(queue.capacity())));
    channel.set(kQueuedItems, StatsValue::whole(static_cast<std::uint64_t>(queue.size())));
    channel.set(kFill, StatsValue::fraction(static_cast<double>(queue.size()) / queue.capacity()));
  }
  channel.set(kQueued, StatsValue::whole(payload_.sum()));
  channel.set(kOpenTransactions, StatsValue::whole(replay.open_transactions));
  channel.set(kInflightPuts, StatsValue::whole(replay.inflight_puts));
  channel.set(kInflightTakes, StatsValue::whole(replay.inflight_takes));
  channel.set(kRecords, StatsValue::whole(replay.counts.read));
  const std::vector<LogSpace> space = log_space(logs, replay, queued_);
  std::uint64_t journal = 0, reclaimable = 0, replayed = 0;
  for (const LogSpace& s : space) {
    journal += s.bytes + s.meta_bytes;
    if (s.deletable) reclaimable += s.reclaimable;
  }
  for (const auto& [file_id, c] : replay.logs) replayed += c.read_bytes;
  channel.set(kJournal, StatsValue::whole(journal));
  channel.set(kReplay, StatsValue::whole(replayed));
  channel.set(kReclaimable, StatsValue::whole(reclaimable));
  channel.set(kPayload, payload_.distribution());
  add_log_rows(replay, space, &channel);
  add_recovery_rows(layout, replay.source, &channel);
  add_header_rows(headers_, &channel);
}

}  // namespace qjt::flume
