#include "flume/channel_replay.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <memory>
#include <queue>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "flume/checkpoint_file.h"
#include "flume/checkpoint_state.h"
#include "flume/inflight_multimap.h"
#include "flume/log_space.h"
#include "flume/snappy_stream.h"
#include "input_file.h"

namespace qjt::flume {
namespace {

constexpr std::int64_t kDefaultCapacity = 1000000;  // FileChannel's default "capacity"

void tell(Reporter* reporter, Severity severity, std::string code, const std::string& file,
          std::optional<std::uint64_t> offset, std::string message) {
  reporter->report(Finding{severity, std::move(code), file, offset, std::move(message)});
}

// Keeps the inputs of one checkpoint's files open for as long as the
// CheckpointBytes that view them.
class CheckpointInputs {
 public:
  explicit CheckpointInputs(const FileOverlay* overlay = nullptr) : overlay_(overlay) {}

  std::optional<ByteSpan> open(const std::optional<std::string>& path, Reporter* reporter) {
    if (!path) return std::nullopt;
    if (const std::string* planned = planned_content(overlay_, *path)) return ByteSpan(*planned);
    std::string error;
    auto input = InputFile::open(*path, &error);
    if (!input) {
      tell(reporter, Severity::kError, "io_error", *path, std::nullopt, error);
      return std::nullopt;
    }
    inputs_.push_back(std::move(input));
    return inputs_.back()->bytes();
  }
  // Keeps a decompressed copy alive (checkpoint.snappy).
  ByteSpan keep(std::string bytes) {
    buffers_.push_back(std::make_unique<std::string>(std::move(bytes)));
    return ByteSpan(*buffers_.back());
  }

