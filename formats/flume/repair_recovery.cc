#include "flume/repair_recovery.h"

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "flume/channel_replay.h"
#include "flume/log_reader.h"

namespace qjt::flume {
namespace {

namespace fs = std::filesystem;

// The channel as the plan leaves it: the layout naming the files it will
// hold, the new files' contents, and the logs' byte patches.
struct PlannedState {
  ChannelLayout layout;
  FileOverlay overlay;
  std::vector<const FileChange*> patches;
};

// The slot of `files` that `path` fills, or nullptr for another file.
std::optional<std::string>* checkpoint_slot(CheckpointFiles* files, const std::string& path) {
  const std::pair<const char*, std::optional<std::string>*> slots[] = {{"checkpoint", &files->checkpoint},
                                                                       {"checkpoint.meta", &files->checkpoint_meta},
                                                                       {"inflightputs", &files->inflight_puts},
                                                                       {"inflighttakes", &files->inflight_takes}};
  const fs::path wanted = fs::path(path).lexically_normal();
  for (const auto& [name, slot] : slots)
    if ((fs::path(files->dir) / name).lexically_normal() == wanted) return slot;
  return nullptr;
}

PlannedState planned_state(const ChannelLayout& now, const ChannelRepairPlan& plan) {
  PlannedState planned{now, {}, {}};
  CheckpointFiles& checkpoint = planned.layout.checkpoint;
  for (const FileChange& c : plan.changes) {
    std::optional<std::string>* slot = checkpoint_slot(&checkpoint, c.path);
    switch (c.kind) {
      case FileChangeKind::kPatch:
        planned.patches.push_back(&c);
        break;
      case FileChangeKind::kWrite:
        planned.overlay[c.path] = &c.content;
        if (slot) *slot = c.path;
        break;
      case FileChangeKind::kRemove:
        if (slot) slot->reset();
        break;
    }
  }
  for (DataLog& log : planned.layout.logs) {
    const std::string meta = log_meta_path(log);
    if (planned.overlay.count(meta) == 0) continue;
    log.meta_path = meta;
    log.meta_source = MetaSource::kMeta;
  }
  return planned;
}

void preview_patches(const std::vector<const FileChange*>& patches, ChannelLogs* logs) {
  for (const FileChange* c : patches)
    for (const ChannelLog& log : logs->logs())
      if (log.layout().path == c->path)
        for (const BytePatch& p : c->patches) logs->preview_write(log.file_id(), p.offset, ByteSpan(p.after));
}

struct Recovery {
  std::vector<EventPointer> events;  // as take delivers them, head to tail
  std::vector<DeadElement> dead;     // the elements that deliver none
  std::map<std::int32_t, std::uint64_t> stopped_at;
  std::int64_t checkpoint_write_order_id = 0;
  // What its merge of the logs read, when it read them all without a stop:
  // a replay of the same bytes after a checkpoint above them need not read
  // them again (ChannelReplayOptions::known_records).
  std::optional<ChannelReplayOptions::KnownRecords> read;

