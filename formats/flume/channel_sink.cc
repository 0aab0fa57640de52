#include "flume/channel_sink.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "flume/channel_layout.h"
#include "flume/checkpoint_file.h"
#include "flume/checkpoint_meta.h"
#include "flume/checkpoint_rebuilder.h"
#include "flume/log_metadata.h"

namespace qjt::flume {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxActiveLogs = 1024;  // the count slots of a V2 checkpoint
constexpr std::string_view kCipherProvider = "AESCTRNOPADDING";
constexpr std::size_t kV3Framing = 5;  // OP byte and length, left in clear

// The checkpoint dir's files by name.
const std::vector<std::string_view> kCheckpointFiles = {"checkpoint", "checkpoint.meta", "inflightputs",
                                                        "inflighttakes"};

// Whether `name` is one of a channel's own files (which `force` replaces).
bool channel_file(std::string_view name) {
  std::optional<std::int32_t> id;
  if (is_log_name(name, &id)) return true;
  if (name.ends_with(".meta") && is_log_name(name.substr(0, name.size() - 5), &id)) return true;
  return std::find(kCheckpointFiles.begin(), kCheckpointFiles.end(), name) != kCheckpointFiles.end();
}

// The channel files already in `dirs`.
std::vector<std::string> existing_channel_files(const std::vector<std::string>& dirs) {
  std::vector<std::string> found;
  for (const std::string& dir : dirs) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec))
      if (channel_file(entry.path().filename().string())) found.push_back(entry.path().string());
  }
  std::sort(found.begin(), found.end());
  return found;
}

// Each log's count of queue elements, in file id order.
std::vector<ActiveLogCount> active_logs(const std::vector<EventPointer>& queue) {
  std::map<std::int32_t, std::int32_t> counts;
  for (const EventPointer& p : queue) ++counts[p.file_id];
  std::vector<ActiveLogCount> out;
  for (const auto& [id, n] : counts) out.push_back(ActiveLogCount{id, n});
  return out;
}

// checkpoint.meta lists the counts in the order of Flume's HashMap.
std::vector<ActiveLogCount> in_hash_map_order(const std::vector<ActiveLogCount>& counts) {
  std::vector<std::int32_t> ids;
  for (const ActiveLogCount& c : counts) ids.push_back(c.file_id);
  std::vector<ActiveLogCount> out;
  for (std::int32_t id : java_hash_map_order(ids))
    out.push_back(
        *std::find_if(counts.begin(), counts.end(), [id](const ActiveLogCount& c) { return c.file_id == id; }));
  return out;
}

bool referenced(std::int32_t id, const std::vector<ActiveLogCount>& counts, const CheckpointToWrite& c) {
  const auto in = [id](const std::vector<InflightTransaction>& ts) {
    return std::any_of(ts.begin(), ts.end(), [id](const InflightTransaction& t) {
      return std::any_of(t.pointers.begin(), t.pointers.end(), [id](EventPointer p) { return p.file_id == id; });
    });
  };
  return std::any_of(counts.begin(), counts.end(), [id](const ActiveLogCount& n) { return n.file_id == id; }) ||
         in(c.puts) || in(c.takes);
}

}  // namespace

ChannelSink::ChannelSink(ChannelSinkOptions options) : o_(std::move(options)) { writers_.resize(o_.data_dirs.size()); }

bool ChannelSink::is_current(std::size_t log) const {
  return std::any_of(writers_.begin(), writers_.end(), [log](const DirWriter& w) { return w.log == log; });
}

bool ChannelSink::open(std::string* error) {
  std::vector<std::string> dirs = o_.data_dirs;
  dirs.push_back(o_.checkpoint_dir);
  for (const std::string& d : dirs)
    if (!make_directories(d, error)) return false;
  stale_ = existing_channel_files(dirs);
  if (!stale_.empty() && !o_.force) {
    *error = fmt::format("{} exists (a channel is there already): give --force to replace the channel", stale_.front());
    return false;
  }
  for (std::size_t d = 0; d < o_.data_dirs.size(); ++d)
    if (!roll(d, error)) return false;
  return true;
}

std::optional<EventPointer> ChannelSink::append(std::size_t d, std::string* record, std::string* error) {
  if (rolls_over(logs_[writers_[d].log].bytes, record->size(), o_.max_log_size) && !roll(d, error)) return std::nullopt;
  SinkLog& log = logs_[writers_[d].log];
  if (AesCtr* cipher = writers_[d].cipher.get()) {
    auto* payload = reinterpret_cast<std::uint8_t*>(record->data() + kV3Framing);
    if (!cipher->apply(payload, record->size() - kV3Framing, payload)) {
      *error = "cannot encrypt a log record (OpenSSL failed)";
      return std::nullopt;
    }
  }
  const EventPointer at{log.id, static_cast<std::int32_t>(log.bytes)};
  if (!writers_[d].out->append(ByteSpan(*record), error)) return std::nullopt;
  log.bytes += record->size();
  ++log.records;
  total_bytes_ += record->size();
  return at;
}