 private:
  const FileOverlay* overlay_;
  std::vector<std::unique_ptr<InputFile>> inputs_;
  std::vector<std::unique_ptr<std::string>> buffers_;
};

CheckpointBytes files_of(const CheckpointFiles& c, CheckpointInputs* inputs, Reporter* reporter) {
  CheckpointBytes bytes;
  bytes.checkpoint_path = c.checkpoint.value_or(c.dir + "/checkpoint");
  bytes.checkpoint = inputs->open(c.checkpoint, reporter);
  bytes.meta_path = c.checkpoint_meta.value_or(c.dir + "/checkpoint.meta");
  bytes.meta = inputs->open(c.checkpoint_meta, reporter);
  bytes.inflight_puts_path = c.inflight_puts.value_or("");
  bytes.inflight_puts = inputs->open(c.inflight_puts, reporter);
  bytes.inflight_takes_path = c.inflight_takes.value_or("");
  bytes.inflight_takes = inputs->open(c.inflight_takes, reporter);
  return bytes;
}

bool backup_usable(const ChannelLayout& layout) {
  return layout.backup && layout.backup->complete && (layout.backup->checkpoint || layout.backup->checkpoint_snappy);
}

std::optional<std::string> decompressed_checkpoint(const std::string& path, CheckpointInputs* inputs,
                                                   Reporter* reporter) {
  const auto compressed = inputs->open(path, reporter);
  if (!compressed) return std::nullopt;
  const std::size_t limit = (static_cast<std::size_t>(EventQueue::kMaxCapacity) + kCheckpointHeaderSlots) * 8;
  SnappyStreamDecode plain = decompress_snappy_stream(*compressed, limit, path, reporter);
  if (!plain.complete) return std::nullopt;
  return std::move(plain.data);
}

// Step 1: which checkpoint Flume starts from, or none (a full replay).
std::optional<CheckpointState> choose_checkpoint(const ChannelLayout& layout, const ChannelReplayOptions& options,
                                                 ReplaySource* source, Reporter* reporter) {
  const CheckpointFiles& main = layout.checkpoint;
  const bool has_checkpoint = main.checkpoint.has_value();
  std::optional<CheckpointState> state;
  if (has_checkpoint) {
    CheckpointInputs inputs(options.overlay);
    const CheckpointBytes bytes = files_of(main, &inputs, reporter);
    if (bytes.checkpoint && !bytes.checkpoint->empty()) {
      state = load_checkpoint(bytes, CheckpointLoadOptions{options.capacity}, reporter);
    }
    if (state) {
      *source = ReplaySource::kCheckpoint;
      return state;
    }
  } else if (!main.checkpoint_meta && !backup_usable(layout)) {
    *source = ReplaySource::kLogs;  // a new channel: nothing to refuse
    return std::nullopt;
  }
  const std::string path = main.checkpoint.value_or(main.dir + "/checkpoint");
  if (backup_usable(layout)) {
    tell(reporter, Severity::kError, "checkpoint_unusable", path, std::nullopt,
         fmt::format("Flume refuses this checkpoint (BadCheckpointException) and restores the backup "
                     "checkpoint in {}",
                     layout.backup->dir));
    state = load_backup(*layout.backup, options.capacity, reporter);
    if (state) {
      *source = ReplaySource::kBackup;
      return state;
    }
    tell(reporter, Severity::kError, "backup_unusable", layout.backup->dir, std::nullopt,
         "the backup checkpoint cannot be used either: Flume replays every log from its start");
  } else {
    tell(reporter, Severity::kError, "checkpoint_unusable", path, std::nullopt,
         "Flume refuses this checkpoint (BadCheckpointException), deletes it and replays every log "
         "from its start; logs it already deleted are lost to the queue");
  }
  *source = ReplaySource::kLogs;
  return std::nullopt;
}

// The configured capacity when none is given: the one the refused
// checkpoint was made with (Flume checks it against the configuration, so
// they agree), else Flume's default.
std::int64_t capacity_of(const CheckpointFiles& checkpoint, const FileOverlay* overlay) {
  std::error_code error;
  const std::string* planned = checkpoint.checkpoint ? planned_content(overlay, *checkpoint.checkpoint) : nullptr;
  std::uint64_t size = 0;
  if (planned) {
    size = planned->size();
  } else if (checkpoint.checkpoint) {
    size = std::filesystem::file_size(*checkpoint.checkpoint, error);
  }
  if (error || size % 8 != 0 || size / 8 <= kCheckpointHeaderSlots) return kDefaultCapacity;
  return static_cast<std::int64_t>(
      std::min<std::uint64_t>(size / 8 - kCheckpointHeaderSlots, EventQueue::kMaxCapacity));
}

int type_rank(LogRecordType type) {  // LogRecord.compareTo: Take < Put < Rollback < Commit
  switch (type) {
    case LogRecordType::kTake:
      return 0;
    case LogRecordType::kPut:
      return 1;
    case LogRecordType::kRollback:
      return 2;
    default:
      return 3;
  }
}

struct Cursor {
  const ChannelLog* log;
  LogReader reader;
  LogRecord record;
};

// Steps 2 and 3: the merge of every log and ReplayHandler's transaction rules.
class Replayer {
 public:
  Replayer(ChannelReplay* result, Reporter* reporter) : result_(*result), reporter_(reporter) {}

  // The inflight files as Flume's HashMultimaps hold them: an open put
  // transaction's events in its HashSet's order (the order its commit
  // would add them in), duplicates once.
  void seed(const std::vector<InflightTransaction>& puts, const std::vector<InflightTransaction>& takes) {
    InflightMultimap put_map;
    for (const auto& t : puts)
      for (EventPointer p : t.pointers) put_map.put(t.transaction_id, p);
    for (auto& [txid, pointers] : put_map.entries()) transactions_[txid].pointers = std::move(pointers);
    for (const auto& t : takes)
      for (EventPointer p : t.pointers) inflight_takes_.put(t.transaction_id, p);
  }

