#include "flume/checkpoint_state.h"

#include <fmt/format.h>

#include <map>

#include "flume/checkpoint_file.h"
#include "flume/checkpoint_meta.h"
#include "reporters.h"

namespace qjt::flume {
namespace {

void refuse(Reporter* reporter, std::string code, const std::string& file, std::optional<std::uint64_t> offset,
            std::string message) {
  reporter->report(Finding{Severity::kError, std::move(code), file, offset, std::move(message)});
}

std::vector<std::pair<std::int32_t, std::int64_t>> counts_of(const std::vector<ActiveLogCount>& logs) {
  std::vector<std::pair<std::int32_t, std::int64_t>> counts;
  for (const ActiveLogCount& c : logs) counts.emplace_back(c.file_id, c.count);
  return counts;
}

std::optional<std::vector<InflightTransaction>> load_inflight(const std::optional<ByteSpan>& bytes,
                                                              const std::string& path, ErrorWatch* watch) {
  if (!bytes) return std::vector<InflightTransaction>{};  // Flume creates it empty
  InflightFile file = decode_inflight(*bytes, path, watch);
  if (!file.checksum_ok) return std::nullopt;
  return std::move(file.transactions);
}

// Flume trusts the stored counts (V2 header slots, V3 activeLogs) to decide
// which logs it may delete; counts that differ from the queue's own
// references make it keep logs for nothing or, worse, delete one the queue
// still needs. Not a reason to refuse the checkpoint: Flume does not check.
void check_stored_counts(const std::vector<std::pair<std::int32_t, std::int64_t>>& actual,
                         const std::vector<std::pair<std::int32_t, std::int64_t>>& stored, const std::string& file,
                         Reporter* reporter) {
  std::map<std::int32_t, std::pair<std::int64_t, std::int64_t>> both;  // file id -> (actual, stored)
  for (const auto& [id, n] : actual) both[id].first = n;
  for (const auto& [id, n] : stored) both[id].second += n;
  for (const auto& [id, counts] : both) {
    if (counts.first == counts.second) continue;
    reporter->report(Finding{
        counts.second < counts.first ? Severity::kError : Severity::kWarning, "active_log_count", file, std::nullopt,
        fmt::format("log-{}: expected the stored reference count to equal the {} queue "
                    "element(s) that point into it, found {}{}",
                    id, counts.first, counts.second,
                    counts.second < counts.first ? "; Flume may delete the log while the queue still needs it"
                                                 : "; Flume keeps the log longer than needed")});
  }
}

}  // namespace

std::optional<CheckpointState> load_checkpoint(const CheckpointBytes& bytes, const CheckpointLoadOptions& options,
                                               Reporter* reporter) {
  ErrorWatch watch(reporter);
  const std::string& path = bytes.checkpoint_path;
  std::optional<std::size_t> capacity;
  if (options.capacity) capacity = static_cast<std::size_t>(*options.capacity);
  const auto checkpoint = CheckpointFile::decode(*bytes.checkpoint, path, &watch, capacity);
  if (!checkpoint || watch.errors()) return std::nullopt;

  const int version = bytes.meta ? 3 : 2;
  if (checkpoint->version() != version) {  // all 64 bits, as Flume compares them
    refuse(reporter, "checkpoint_version", path, 0,
           bytes.meta ? fmt::format("expected version 3 beside {}, found {}", bytes.meta_path, checkpoint->version())
                      : fmt::format("expected version 2 (a checkpoint without checkpoint.meta), found {}",
                                    checkpoint->version()));
    return std::nullopt;
  }
  if (checkpoint->marker() != kCheckpointComplete) {
    if (checkpoint->marker() == kCheckpointIncomplete)
      refuse(reporter, "checkpoint_incomplete", path, CheckpointFile::slot_offset(kCheckpointMarkerSlot),
             "expected the marker 0 (checkpoint complete), found 1: the agent stopped while writing it");
    return std::nullopt;
  }
  RingPosition ring;
  std::vector<ActiveLogCount> stored;
  if (version == 3) {
    const CheckpointMetaDecode meta = decode_checkpoint_meta(*bytes.meta, bytes.meta_path, &watch);
    if (!meta.valid) return std::nullopt;
    check_meta_matches_checkpoint(meta, bytes.meta_path, *checkpoint, &watch);
    if (watch.errors()) return std::nullopt;
    ring = meta_ring_position(meta, bytes.meta_path);
    stored = meta.meta.active_logs;
  } else {
    ring = v2_ring_position(*checkpoint, path);
    for (const auto& slot : checkpoint->v2_active_logs()) stored.push_back(slot.count);
  }
  if (!CheckpointRing::make(*checkpoint, ring, &watch) || watch.errors()) return std::nullopt;

  const std::size_t first = CheckpointFile::slot_offset(kCheckpointHeaderSlots);
  std::string error;
  auto queue = EventQueue::from_slot_bytes(bytes.checkpoint->subspan(first, checkpoint->capacity() * 8), ring.head,
                                           ring.size, &error);
  if (!queue) {
    refuse(reporter, "checkpoint_ring", path, first, error);
    return std::nullopt;
  }
  check_stored_counts(queue->reference_counts(), counts_of(stored), version == 3 ? bytes.meta_path : path, reporter);
  queue->set_reference_counts(counts_of(stored));

  auto puts = load_inflight(bytes.inflight_puts, bytes.inflight_puts_path, &watch);
  auto takes = load_inflight(bytes.inflight_takes, bytes.inflight_takes_path, &watch);
  if (!puts || !takes) return std::nullopt;
  std::int64_t inflight_takes = 0;
  for (const auto& t : *takes) inflight_takes += static_cast<std::int64_t>(t.pointers.size());
  queue->set_inflight_takes(inflight_takes);
  return CheckpointState{version, checkpoint->write_order_id(), std::move(*queue), std::move(*puts), std::move(*takes)};
}

}  // namespace qjt::flume