bool ChannelSink::close_logs(std::string* error) {
  for (DirWriter& w : writers_)
    if (w.out && !w.out->sync(error)) return false;
  for (DirWriter& w : writers_) w.out.reset();
  return true;
}

bool ChannelSink::write_whole(const std::string& path, const std::string& bytes, std::string* error) {
  return files_.write_whole(path, bytes, error);
}

bool ChannelSink::install(const std::string& what, std::string* error) { return files_.install(stale_, what, error); }

// Data dir `d` moves to a new log with the next file id (Flume's roll).
bool ChannelSink::roll(std::size_t d, std::string* error) {
  DirWriter& w = writers_[d];
  if (w.out && !w.out->sync(error)) return false;
  SinkLog log;
  log.id = o_.first_file_id + static_cast<std::int32_t>(logs_.size());
  log.dir = d;
  log.path = (fs::path(o_.data_dirs[d]) / fmt::format("log-{}", log.id)).string();
  w.out = files_.create(log.path, error);
  if (!w.out) return false;
  w.cipher.reset();
  if (o_.key_alias) {
    if (!o_.make_iv(&log.iv, error)) return false;
    log.iv.append({'\0', '\0', '\0', '\1'});  // Flume's IV: 12 random bytes and the int32 1
    auto cipher = AesCtr::create(ByteSpan(o_.key), ByteSpan(log.iv), error);
    if (!cipher) return false;
    w.cipher = std::make_unique<AesCtr>(std::move(*cipher));
  }
  w.log = logs_.size();
  logs_.push_back(std::move(log));
  return true;
}

bool write_checkpoint(const CheckpointToWrite& c, ChannelSink* sink, std::string* error) {
  const auto counts = active_logs(c.queue);
  if (c.version == 2 && counts.size() > kMaxActiveLogs) {
    *error = fmt::format("the queue spans {} logs, more than a V2 checkpoint holds ({}): raise --max-log-size",
                         counts.size(), kMaxActiveLogs);
    return false;
  }
  CheckpointImage image;
  image.version = c.version;
  image.write_order_id = c.write_order_id;
  image.slots = *place_in_ring(static_cast<std::size_t>(c.capacity), c.head, c.queue);
  if (c.version == 2) {
    image.v2_size = static_cast<std::int64_t>(c.queue.size());
    image.v2_head = static_cast<std::int64_t>(c.head);
    image.v2_active_logs = counts;
  }
  const std::string& dir = sink->options().checkpoint_dir;
  const auto path = [&dir](std::string_view name) { return (fs::path(dir) / name).string(); };
  if (!sink->write_whole(path("checkpoint"), *encode_checkpoint(image), error) ||
      !sink->write_whole(path("inflightputs"), encode_inflight(c.puts), error) ||
      !sink->write_whole(path("inflighttakes"), encode_inflight(c.takes), error))
    return false;
  if (c.version == 3) {
    const CheckpointMeta meta{kCheckpointMetaVersion, c.write_order_id, static_cast<std::int32_t>(c.queue.size()),
                              static_cast<std::int32_t>(c.head), in_hash_map_order(counts)};
    if (!sink->write_whole(path("checkpoint.meta"), encode_checkpoint_meta(meta), error)) return false;
  }
  for (std::size_t i = 0; i < sink->logs().size(); ++i) {
    const SinkLog& log = sink->logs()[i];
    const LogMetadata meta = marked_log_meta(log.id, log.bytes, sink->options().key_alias, log.iv, sink->is_current(i),
                                             referenced(log.id, counts, c), c.write_order_id);
    if (!sink->write_whole(log.path + ".meta", encode_log_metadata(meta), error)) return false;
  }
  return true;
}

LogMetadata marked_log_meta(std::int32_t file_id, std::uint64_t bytes, const std::optional<std::string>& key_alias,
                            const std::string& iv, bool current, bool needed, std::int64_t checkpoint_write_order_id) {
  LogMetadata meta;
  meta.log_file_id = file_id;
  if (key_alias) meta.encryption = LogFileEncryption{std::string(kCipherProvider), *key_alias, iv};
  // The current writers are marked at their position; the other logs the
  // queue still needs keep theirs (0) with the new write order id.
  if (current) {
    meta.checkpoint_position = static_cast<std::int64_t>(bytes);
    meta.checkpoint_write_order_id = checkpoint_write_order_id;
  } else if (needed) {
    meta.checkpoint_write_order_id = checkpoint_write_order_id;
  }
  return meta;
}

}  // namespace qjt::flume
