#include "flume/channel_generator.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "flume/aes_ctr.h"
#include "flume/channel_layout.h"
#include "flume/channel_sink.h"
#include "flume/checkpoint_file.h"
#include "flume/checkpoint_meta.h"
#include "flume/checkpoint_rebuilder.h"
#include "flume/inflight_file.h"
#include "flume/log_metadata.h"
#include "flume/log_writer.h"
#include "generated_files.h"
#include "synthetic_data.h"

namespace qjt::flume {
namespace {

namespace fs = std::filesystem;

constexpr std::int16_t kPutCommit = 1;
constexpr std::int16_t kTakeCommit = 2;

// The channel under `dir`: checkpoint/ and data1/ .. dataN/, log ids from
// 1, IVs from the seed (the same options give the same bytes).
ChannelSinkOptions sink_options(const ChannelGeneratorOptions& o, const std::string& dir) {
  ChannelSinkOptions s;
  s.checkpoint_dir = (fs::path(dir) / "checkpoint").string();
  for (std::uint32_t k = 1; k <= o.data_dirs; ++k)
    s.data_dirs.push_back((fs::path(dir) / fmt::format("data{}", k)).string());
  s.max_log_size = o.max_log_size;
  s.key_alias = o.key_alias;
  s.key = o.key;
  s.make_iv = [rng = Rng(o.seed ^ 0x4976734B657973ULL)](std::string* iv, std::string*) mutable {
    for (int i = 0; i < 12; ++i) iv->push_back(static_cast<char>(rng.below(256)));
    return true;
  };
  s.force = o.force;
  return s;
}

// The transaction stream (see the header), written to a ChannelSink.
class ChannelGenerator {
 public:
  ChannelGenerator(const ChannelGeneratorOptions& o, ChannelSink* sink)
      : o_(o), sink_(sink), rng_(o.seed), payloads_(o.seed, false), header_values_(o.seed ^ 0x48656164ULL, false) {
    txid_ = o.start_ms;
    woid_ = o.start_ms;
  }

  bool run(ChannelGeneratorReport* r, std::string* error) {
    for (;;) {
      if (take_due()) {
        if (!take_transaction(false, error)) return false;
      } else if (puts_due()) {
        if (!put_transaction(false, error)) return false;
      } else {
        break;
      }
    }
    for (std::uint32_t i = 0; i < o_.open; ++i) {
      const bool ok = i % 2 == 0 && !queue_.empty() ? take_transaction(true, error) : put_transaction(true, error);
      if (!ok) return false;
    }
    checkpoint_write_order_id_ = ++woid_;
    r->records = records_;
    r->bytes = sink_->total_bytes();
    r->transactions = transactions_;
    r->rollbacks = rollbacks_;
    r->events_put = events_put_;
    r->events_committed = committed_;
    r->events_taken = taken_;
    r->queued = queue_.size();
    r->open_transactions = o_.open;
    r->in_flight_puts = count(inflight_puts_);
    r->in_flight_takes = count(inflight_takes_);
    r->queue_length = r->queued + r->in_flight_takes;
    r->checkpoint_write_order_id = checkpoint_write_order_id_;
    return true;
  }

  const std::deque<EventPointer>& queue() const { return queue_; }
  const std::vector<InflightTransaction>& inflight_puts() const { return inflight_puts_; }
  const std::vector<InflightTransaction>& inflight_takes() const { return inflight_takes_; }
  std::int64_t checkpoint_write_order_id() const { return checkpoint_write_order_id_; }
  std::uint64_t removed() const { return taken_ + count(inflight_takes_); }

 private:
  static std::uint64_t count(const std::vector<InflightTransaction>& transactions) {
    std::uint64_t n = 0;
    for (const auto& t : transactions) n += t.pointers.size();
    return n;
  }

