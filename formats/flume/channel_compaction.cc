#include "flume/channel_compaction.h"

#include <openssl/rand.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <utility>

#include <fmt/format.h>

#include "failpoint.h"
#include "flume/channel_sink.h"
#include "flume/log_metadata.h"
#include "flume/log_writer.h"

namespace qjt::flume {
namespace {

namespace fs = std::filesystem;

constexpr std::int16_t kPutCommit = 1;

// The highest transaction or write order id the input shows: Flume seeds
// both of its oracles from the same figures at start.
std::int64_t highest_id(const ChannelLogs& logs, const ChannelReplay& replay) {
  std::int64_t id = std::max({replay.checkpoint_write_order_id, replay.max_transaction_id, replay.max_write_order_id});
  for (const ChannelLog& log : logs.logs()) {
    if (const auto& meta = log.metadata())
      id = std::max({id, meta->checkpoint_write_order_id, meta->backup_checkpoint_write_order_id.value_or(0)});
    if (const auto& header = log.v2_header()) id = std::max(id, header->checkpoint_write_order_id);
  }
  return id;
}

std::optional<std::string> newest_key_alias(const ChannelLogs& logs) {
  std::optional<std::string> alias;
  for (const ChannelLog& log : logs.logs())
    if (log.metadata() && log.metadata()->encryption) alias = log.metadata()->encryption->key_alias;
  return alias;
}

// Where a record of the new channel goes: data dir `dir` (`put`: an
// event's, else a commit); returns its pointer.
using RecordOut = std::function<std::optional<EventPointer>(std::size_t dir, std::string* record, bool put)>;

// The queue's events as the new channel's transactions (see the header).
class TransactionStream {
 public:
  // Transaction ids and write order ids both count up from first_id, as
  // Flume's two oracles do from their common seed.
  TransactionStream(std::int64_t first_id, std::size_t dirs, RecordOut out)
      : next_transaction_id_(first_id), next_write_order_id_(first_id), dirs_(dirs), out_(std::move(out)) {}

  bool add(const LogRecord& put) {
    if (in_transaction_ == 0) {
      transaction_id_ = next_transaction_id_++;
      dir_ = static_cast<std::size_t>(transaction_id_ % static_cast<std::int64_t>(dirs_));
    }
    headers_.clear();
    for (const EventHeader& h : put.headers) headers_.push_back(HeaderToWrite{h.key.as_chars(), h.value.as_chars()});
    scratch_.clear();
    writer_.put(&scratch_, transaction_id_, next_write_order_id_++, headers_, put.body.as_chars());
    const auto at = out_(dir_, &scratch_, true);
    if (!at) return false;
    queue_.push_back(*at);
    return ++in_transaction_ < kEventsPerTransaction || commit();
  }

  bool finish() { return in_transaction_ == 0 || commit(); }

  const std::vector<EventPointer>& queue() const { return queue_; }
  // The checkpoint's write order id: above every record's.
  std::int64_t checkpoint_write_order_id() { return next_write_order_id_++; }

 private:
  bool commit() {
    in_transaction_ = 0;
    scratch_.clear();
    writer_.commit(&scratch_, transaction_id_, next_write_order_id_++, kPutCommit);
    return out_(dir_, &scratch_, false).has_value();
  }

  std::int64_t next_transaction_id_, next_write_order_id_;
  std::size_t dirs_;
  RecordOut out_;
  std::int64_t transaction_id_ = 0;
  std::size_t dir_ = 0;
  std::uint64_t in_transaction_ = 0;
  std::vector<EventPointer> queue_;
  std::vector<HeaderToWrite> headers_;
  std::string scratch_;
  V3RecordWriter writer_;  // in clear: the sink encrypts
};

// The new channel's logs as ChannelSink will write them, measured: each
// data dir's logs, rolled as the sink rolls them, and their metas.
class NewLogs {
 public:
  explicit NewLogs(std::size_t dirs) {
    for (std::size_t d = 0; d < dirs; ++d) open(d);
  }

  std::optional<EventPointer> add(std::size_t dir, const std::string& record, bool put) {
    if (rolls_over(logs_[current_[dir]].bytes, record.size(), kFlumeMaxLogSize)) open(dir);
    Log& log = logs_[current_[dir]];
    log.bytes += record.size();
    log.puts += put ? 1 : 0;
    return EventPointer{};
  }

  // The logs' and metas' bytes into *plan (bytes_after, bytes_per_dir).
  void count(std::int32_t first_file_id, const std::optional<std::string>& key_alias,
             std::int64_t checkpoint_write_order_id, CompactionPlan* plan) const {
    const std::string iv(16, '\0');  // its length is what counts
    for (std::size_t i = 0; i < logs_.size(); ++i) {
      const Log& log = logs_[i];
      const LogMetadata meta = marked_log_meta(first_file_id + static_cast<std::int32_t>(i), log.bytes, key_alias, iv,
                                               current_[log.dir] == i, log.puts > 0, checkpoint_write_order_id);
      const std::uint64_t bytes = log.bytes + encode_log_metadata(meta).size();
      plan->bytes_per_dir[log.dir] += bytes;
      plan->bytes_after += bytes;
    }
  }