  // Whether the replay stopped in log `file_id` at or before `offset`.
  bool stopped_before(std::int32_t file_id, std::uint64_t offset) const {
    const auto stop = stopped_at.find(file_id);
    return stop != stopped_at.end() && stop->second <= offset;
  }
};

// `intact`: the puts a scan of `logs` found (read_history), which the
// queue's pointers are checked against rather than read again.
Recovery recover(const ChannelLayout& layout, const ChannelLogs& logs, const ChannelReplayOptions& options,
                 const IntactPuts& intact) {
  FindingList ignored;
  const ChannelReplay replay = replay_channel(layout, logs, options, &ignored);
  Recovery recovery{{}, {}, replay.stopped_at, replay.checkpoint_write_order_id, std::nullopt};
  if (options.known_records == nullptr && replay.stopped_at.empty()) {
    recovery.read.emplace();
    recovery.read->at_most = replay.max_write_order_id;
    for (const ChannelLog& log : logs.logs())
      if (log.readable()) recovery.read->starts[log.file_id()] = log.replay_start(replay.checkpoint_write_order_id);
  }
  if (replay.queue)
    check_queued_events(
        *replay.queue, logs, layout.checkpoint.dir, intact, &ignored,
        [&](EventPointer p) { recovery.events.push_back(p); },
        [&](EventPointer p, PointerTarget target) {
          recovery.dead.push_back(DeadElement{p, target});
        });
  return recovery;
}

bool sorted_contains(const std::vector<EventPointer>& sorted, EventPointer p) {
  return std::binary_search(sorted.begin(), sorted.end(), p);
}

// Whether today's replay read the put at `p` (or a checkpoint that covers
// it): its log is readable and the replay did not stop before it.
bool met_now(EventPointer p, const ChannelLogs& logs, const Recovery& now) {
  const ChannelLog* log = logs.find(p.file_id);
  return log != nullptr && log->readable() && !now.stopped_before(p.file_id, static_cast<std::uint32_t>(p.offset));
}

// Whether a replay that stopped at a broken record before the put `p` or
// its commit would still add the event once that record is mended: its
// commit comes after the checkpoint.
bool behind_a_break(EventPointer p, const Commit& commit, const Recovery& recovery) {
  return (recovery.stopped_before(p.file_id, static_cast<std::uint32_t>(p.offset)) ||
          recovery.stopped_before(commit.file_id, commit.offset)) &&
         commit.write_order_id > recovery.checkpoint_write_order_id;
}

// The puts the operator asked the plan to drop (--drop-event).
std::set<EventPointer> dropped_puts(const ChannelLayout& layout, const ChannelRepairPlan& plan) {
  std::set<EventPointer> dropped;
  for (const FileChange& c : plan.changes)
    for (const DataLog& log : layout.logs)
      if (log.path == c.path)
        for (const IntegrityChange& i : c.integrity)
          if (i.kind == IntegrityChangeKind::kDropped)
            dropped.insert(EventPointer{log.file_id, static_cast<std::int32_t>(i.offset)});
  return dropped;
}

// Whether `planned` reads every log as `now` does: no byte of a log
// changes and each log keeps its id, version, readability and cipher (a
// rebuild rewrites only the marks in its metas). Then the records say the
// same, and the history need not be read again.
bool same_records(const ChannelLogs& now, const ChannelLogs& planned, const PlannedState& state) {
  if (!state.patches.empty() || now.logs().size() != planned.logs().size()) return false;
  for (std::size_t i = 0; i < now.logs().size(); ++i) {
    const ChannelLog& a = now.logs()[i];
    const ChannelLog& b = planned.logs()[i];
    if (a.layout().path != b.layout().path || a.file_id() != b.file_id() || a.version() != b.version() ||
        a.readable() != b.readable() || (a.cipher() == nullptr) != (b.cipher() == nullptr))
      return false;
  }
  return true;
}

std::vector<EventPointer> sorted_unique(std::vector<EventPointer> events) {
  std::sort(events.begin(), events.end());
  events.erase(std::unique(events.begin(), events.end()), events.end());
  return events;
}

// The takes of both histories by event, the planned state's first.
std::vector<Consumption> merged_takes(const std::vector<Consumption>& planned, const std::vector<Consumption>& now) {
  std::vector<Consumption> out;
  out.reserve(planned.size() + now.size());
  std::merge(planned.begin(), planned.end(), now.begin(), now.end(), std::back_inserter(out),
             [](const Consumption& a, const Consumption& b) { return a.event < b.event; });
  out.erase(std::unique(out.begin(), out.end(),
                        [](const Consumption& a, const Consumption& b) { return a.event == b.event; }),
            out.end());
  return out;
}

}  // namespace

RecoveryChange compare_recovery(const ChannelLayout& layout, const KeyRing& keys, const ChannelRepairPlan& plan,
                                std::optional<std::int64_t> capacity) {
  FindingList ignored;
  const ChannelLogs now_logs(layout.logs, keys, &ignored);
  std::optional<LogHistory> read_now;  // unless the plan's own pass gathered it
  if (!plan.history) read_now = read_history(now_logs);
  Recovery now = recover(layout, now_logs, ChannelReplayOptions{capacity, nullptr},
                         plan.history ? plan.history->intact : read_now->intact);
  // Committed puts are consulted only where today's replay stopped, or for
  // puts a damaged length hides.
  if (plan.history && !plan.history->committed_puts_known && (!now.stopped_at.empty() || !plan.history->hidden.empty()))
    read_now = read_history(now_logs);
  const LogHistory& history = read_now ? *read_now : *plan.history;

  const PlannedState planned = planned_state(layout, plan);
  ChannelLogs planned_logs(planned.layout.logs, keys, &ignored, &planned.overlay);
  preview_patches(planned.patches, &planned_logs);
  const bool same = same_records(now_logs, planned_logs, planned);
  std::optional<LogHistory> read_again;
  if (!same) read_again = read_history(planned_logs);
  const LogHistory& planned_history = read_again ? *read_again : history;
  ChannelReplayOptions after_options{capacity, &planned.overlay};
  if (same && now.read) after_options.known_records = &*now.read;
  Recovery after = recover(planned.layout, planned_logs, after_options, planned_history.intact);

  RecoveryChange change;
  change.dead_now = now.dead;
  change.dead_after = after.dead;
  const std::vector<EventPointer> before_set = sorted_unique(now.events);
  const std::vector<EventPointer> after_set = sorted_unique(after.events);
  change.now = std::move(now.events);  // moved, not copied: 8 bytes an event each
  change.after = std::move(after.events);
  const std::set<EventPointer> dropped = dropped_puts(layout, plan);
  // One history when the plan leaves the logs' bytes alone: nothing to merge.
  std::vector<Consumption> merged;
  if (&planned_history != &history) merged = merged_takes(planned_history.taken, history.taken);
  const std::vector<Consumption>& taken = &planned_history == &history ? history.taken : merged;
  // Each event recovered now and not after: dropped, consumed, or lost.
  for (EventPointer p : before_set) {
    if (sorted_contains(after_set, p)) continue;
    const Consumption* take = take_of(taken, p);
    if (dropped.count(p)) {
      change.dropped.push_back(p);
    } else if (take != nullptr) {
      change.consumed.push_back(*take);
    } else {
      change.lost.push_back(p);
    }
  }
  // Committed events today's replay never reached (a broken record before
  // them) that the plan neither recovers nor leaves behind a break.
  for (const auto& [p, commit] : history.committed_puts)
    if (!sorted_contains(before_set, p) && !sorted_contains(after_set, p) && !dropped.count(p) &&
        take_of(taken, p) == nullptr && behind_a_break(p, commit, now) && !behind_a_break(p, commit, after))
      change.lost_unreached.push_back(p);
  // Committed events a damaged length hides from today's replay (its
  // commit after the checkpoint: Flume would replay the put), lost to the
  // damage already, whatever the plan does.
  for (const EventPointer p : history.hidden) {
    const Commit* commit = history.commit_of(p);
    if (commit != nullptr && !sorted_contains(before_set, p) && take_of(taken, p) == nullptr &&
        commit->write_order_id > now.checkpoint_write_order_id)
      change.hidden_now.push_back(p);
  }
  // Each event recovered after and not now: revived when today's replay
  // met its put (not hidden from it), else reached.
  for (EventPointer p : after_set)
    if (!sorted_contains(before_set, p))
      (met_now(p, now_logs, now) && !history.is_hidden(p) ? change.revived : change.reached).push_back(p);
  return change;
}

}  // namespace qjt::flume