  // Takes still due: a rolled-back take counts, or a rollback share of 1
  // would never end.
  std::uint64_t takes_due() const {
    const auto due = static_cast<std::uint64_t>(std::floor(o_.take_share * static_cast<double>(committed_)));
    return queue_.empty() || take_tries_ >= due ? 0 : due - take_tries_;
  }
  bool take_due() const { return takes_due() > 0; }
  bool puts_due() const { return o_.size > 0 ? sink_->total_bytes() < o_.size : events_put_ < o_.events; }

  std::uint64_t batch() { return 1 + rng_.below(o_.batch); }
  bool rolls_back() { return static_cast<double>(rng_.below(1u << 20)) < o_.rollback_share * (1u << 20); }
  std::size_t dir_of(std::int64_t txid) const { return static_cast<std::size_t>(txid % o_.data_dirs); }

  // Writes scratch_, the record just encoded, to data dir `d`; empties it.
  std::optional<EventPointer> emit(std::size_t d, std::string* error) {
    const auto at = sink_->append(d, &scratch_, error);
    scratch_.clear();
    ++records_;
    return at;
  }

  bool put_transaction(bool leave_open, std::string* error) {
    const std::int64_t txid = ++txid_;
    const std::size_t d = dir_of(txid);
    std::uint64_t n = batch();
    if (o_.size == 0 && !leave_open) n = std::min(n, o_.events - events_put_);
    InflightTransaction puts{txid, {}, 0};
    for (std::uint64_t i = 0; i < n; ++i) {
      encode_put(txid, events_put_ + i);
      const auto at = emit(d, error);
      if (!at) return false;
      puts.pointers.push_back(*at);
    }
    events_put_ += n;
    ++transactions_;
    if (leave_open) {
      inflight_puts_.push_back(std::move(puts));
      return true;
    }
    if (rolls_back()) return end_in_rollback(d, txid, error);
    if (!end_in_commit(d, txid, kPutCommit, error)) return false;
    queue_.insert(queue_.end(), puts.pointers.begin(), puts.pointers.end());
    committed_ += n;
    return true;
  }

  bool take_transaction(bool leave_open, std::string* error) {
    const std::int64_t txid = ++txid_;
    const std::size_t d = dir_of(txid);
    std::uint64_t n = std::min<std::uint64_t>(batch(), queue_.size());
    if (!leave_open) {
      n = std::min(n, takes_due());
      take_tries_ += n;
    }
    for (std::uint64_t i = 0; i < n; ++i) {
      records_writer_.take(&scratch_, txid, ++woid_, queue_[i]);
      if (!emit(d, error)) return false;
    }
    ++transactions_;
    if (leave_open) {
      inflight_takes_.push_back(InflightTransaction{txid, {queue_.begin(), queue_.begin() + static_cast<long>(n)}, 0});
      queue_.erase(queue_.begin(), queue_.begin() + static_cast<long>(n));
      return true;
    }
    if (rolls_back()) return end_in_rollback(d, txid, error);
    if (!end_in_commit(d, txid, kTakeCommit, error)) return false;
    queue_.erase(queue_.begin(), queue_.begin() + static_cast<long>(n));
    taken_ += n;
    return true;
  }

  bool end_in_rollback(std::size_t d, std::int64_t txid, std::string* error) {
    ++rollbacks_;
    records_writer_.rollback(&scratch_, txid, ++woid_);
    return emit(d, error).has_value();
  }

  bool end_in_commit(std::size_t d, std::int64_t txid, std::int16_t type, std::string* error) {
    records_writer_.commit(&scratch_, txid, ++woid_, type);
    return emit(d, error).has_value();
  }