  void run(const ChannelLogs& logs, std::int64_t checkpoint_woid) {
    std::vector<Cursor> cursors;
    cursors.reserve(logs.logs().size());
    for (const ChannelLog& log : logs.logs()) {
      if (!log.readable()) continue;
      cursors.push_back(Cursor{&log, log.reader(log.replay_start(checkpoint_woid)), LogRecord{}});
    }
    auto later = [&cursors](std::size_t a, std::size_t b) {
      const LogRecord& x = cursors[a].record;
      const LogRecord& y = cursors[b].record;
      if (x.write_order_id != y.write_order_id) return x.write_order_id > y.write_order_id;
      if (x.transaction_id != y.transaction_id) return x.transaction_id > y.transaction_id;
      if (type_rank(x.type) != type_rank(y.type)) return type_rank(x.type) > type_rank(y.type);
      return a > b;
    };
    std::priority_queue<std::size_t, std::vector<std::size_t>, decltype(later)> heap(later);
    std::vector<LogReplayCounts> per_log(cursors.size());
    for (std::size_t i = 0; i < cursors.size(); ++i)
      if (advance(&cursors[i])) heap.push(i);
    while (!heap.empty()) {
      const std::size_t i = heap.top();
      heap.pop();
      // A log's records stay with it while they come before every other
      // log's next one: logs written one after another merge at no cost.
      do {
        apply(*cursors[i].log, cursors[i].record, checkpoint_woid, &per_log[i]);
        if (!advance(&cursors[i])) break;
        if (!heap.empty() && later(i, heap.top())) {
          heap.push(i);
          break;
        }
      } while (true);
    }
    for (std::size_t i = 0; i < cursors.size(); ++i) {
      // Each cursor now holds the record that ended its log: the end of its data, or what stopped it.
      const std::uint64_t start = cursors[i].log->replay_start(checkpoint_woid);
      per_log[i].read_bytes = cursors[i].record.offset > start ? cursors[i].record.offset - start : 0;
      result_.logs[cursors[i].log->file_id()] = per_log[i];
    }
  }

  // The transactions left open by the logs, before finish() settles them
  // as Flume's start does.
  void count_open() {
    for (const auto& [txid, t] : transactions_) {
      result_.inflight_takes += t.takes;
      result_.inflight_puts += t.pointers.size() - t.takes;
      for (EventPointer p : t.pointers) ++result_.logs[p.file_id].inflight;
    }
    for (const auto& [txid, pointers] : inflight_takes_.entries()) {
      result_.inflight_takes += pointers.size();
      for (EventPointer p : pointers) ++result_.logs[p.file_id].inflight;
      if (transactions_.count(txid) == 0) ++result_.open_transactions;
    }
    result_.open_transactions += transactions_.size();
  }

  void finish(const std::string& where) {
    EventQueue& queue = *result_.queue;
    // ReplayHandler walks inflightTakes.keySet() and each key's set,
    // calling addHead for each: the last one walked ends up first.
    for (const auto& entry : inflight_takes_.entries()) {
      for (EventPointer p : entry.pointers) {
        ++result_.counts.uncommitted_takes;
        if (!queue.add_head(p))
          tell(reporter_, Severity::kError, "uncommitted_take_lost", where, std::nullopt,
               fmt::format("the uncommitted take of log-{} offset {} cannot go back to the full queue "
                           "(capacity {}): Flume ignores the refusal and the event is lost",
                           p.file_id, p.offset, queue.capacity()));
      }
    }
    inflight_takes_ = InflightMultimap{};
    for (const auto& [pointer, count] : pending_takes_)
      result_.counts.pending_takes += static_cast<std::uint64_t>(count);
    if (result_.counts.pending_takes > 0)
      tell(reporter_, Severity::kWarning, "pending_takes", where, std::nullopt,
           fmt::format("{} committed take(s) found no put to remove: Flume logs \"Pending takes exist after "
                       "the end of replay. Duplicate messages will exist in destination.\"",
                       result_.counts.pending_takes));
    if (full_refusals_ > 1)
      tell(reporter_, Severity::kError, "queue_full", where, std::nullopt,
           fmt::format("{} committed put(s) in all did not fit the queue's capacity {}", full_refusals_,
                       queue.capacity()));
  }