 private:
  struct Log {
    std::size_t dir = 0;
    std::uint64_t bytes = 0;
    std::uint64_t puts = 0;
  };
  void open(std::size_t dir) {
    current_.resize(std::max(current_.size(), dir + 1));
    current_[dir] = logs_.size();
    logs_.push_back(Log{dir, 0, 0});
  }
  std::vector<Log> logs_;
  std::vector<std::size_t> current_;
};

// Forwards findings, counting the queued pointers Flume skips (NOOP'd records).
class SkipCounter : public Reporter {
 public:
  explicit SkipCounter(Reporter* next) : next_(next) {}
  void report(Finding finding) override {
    if (finding.code == "pointer_to_noop") ++skipped;
    next_->report(std::move(finding));
  }
  std::uint64_t skipped = 0;

 private:
  Reporter* next_;
};

bool random_iv(std::string* iv, std::string* error) {
  unsigned char bytes[12];
  if (RAND_bytes(bytes, sizeof bytes) != 1) {
    *error = "cannot make a random IV for an encrypted log (OpenSSL's RAND_bytes failed)";
    return false;
  }
  iv->assign(reinterpret_cast<const char*>(bytes), sizeof bytes);
  return true;
}

bool same_event(const LogRecord& a, const LogRecord& b) {
  if (a.body.as_chars() != b.body.as_chars() || a.headers.size() != b.headers.size()) return false;
  for (std::size_t i = 0; i < a.headers.size(); ++i)
    if (a.headers[i].key.as_chars() != b.headers[i].key.as_chars() ||
        a.headers[i].value.as_chars() != b.headers[i].value.as_chars())
      return false;
  return true;
}

void mismatch(Reporter* reporter, const std::string& file, std::string message) {
  reporter->report(Finding{Severity::kError, "compacted_mismatch", file, std::nullopt, std::move(message)});
}

// The input's events, head to tail, against the new queue's: each must be
// the same event. Input pointers Flume skips (NOOP'd records) have no copy.
bool same_events(const ChannelLogs& input_logs, const EventQueue& input, const ChannelLogs& output_logs,
                 const EventQueue& output, const std::string& where, Reporter* reporter) {
  LogRecord a, b;
  std::string why;
  std::size_t j = 0;
  for (std::size_t i = 0; i < static_cast<std::size_t>(input.size()); ++i) {
    if (input_logs.read_pointer(input.at(i), &a, &why) != PointerTarget::kPut) continue;
    if (j == static_cast<std::size_t>(output.size())) {
      mismatch(reporter, where, fmt::format("the new queue ends after {} events; the input's goes on", j));
      return false;
    }
    const EventPointer p = output.at(j);
    if (output_logs.read_pointer(p, &b, &why) != PointerTarget::kPut || !same_event(a, b)) {
      mismatch(reporter, where,
               fmt::format("event {} of the new queue (log-{} offset {}) is not the input's event {}{}", j, p.file_id,
                           p.offset, i, why.empty() ? "" : ": " + why));
      return false;
    }
    ++j;
  }
  if (j != static_cast<std::size_t>(output.size())) {
    mismatch(reporter, where, fmt::format("the new queue holds {} events, the input's {}", output.size(), j));
    return false;
  }
  return true;
}

}  // namespace

CompactionPlan plan_compaction(const ChannelLayout& layout, const ChannelLogs& logs, const ChannelReplay& replay,
                               std::size_t target_dirs, Reporter* reporter) {
  CompactionPlan plan;
  plan.first_id = highest_id(logs, replay) + 1;
  for (const ChannelLog& log : logs.logs()) plan.first_file_id = std::max(plan.first_file_id, log.file_id() + 1);
  plan.key_alias = newest_key_alias(logs);
  plan.bytes_per_dir.assign(std::max<std::size_t>(target_dirs, 1), 0);
  QueuedByLog queued;
  if (replay.queue) {
    NewLogs new_logs(plan.bytes_per_dir.size());
    TransactionStream stream(
        plan.first_id, plan.bytes_per_dir.size(),
        [&new_logs](std::size_t dir, std::string* record, bool put) { return new_logs.add(dir, *record, put); });
    SkipCounter skips(reporter);
    plan.events = for_each_queued_event(*replay.queue, logs, layout.checkpoint.dir, &skips,
                                        [&](std::size_t, EventPointer p, const LogRecord& put) {
                                          queued.add(p, put);
                                          stream.add(put);
                                        });
    stream.finish();
    new_logs.count(plan.first_file_id, plan.key_alias, stream.checkpoint_write_order_id(), &plan);
    plan.skipped = skips.skipped;
  }
  plan.logs = log_space(logs, replay, queued);
  for (const LogSpace& s : plan.logs) plan.bytes_before += s.bytes + s.meta_bytes;
  return plan;
}

std::optional<CompactionResult> write_compacted(const ChannelLogs& logs, const ChannelReplay& replay,
                                                const KeyRing& keys, const CompactionPlan& plan,
                                                const CompactionTarget& target, std::string* error) {
  ChannelSinkOptions options;
  options.checkpoint_dir = target.checkpoint_dir;
  options.data_dirs = target.data_dirs;
  options.first_file_id = plan.first_file_id;
  options.force = target.force;
  if (plan.key_alias) {
    const auto key = keys.find(*plan.key_alias);
    if (key == keys.end()) {
      *error = fmt::format("the channel's logs are encrypted under key alias '{}': give --key {}=HEX", *plan.key_alias,
                           *plan.key_alias);
      return std::nullopt;
    }
    options.key_alias = plan.key_alias;
    options.key = key->second;
    options.make_iv = random_iv;
  }
  ChannelSink sink(std::move(options));
  if (!sink.open(error)) return std::nullopt;
  TransactionStream stream(
      plan.first_id, target.data_dirs.size(),
      [&sink, error](std::size_t dir, std::string* record, bool) { return sink.append(dir, record, error); });
  bool written = true;
  FindingList told_in_the_plan;
  for_each_queued_event(*replay.queue, logs, target.checkpoint_dir, &told_in_the_plan,
                        [&](std::size_t, EventPointer, const LogRecord& put) { written = written && stream.add(put); });
  if (!written || !stream.finish() || !sink.close_logs(error)) return std::nullopt;
  failpoint("flume_compact.logs_written");
  CheckpointToWrite checkpoint;
  checkpoint.write_order_id = stream.checkpoint_write_order_id();
  checkpoint.capacity = replay.queue->capacity();
  checkpoint.queue = stream.queue();
  if (!write_checkpoint(checkpoint, &sink, error)) return std::nullopt;
  failpoint("flume_compact.checkpoint_written");
  const std::string what =
      target.staged ? "" : fmt::format("the compacted channel was written to {}", target.checkpoint_dir);
  if (!sink.install(what, error)) return std::nullopt;
  failpoint("flume_compact.installed");
  CompactionResult result;
  result.logs = sink.logs();
  result.key_alias = plan.key_alias;
  result.bytes = sink.total_bytes();
  result.checkpoint_write_order_id = checkpoint.write_order_id;
  for (const SinkLog& log : sink.logs()) {
    result.files.push_back(log.path);
    result.files.push_back(log.path + ".meta");
  }
  for (const char* name : {"checkpoint", "checkpoint.meta", "inflightputs", "inflighttakes"})
    result.files.push_back((fs::path(target.checkpoint_dir) / name).string());
  return result;
}

bool check_compacted(const ChannelLogs& input_logs, const ChannelReplay& input, const CompactionTarget& target,
                     const KeyRing& keys, Reporter* reporter, std::int32_t first_new_file_id) {
  FindingList findings;
  const ChannelLayout layout =
      discover_channel(ChannelDirs{target.checkpoint_dir, target.data_dirs, std::nullopt}, &findings, false);
  const ChannelLogs logs(layout.logs, keys, &findings);
  const ChannelReplayOptions options{input.queue->capacity(), nullptr};
  const ChannelReplay replay = replay_channel(layout, logs, options, &findings);
  // Lost checkpoint: Flume replays every log from its start.
  ChannelLayout logs_only = layout;
  logs_only.checkpoint = CheckpointFiles{layout.checkpoint.dir, true, {}, {}, {}, {}, {}, {}, {}};
  // Beside old logs, only the new ones, opened apart; else the logs opened above.
  std::optional<ChannelLogs> new_logs;
  if (std::erase_if(logs_only.logs, [first_new_file_id](const DataLog& l) { return l.file_id < first_new_file_id; }))
    new_logs.emplace(logs_only.logs, keys, &findings);
  const ChannelReplay full = replay_channel(logs_only, new_logs ? *new_logs : logs, options, &findings);
  const std::string& where = target.checkpoint_dir;
  if (findings.count(Severity::kError) != 0) {
    const auto first = std::find_if(findings.findings().begin(), findings.findings().end(),
                                    [](const Finding& f) { return f.severity == Severity::kError; });
    mismatch(reporter, first->file, fmt::format("the new channel does not replay cleanly: {}", first->message));
    return false;
  }
  if (replay.source != ReplaySource::kCheckpoint || !replay.queue || !full.queue) {
    mismatch(reporter, where, "Flume would not start from the new checkpoint");
    return false;
  }
  if (!std::equal(replay.queue->begin(), replay.queue->end(), full.queue->begin(), full.queue->end())) {
    mismatch(reporter, where, "the new logs replayed without the checkpoint give another queue than the checkpoint");
    return false;
  }
  return same_events(input_logs, *input.queue, logs, *replay.queue, where, reporter);
}

}  // namespace qjt::flume