  // Encodes the next event's Put into scratch_.
  void encode_put(std::int64_t txid, std::uint64_t number) {
    const std::uint64_t size = o_.payload_min + rng_.below(std::uint64_t{o_.payload_max} - o_.payload_min + 1);
    payloads_.make(number, size, rng_.below(PayloadMaker::kPatternSize), &body_);
    timestamp_ = std::to_string(o_.start_ms + static_cast<std::int64_t>(number));
    header_text_.resize(o_.headers);
    headers_.assign(1, HeaderToWrite{"timestamp", timestamp_});
    for (std::uint32_t h = 0; h < o_.headers; ++h) {
      header_values_.make(number, o_.header_size, rng_.below(PayloadMaker::kPatternSize), &header_text_[h].second);
      header_text_[h].first = fmt::format("h{}", h + 1);
      headers_.push_back(HeaderToWrite{header_text_[h].first, header_text_[h].second});
    }
    records_writer_.put(&scratch_, txid, ++woid_, headers_, body_);
  }

  const ChannelGeneratorOptions& o_;
  ChannelSink* sink_;
  Rng rng_;
  PayloadMaker payloads_;
  PayloadMaker header_values_;
  std::int64_t txid_ = 0, woid_ = 0;
  std::uint64_t records_ = 0, transactions_ = 0, rollbacks_ = 0;
  std::uint64_t events_put_ = 0, committed_ = 0, taken_ = 0, take_tries_ = 0;
  std::deque<EventPointer> queue_;
  std::vector<InflightTransaction> inflight_puts_, inflight_takes_;
  std::int64_t checkpoint_write_order_id_ = 0;
  std::string scratch_, body_, timestamp_;
  std::vector<std::pair<std::string, std::string>> header_text_;
  std::vector<HeaderToWrite> headers_;
  V3RecordWriter records_writer_;  // in clear: the sink encrypts
};

// The checkpoint Flume writes after the last record (channel_sink.h).
bool write_generated_checkpoint(const ChannelGeneratorOptions& o, const ChannelGenerator& g, ChannelSink* sink,
                                std::string* error) {
  CheckpointToWrite c;
  c.version = o.checkpoint_version;
  c.write_order_id = g.checkpoint_write_order_id();
  c.capacity = o.capacity;
  c.head = g.removed() % static_cast<std::size_t>(o.capacity);
  c.queue.assign(g.queue().begin(), g.queue().end());
  c.puts = g.inflight_puts();
  c.takes = g.inflight_takes();
  return write_checkpoint(c, sink, error);
}

// Applies --corrupt to the temp files; describes the damage.
bool damage(const ChannelGeneratorOptions& o, const ChannelGenerator& g, const ChannelSink& sink, GeneratedDamage* d,
            std::string* error) {
  Rng rng(o.seed ^ 0x436F7272757074ULL);
  const std::string checkpoint = (fs::path(sink.options().checkpoint_dir) / "checkpoint").string();
  const std::string inflight = (fs::path(sink.options().checkpoint_dir) / "inflighttakes").string();
  if (o.corrupt == "flip") {
    if (g.queue().empty()) {
      *error = "--corrupt flip: no event is queued to damage";
      return false;
    }
    const EventPointer p = g.queue()[rng.below(g.queue().size())];
    const SinkLog& log = sink.logs()[static_cast<std::size_t>(p.file_id - 1)];
    // The first payload byte: the transaction header's length (23), 0x97 after the flip.
    const auto at = static_cast<std::uint64_t>(p.offset) + 5;
    *d = GeneratedDamage{
        o.corrupt, log.path, static_cast<std::uint64_t>(p.offset),
        fmt::format("top bit of byte {} flipped: the transaction header of the queued event's Put at {}", at,
                    p.offset)};
    return damage_file(sink.temp_of(log.path), at, std::uint8_t{0x80}, error);
  }
  if (o.corrupt == "checkpoint") {
    const std::uint64_t at = rng.below(kInflightChecksumSize);
    *d = GeneratedDamage{o.corrupt, inflight, at, fmt::format("a bit of byte {} of the MD5 flipped", at)};
    return damage_file(sink.temp_of(inflight), at, std::uint8_t{0x01}, error);
  }
  const std::uint64_t size = (static_cast<std::uint64_t>(o.capacity) + kCheckpointHeaderSlots) * 8;
  // Half a long: a whole one off would leave the length of a smaller capacity.
  *d = GeneratedDamage{o.corrupt, checkpoint, size - 4, "the last 4 bytes cut: the length fits no capacity"};
  return damage_file(sink.temp_of(checkpoint), size - 4, std::nullopt, error);
}

}  // namespace

std::vector<std::string_view> channel_corruptions() { return {"flip", "checkpoint", "truncate"}; }

std::optional<std::string> check_channel_options(const ChannelGeneratorOptions& o) {
  if (o.size == 0 && o.events == 0) return "--records: expected at least 1";
  if (o.payload_min > o.payload_max) return fmt::format("--payload-size: {} is above {}", o.payload_min, o.payload_max);
  if (o.batch == 0) return "--batch: expected at least 1";
  if (o.data_dirs == 0 || o.data_dirs > 64) return "--data-dirs: expected 1 to 64";
  if (o.checkpoint_version != 2 && o.checkpoint_version != 3) return "--checkpoint-version: expected 2 or 3";
  if (o.key_alias && o.checkpoint_version == 2) return "--key: encrypted logs go with a V3 checkpoint";
  if (o.max_log_size < 1024 || o.max_log_size > 1623195647)
    return "--max-log-size: expected 1K to 1623195647 bytes (Flume's maxFileSize cap)";
  if (o.capacity < 0 || o.capacity > 0x7FFFFFFF) return "--capacity: expected 1 to 2147483647";
  if (o.headers > 1024) return "--headers: expected at most 1024";
  // Bounds what one event costs in memory, too.
  const std::uint64_t largest_event =
      std::uint64_t{o.payload_max} + std::uint64_t{o.headers} * (o.header_size + 16) + 64;
  if (largest_event > o.max_log_size)
    return fmt::format(
        "--payload-size, --headers, --header-size: an event of up to {} bytes would not fit a log "
        "of --max-log-size {}",
        largest_event, o.max_log_size);
  const std::uint64_t worst = o.size > 0 ? 0 : o.events + std::uint64_t{o.open} * o.batch;
  if (o.capacity > 0 && worst > static_cast<std::uint64_t>(o.capacity))
    return fmt::format("--capacity {}: the queue may need {} slots", o.capacity, worst);
  return std::nullopt;
}

GenerateStatus generate_flume_channel(const std::string& dir, const ChannelGeneratorOptions& options,
                                      ChannelGeneratorReport* report, std::string* error) {
  if (auto problem = check_channel_options(options)) {
    *error = *problem;
    return GenerateStatus::kUsage;
  }
  ChannelSink sink(sink_options(options, dir));
  ChannelGenerator generator(options, &sink);
  if (!sink.open(error) || !generator.run(report, error) || !sink.close_logs(error)) return GenerateStatus::kIoError;
  ChannelGeneratorOptions o = options;
  if (o.capacity == 0) o.capacity = static_cast<std::int64_t>(std::max<std::uint64_t>(report->events_put, 1));
  if (generator.queue().size() > static_cast<std::size_t>(o.capacity)) {
    *error = fmt::format("--capacity {}: {} events are queued", o.capacity, generator.queue().size());
    return GenerateStatus::kUsage;
  }
  if (!write_generated_checkpoint(o, generator, &sink, error)) return GenerateStatus::kIoError;
  if (o.corrupt != "none") {
    GeneratedDamage d;
    if (!damage(o, generator, sink, &d, error)) return GenerateStatus::kIoError;
    report->corruption = d;
  }
  if (!sink.install(fmt::format("the channel {} was written", dir), error)) return GenerateStatus::kIoError;
  report->capacity = o.capacity;
  report->checkpoint_dir = sink.options().checkpoint_dir;
  report->data_dirs = sink.options().data_dirs;
  for (const SinkLog& log : sink.logs()) report->logs.push_back(GeneratedLog{log.path, log.id, log.bytes, log.records});
  return GenerateStatus::kOk;
}

}  // namespace qjt::flume