 private:
  // The next record of the cursor's log that the merge must see: NOOPs are
  // stepped over; the end, a broken record or a failed CRC end the log.
  bool advance(Cursor* c) {
    while (c->reader.next(&c->record)) {
      const LogRecord& r = c->record;
      // Flume replays the record and reads on after it, never seeing what
      // its length swallowed.
      if (r.trailing_bytes > 0)
        tell(reporter_, Severity::kError, "trailing_bytes", c->log->layout().path, r.trailing_offset(),
             trailing_bytes_message(r));
      switch (r.type) {
        case LogRecordType::kNoop:
          ++result_.counts.noops;
          continue;
        case LogRecordType::kEndOfData:
          if (c->reader.data_after_end_fill()) result_.stopped_at[c->log->file_id()] = r.offset;
          return false;
        case LogRecordType::kBroken:
          refuse_record(*c->log, r, "broken_record", r.error);
          return false;
        case LogRecordType::kPut:
          if (!r.crc_ok) {
            // The same words as dump's: the body's range is its place in
            // the file, also for an encrypted log.
            refuse_record(*c->log, r, "crc_mismatch", crc_mismatch_message(r));
            return false;
          }
          return true;
        default:
          return true;
      }
    }
    return false;
  }

  void refuse_record(const ChannelLog& log, const LogRecord& r, const char* code, const std::string& what) {
    result_.stopped_at[log.file_id()] = r.offset;
    tell(reporter_, Severity::kError, code, log.layout().path, r.offset,
         fmt::format("{}; Flume's replay stops here and, with fsyncPerTransaction=true (the default), "
                     "the channel does not start (\"Please run File Channel Integrity tool\")",
                     what));
  }

  void apply(const ChannelLog& log, const LogRecord& r, std::int64_t checkpoint_woid, LogReplayCounts* counts) {
    ++result_.counts.read;
    result_.max_transaction_id = std::max(result_.max_transaction_id, r.transaction_id);
    result_.max_write_order_id = std::max(result_.max_write_order_id, r.write_order_id);
    if (r.write_order_id <= checkpoint_woid) {
      ++result_.counts.skipped;
      return;
    }
    switch (r.type) {
      case LogRecordType::kPut:
        ++result_.counts.puts;
        ++counts->puts;
        transactions_[r.transaction_id].pointers.push_back(
            EventPointer{log.file_id(), static_cast<std::int32_t>(r.offset)});
        break;
      case LogRecordType::kTake: {
        ++result_.counts.takes;
        ++counts->takes;
        Transaction& t = transactions_[r.transaction_id];
        t.pointers.push_back(r.taken);
        ++t.takes;
        break;
      }
      case LogRecordType::kRollback:
        ++result_.counts.rollbacks;
        ++counts->rollbacks;
        transactions_.erase(r.transaction_id);
        break;
      case LogRecordType::kCommit:
        ++counts->commits;
        commit(log, r);
        break;
      default:
        break;
    }
  }

  void commit(const ChannelLog& log, const LogRecord& r) {
    ++result_.counts.commits;
    std::vector<EventPointer> pointers;
    if (auto it = transactions_.find(r.transaction_id); it != transactions_.end()) {
      pointers = std::move(it->second.pointers);
      transactions_.erase(it);
    }
    const std::size_t from_log = pointers.size();
    if (r.commit_type == 2) {
      const std::vector<EventPointer> restored = inflight_takes_.remove_all(r.transaction_id);
      pointers.insert(pointers.end(), restored.begin(), restored.end());
    }
    if (pointers.empty()) return;
    if (r.commit_type == 1) {
      for (EventPointer p : pointers) commit_put(log, r, p);
    } else if (r.commit_type == 2) {
      // Flume also files the inflight takes it cannot find as pending, and
      // logs that duplicates will follow; but those events left the queue
      // before the checkpoint, so nothing is duplicated and qjt does not
      // count them. Only a take from the logs whose put is not there yet is.
      for (std::size_t i = 0; i < pointers.size(); ++i)
        if (!result_.queue->remove(pointers[i]) && i < from_log) ++pending_takes_[pointers[i].to_long()];
    } else {
      tell(reporter_, Severity::kError, "unknown_commit_type", log.layout().path, r.offset,
           fmt::format("expected a commit of type 1 (put) or 2 (take), found {}: Flume's replay throws "
                       "IllegalArgumentException",
                       r.commit_type));
    }
  }

