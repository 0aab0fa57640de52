#include "flume/log_space.h"

#include <algorithm>
#include <filesystem>

namespace qjt::flume {

QueuedByLog::Tally QueuedByLog::of(std::int32_t file_id) const {
  const auto it = by_id_.find(file_id);
  return it == by_id_.end() ? Tally{} : it->second;
}

std::optional<std::int32_t> lowest_log_in_use(const EventQueue& queue) {
  for (const auto& [file_id, count] : queue.reference_counts())  // sorted by file id
    if (count > 0) return file_id;
  return std::nullopt;
}

namespace {

// The newest log (highest file id) of each data dir.
std::set<std::int32_t> newest_of_each_dir(const ChannelLogs& logs) {
  std::map<std::string, std::int32_t> newest;
  for (const ChannelLog& log : logs.logs()) {
    auto [it, added] = newest.emplace(log.layout().dir, log.file_id());
    if (!added) it->second = std::max(it->second, log.file_id());
  }
  std::set<std::int32_t> ids;
  for (const auto& [dir, id] : newest) ids.insert(id);
  return ids;
}

std::uint64_t file_size_or_zero(const std::string& path) {
  if (path.empty()) return 0;
  std::error_code error;
  const auto size = std::filesystem::file_size(path, error);
  return error ? 0 : size;
}

}  // namespace

std::set<std::int32_t> logs_flume_deletes(const ChannelLogs& logs, const EventQueue& queue) {
  // After the replay Flume rolls each dir to a new log: with it, the newest
  // two of a dir are that new log and the newest one here.
  const std::set<std::int32_t> kept = newest_of_each_dir(logs);
  const std::optional<std::int32_t> lowest = lowest_log_in_use(queue);
  std::set<std::int32_t> deleted;
  for (const ChannelLog& log : logs.logs())
    if (kept.count(log.file_id()) == 0 && (!lowest || log.file_id() < *lowest)) deleted.insert(log.file_id());
  return deleted;
}

std::vector<LogSpace> log_space(const ChannelLogs& logs, const ChannelReplay& replay, const QueuedByLog& queued) {
  const EventQueue* queue = replay.queue ? &*replay.queue : nullptr;
  const std::set<std::int32_t> newest = newest_of_each_dir(logs);
  const std::set<std::int32_t> deleted = queue ? logs_flume_deletes(logs, *queue) : std::set<std::int32_t>{};
  const std::optional<std::int32_t> lowest = queue ? lowest_log_in_use(*queue) : std::nullopt;
  std::vector<LogSpace> space;
  space.reserve(logs.logs().size());
  for (const ChannelLog& log : logs.logs()) {
    LogSpace s;
    s.log = &log;
    s.bytes = log.layout().size;
    s.meta_bytes = file_size_or_zero(log.layout().meta_path);
    s.queued = queued.of(log.file_id());
    s.reference_count = queue ? queue->reference_count(log.file_id()) : 0;
    if (const auto it = replay.logs.find(log.file_id()); it != replay.logs.end()) s.inflight = it->second.inflight;
    s.current_write_log = newest.count(log.file_id()) > 0;
    s.pinned_by_lower_log = lowest && *lowest < log.file_id();
    s.deletable = deleted.count(log.file_id()) > 0;
    s.reclaimable = s.current_write_log ? 0 : s.bytes + s.meta_bytes;
    space.push_back(s);
  }
  return space;
}

}  // namespace qjt::flume