  void commit_put(const ChannelLog& log, const LogRecord& r, EventPointer p) {
    EventQueue& queue = *result_.queue;
    if (!queue.add_tail(p)) {
      if (full_refusals_++ == 0)
        tell(reporter_, Severity::kError, "queue_full", log.layout().path, r.offset,
             fmt::format("the commit adds log-{} offset {} to a full queue (size {}, inflight takes {}, "
                         "capacity {}): Flume's replay throws IllegalStateException \"Unable to add\"",
                         p.file_id, p.offset, queue.size(), queue.inflight_takes(), queue.capacity()));
      return;
    }
    const auto pending = pending_takes_.find(p.to_long());
    if (pending != pending_takes_.end()) {
      if (--pending->second == 0) pending_takes_.erase(pending);
      queue.remove(p);
    }
  }

  // A transaction's pointers in record order (puts and takes alike, as
  // Flume's replay keeps them), and how many of them are takes.
  struct Transaction {
    std::vector<EventPointer> pointers;
    std::uint64_t takes = 0;
  };

  ChannelReplay& result_;
  Reporter* reporter_;
  std::unordered_map<std::int64_t, Transaction> transactions_;
  InflightMultimap inflight_takes_;
  std::unordered_map<std::int64_t, int> pending_takes_;
  std::uint64_t full_refusals_ = 0;
};

void report_anomalies(const EventQueue& queue, const std::string& where, Reporter* reporter) {
  const QueueAnomalies& a = queue.anomalies();
  if (a.dropped_tail_adds > 0)
    tell(reporter, Severity::kError, "queue_anomaly", where, std::nullopt,
         fmt::format("{} put(s) passed Flume's capacity check but found the ring full: Flume counts "
                     "and drops them",
                     a.dropped_tail_adds));
  if (a.missing_reference_counts > 0)
    tell(reporter, Severity::kError, "queue_anomaly", where, std::nullopt,
         fmt::format("{} removal(s) found no reference count for the event's log: Flume throws "
                     "IllegalStateException (\"null counter\")",
                     a.missing_reference_counts));
  if (a.empty_heads_removed > 0)
    tell(reporter, Severity::kError, "queue_anomaly", where, std::nullopt,
         fmt::format("{} removal(s) took an empty slot: Flume throws IllegalStateException", a.empty_heads_removed));
}

// What the dangling pointers into one log share when the log itself is the
// fault, so that they fold into one finding: "" when each is its own.
std::string shared_cause(PointerTarget target, std::int32_t file_id) {
  if (target == PointerTarget::kMissingLog)
    return fmt::format("queue elements point into log-{}, which is in no data directory", file_id);
  if (target == PointerTarget::kUnreadable)
    return fmt::format("queue elements point into log-{}, which cannot be read", file_id);
  return "";
}

}  // namespace

std::optional<CheckpointState> load_backup(const BackupFiles& b, std::optional<std::int64_t> capacity,
                                           Reporter* reporter) {
  CheckpointInputs inputs;
  CheckpointFiles files{
      b.dir, true, b.checkpoint, b.checkpoint_meta, b.inflight_puts, b.inflight_takes, std::nullopt, std::nullopt, {}};
  CheckpointBytes bytes = files_of(files, &inputs, reporter);
  if (!b.checkpoint && b.checkpoint_snappy) {
    bytes.checkpoint_path = *b.checkpoint_snappy;
    auto plain = decompressed_checkpoint(*b.checkpoint_snappy, &inputs, reporter);
    if (!plain) return std::nullopt;
    bytes.checkpoint = inputs.keep(std::move(*plain));
  }
  if (!bytes.checkpoint) return std::nullopt;
  return load_checkpoint(bytes, CheckpointLoadOptions{capacity}, reporter);
}

std::optional<std::string> backup_checkpoint_bytes(const BackupFiles& b, Reporter* reporter) {
  CheckpointInputs inputs;
  if (b.checkpoint) {
    const auto bytes = inputs.open(b.checkpoint, reporter);
    if (!bytes) return std::nullopt;
    return std::string(bytes->as_chars());
  }
  if (b.checkpoint_snappy) return decompressed_checkpoint(*b.checkpoint_snappy, &inputs, reporter);
  return std::nullopt;
}

namespace {

constexpr std::array<std::pair<ReplaySource, const char*>, 3> kReplaySourceNames = {{
    {ReplaySource::kCheckpoint, "checkpoint"},
    {ReplaySource::kBackup, "backup"},
    {ReplaySource::kLogs, "logs"},
}};

}  // namespace

const char* replay_source_name(ReplaySource source) {
  for (const auto& [value, text] : kReplaySourceNames)
    if (value == source) return text;
  return "logs";
}

namespace {

// Whether merging the logs after `state` would skip every record, as
// `known` says of them (ChannelReplayOptions::known_records).
bool skips_every_record(const ChannelReplayOptions::KnownRecords& known, const ChannelLogs& logs,
                        const CheckpointState& state) {
  if (state.write_order_id < known.at_most) return false;
  for (const ChannelLog& log : logs.logs()) {
    if (!log.readable()) continue;
    const auto start = known.starts.find(log.file_id());
    if (start == known.starts.end() || start->second != log.replay_start(state.write_order_id)) return false;
  }
  return true;
}

}  // namespace

ChannelReplay replay_channel(const ChannelLayout& layout, const ChannelLogs& logs, const ChannelReplayOptions& options,
                             Reporter* reporter) {
  ChannelReplay result;
  std::optional<CheckpointState> state = choose_checkpoint(layout, options, &result.source, reporter);
  Replayer replayer(&result, reporter);
  const std::string where = layout.checkpoint.dir;
  if (state) {
    result.checkpoint_version = state->version;
    result.checkpoint_write_order_id = state->write_order_id;
    result.queue = std::move(state->queue);
    replayer.seed(state->inflight_puts, state->inflight_takes);
  } else {
    std::string error;
    result.queue =
        EventQueue::create(options.capacity.value_or(capacity_of(layout.checkpoint, options.overlay)), &error);
    if (!result.queue) {
      tell(reporter, Severity::kError, "bad_capacity", where, std::nullopt, error);
      return result;
    }
  }
  result.max_transaction_id = result.max_write_order_id = result.checkpoint_write_order_id;
  if (!(state && options.known_records && skips_every_record(*options.known_records, logs, *state)))
    replayer.run(logs, result.checkpoint_write_order_id);
  replayer.count_open();
  replayer.finish(where);
  report_anomalies(*result.queue, where, reporter);
  return result;
}

namespace {

// The finding of queue element `i`, whose pointer `p` delivers nothing:
// what read_pointer found there instead (`target`, `why`).
void report_undelivered(std::size_t i, EventPointer p, PointerTarget target, const std::string& why,
                        const ChannelLogs& logs, const std::string& where, Reporter* reporter) {
  const ChannelLog* log = logs.find(p.file_id);
  const std::string file = log ? log->layout().path : where;
  const std::optional<std::uint64_t> offset =
      log ? std::optional<std::uint64_t>(static_cast<std::uint32_t>(p.offset)) : std::nullopt;
  if (target == PointerTarget::kNoop) {
    tell(reporter, Severity::kWarning, "pointer_to_noop", file, offset,
         fmt::format("queue element {} points to log-{} offset {}: {}", i, p.file_id, p.offset, why));
    return;
  }
  reporter->report(Finding{.severity = Severity::kError,
                           .code = "dangling_pointer",
                           .file = file,
                           .offset = offset,
                           .message = fmt::format("queue element {} points to log-{} offset {} ({}): {}", i, p.file_id,
                                                  p.offset, pointer_target_name(target), why),
                           .cause = shared_cause(target, p.file_id)});
}

// Each element of `queue` in order: `delivered(i, p, record)` for one that
// delivers an event (record null when `intact` vouched for it unread),
// else `skipped` and its finding. Returns how many deliver.
template <class Delivered>
std::uint64_t walk_queue(const EventQueue& queue, const ChannelLogs& logs, const std::string& where,
                         const IntactPuts* intact, Reporter* reporter, Delivered delivered,
                         const SkippedEventVisitor& skipped) {
  std::uint64_t count = 0;
  LogRecord record;
  std::string why;
  for (std::size_t i = 0; i < static_cast<std::size_t>(queue.size()); ++i) {
    const EventPointer p = queue.at(i);
    const bool vouched = intact != nullptr && intact->contains(p);
    const PointerTarget target = vouched ? PointerTarget::kPut : logs.read_pointer(p, &record, &why);
    if (target == PointerTarget::kPut) {
      ++count;
      delivered(i, p, vouched ? nullptr : &record);
      continue;
    }
    if (skipped) skipped(p, target);
    report_undelivered(i, p, target, why, logs, where, reporter);
  }
  return count;
}

}  // namespace

std::uint64_t for_each_queued_event(const EventQueue& queue, const ChannelLogs& logs, const std::string& where,
                                    Reporter* reporter, const QueuedEventVisitor& visit,
                                    const SkippedEventVisitor& skipped) {
  return walk_queue(
      queue, logs, where, nullptr, reporter,
      [&](std::size_t i, EventPointer p, const LogRecord* record) { visit(i, p, *record); }, skipped);
}

void IntactPuts::add(std::int32_t file_id, const LogRecord& record) {
  if (record.type == LogRecordType::kPut && record.crc_ok && record.offset <= 0x7FFFFFFF)
    pointers_.push_back(EventPointer{file_id, static_cast<std::int32_t>(record.offset)}.to_long());
}

void IntactPuts::seal() { std::sort(pointers_.begin(), pointers_.end()); }

bool IntactPuts::contains(EventPointer pointer) const {
  return std::binary_search(pointers_.begin(), pointers_.end(), pointer.to_long());
}

std::uint64_t check_queued_events(const EventQueue& queue, const ChannelLogs& logs, const std::string& where,
                                  const IntactPuts& intact, Reporter* reporter, const DeliveredEventVisitor& delivered,
                                  const SkippedEventVisitor& skipped) {
  return walk_queue(
      queue, logs, where, &intact, reporter,
      [&](std::size_t, EventPointer p, const LogRecord*) {
        if (delivered) delivered(p);
      },
      skipped);
}

void check_log_retention(const ChannelLogs& logs, const EventQueue& queue, Reporter* reporter) {
  std::set<std::int32_t> referenced;
  for (EventPointer p : queue) referenced.insert(p.file_id);
  const std::optional<std::int32_t> lowest = lowest_log_in_use(queue);
  for (const std::int32_t id : logs_flume_deletes(logs, queue)) {
    if (referenced.count(id) == 0) continue;
    tell(reporter, Severity::kError, "log_would_be_deleted", logs.find(id)->layout().path, std::nullopt,
         fmt::format("the queue still points into log-{}, but the reference counts name no log below "
                     "{}: Flume deletes this log after its next checkpoint and those events are lost",
                     id, lowest ? fmt::format("log-{}", *lowest) : std::string("any")));
  }
}

}  // namespace qjt::flume
