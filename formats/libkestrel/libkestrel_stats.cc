#include "libkestrel/libkestrel_stats.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "libkestrel/libkestrel_compaction.h"
#include "path_name.h"

namespace qjt::libkestrel {
namespace {

using Bounds = std::vector<std::optional<std::int64_t>>;

// The queue.
constexpr StatsMetric kRecords{"records", StatsUnit::kCount,
                               "Records in the queue's segments and bookmarks (end markers left out)."};
constexpr StatsMetric kJournal{"journal", StatsUnit::kBytes, "Bytes of the queue's segments and bookmarks."};
constexpr StatsMetric kSegments{"segments", StatsUnit::kCount, "Segment files of the queue."};
constexpr StatsMetric kReaders{"readers", StatsUnit::kCount,
                               "Readers of the queue as libkestrel loads them (the default one when none is on disk)."};
constexpr StatsMetric kTailId{"tail_id", StatsUnit::kCount, "The last item id on disk (0 without items)."};
constexpr StatsMetric kQueuedItems{"queued_items", StatsUnit::kCount,
                                   "Items in the queue's segments, up to the tail, read by every reader or not."};
constexpr StatsMetric kQueued{"queued", StatsUnit::kBytes, "Payload bytes of the items in the queue's segments."};
constexpr StatsMetric kPayload{"payload", StatsUnit::kBytes, "Payload sizes of the items in the queue's segments."};
constexpr StatsMetric kOldestAdd{"oldest_item_add", StatsUnit::kTime,
                                 "Add time of the earliest added item in the queue's segments."};
constexpr StatsMetric kNewestAdd{"newest_item_add", StatsUnit::kTime,
                                 "Add time of the latest added item in the queue's segments."};
constexpr StatsMetric kOldestAge{"oldest_item_age", StatsUnit::kDuration,
                                 "Age of the earliest added item in the queue's segments."};
constexpr StatsMetric kExpired{"expired_items", StatsUnit::kCount,
                               "Items in the queue's segments whose expiry has passed."};
constexpr StatsMetric kNoExpiry{"items_without_expiry", StatsUnit::kCount,
                                "Items in the queue's segments that never expire."};
constexpr StatsMetric kReclaimable{"reclaimable", StatsUnit::kBytes,
                                   "Bytes of the segments compaction would delete now: every reader has passed them."};
// Per segment.
constexpr StatsMetric kFirstId{"first_id", StatsUnit::kCount, "The segment's first item id."};
constexpr StatsMetric kLastId{"last_id", StatsUnit::kCount, "The segment's last item id."};
constexpr StatsMetric kSegmentItems{"queued_items", StatsUnit::kCount, "Items in the segment."};
constexpr StatsMetric kSegmentBytes{"journal", StatsUnit::kBytes, "Bytes of the segment file."};
constexpr StatsMetric kNeedingReaders{
    "needing_readers", StatsUnit::kCount,
    "Readers that still need the segment: their head is below the id before the next segment's first."};
constexpr StatsMetric kDeleted{"deleted_by_compaction", StatsUnit::kCount,
                               "1 when compaction would delete the segment now, else 0."};
constexpr StatsMetric kFreedOncePassed{
    "freed_once_passed", StatsUnit::kBytes,
    "Bytes compaction frees once every reader has passed the segment: its own and the earlier segments'."};
// Per segment and reader that needs it: the space report.
constexpr StatsMetric kPinHead{"head_id", StatsUnit::kCount, "The head of a reader that still needs the segment."};
constexpr StatsMetric kPinPendingItems{"pending_items", StatsUnit::kCount,
                                       "Items of the segment the reader has still to read."};
constexpr StatsMetric kPinPending{"pending", StatsUnit::kBytes,
                                  "Payload bytes of the items of the segment the reader has still to read."};
// Per reader.
constexpr StatsMetric kHeadId{"head_id", StatsUnit::kCount,
                              "The reader's head as libkestrel loads it: every id up to it is read."};
constexpr StatsMetric kDoneItems{"done_items", StatsUnit::kCount, "Ids above the head the reader has already read."};
constexpr StatsMetric kPendingItems{"pending_items", StatsUnit::kCount, "Items the reader has still to read."};
constexpr StatsMetric kPending{"pending", StatsUnit::kBytes,
                               "Payload bytes of the items the reader has still to read."};
constexpr StatsMetric kLagItems{"lag_items", StatsUnit::kCount, "Ids between the reader's head and the tail."};
constexpr StatsMetric kNextAdd{"oldest_item_add", StatsUnit::kTime,
                               "Add time of the reader's oldest pending item, the next it reads."};
constexpr StatsMetric kLag{"lag", StatsUnit::kDuration,
                           "Age of the reader's oldest pending item (0 when it has read everything)."};
constexpr StatsMetric kNeededSegments{"needed_segments", StatsUnit::kCount,
                                      "Segments the reader still needs, which compaction keeps for it."};

// An id as a figure: ids below 0 are damage, not known.
std::optional<StatsValue> id_value(std::optional<std::int64_t> id) {
  if (!id || *id < 0) return std::nullopt;
  return StatsValue::whole(static_cast<std::uint64_t>(*id));
}

std::optional<StatsValue> whole(std::uint64_t n) { return StatsValue::whole(n); }

struct Pending {
  std::uint64_t items = 0, bytes = 0;
};

// What a reader has still to read: in all, per segment, and the first item.
struct ReaderTally {
  Pending total;
  std::vector<Pending> per_segment;
  std::optional<ItemRef> next;
};

ReaderTally tally_reader(const QueueReplay& replay, const ReaderState& reader) {
  ReaderTally tally{{}, std::vector<Pending>(replay.segments().size()), std::nullopt};
  replay.for_each_pending(reader, [&tally](const ItemRef& item) {
    for (Pending* p : {&tally.total, &tally.per_segment[item.segment]}) {
      ++p->items;
      p->bytes += item.size;
    }
    if (!tally.next) tally.next = item;
  });
  return tally;
}

std::vector<StatsLabel> queue_labels(const QueueStatsSource& source) {
  return {{"format", "libkestrel"}, {"path", source.path}, {"queue", source.queue}};
}

std::size_t index_of(const QueueReplay& replay, const ReaderState* reader) {
  return static_cast<std::size_t>(reader - replay.readers().data());
}

// The segment table and the space report.
void add_segments(StatsEntity* queue, const QueueReplay& replay, const Bounds& bounds,
                  const std::vector<ReaderTally>& tallies) {
  StatsTable& segments =
      queue->table("segment", {"file"},
                   {kFirstId, kLastId, kSegmentItems, kSegmentBytes, kNeedingReaders, kDeleted, kFreedOncePassed});
  StatsTable& space = queue->table("segment_reader", {"file", "reader"}, {kPinHead, kPinPendingItems, kPinPending});
  const auto passed = passed_segments(replay);
  std::optional<std::size_t> written;  // the last segment with items: libkestrel keeps it
  for (std::size_t i = 0; i < bounds.size(); ++i)
    if (bounds[i]) written = i;
  std::uint64_t freed = 0;
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    const SegmentSummary& s = replay.segments()[i];
    const std::string file = base_name(s.path);
    const auto needing = bounds[i] ? readers_below(replay, *bounds[i]) : std::vector<const ReaderState*>{};
    if (bounds[i]) freed += s.bytes;
    const bool deletes = std::binary_search(passed.begin(), passed.end(), i);
    segments.add_row({file},
                     {id_value(s.first_id), id_value(s.last_id), whole(s.items), whole(s.bytes), whole(needing.size()),
                      whole(deletes ? 1 : 0), bounds[i] && i != written ? whole(freed) : std::nullopt});
    for (const ReaderState* r : needing) {
      const Pending& p = tallies[index_of(replay, r)].per_segment[i];
      space.add_row({file, r->name}, {id_value(r->head), whole(p.items), whole(p.bytes)});
    }
  }
}

void add_reader(StatsModel* model, const QueueStatsSource& source, const QueueReplay& replay, const Bounds& bounds,
                const ReaderState& reader, const ReaderTally& tally, std::int64_t now) {
  std::vector<StatsLabel> labels = queue_labels(source);
  labels.push_back({"reader", reader.name});
  StatsEntity& entity = model->entity("reader", std::move(labels));
  if (const auto head = id_value(reader.head)) entity.set(kHeadId, *head);
  entity.set(kDoneItems, StatsValue::whole(reader.done.size()));
  entity.set(kPendingItems, StatsValue::whole(tally.total.items));
  entity.set(kPending, StatsValue::whole(tally.total.bytes));
  // The clamp on load keeps the head at or below the tail.
  entity.set(kLagItems,
             StatsValue::whole(static_cast<std::uint64_t>(replay.tail_id()) - static_cast<std::uint64_t>(reader.head)));
  std::optional<StatsValue> lag = StatsValue::milliseconds(0);
  if (tally.next) {
    const std::int64_t added = replay.item_record(*tally.next).add_time_ms;
    entity.set(kNextAdd, StatsValue::milliseconds(added));
    lag = elapsed(added, now);
  }
  if (lag) entity.set(kLag, *lag);
  const auto needs = [&reader](const auto& bound) { return bound && reader.head < *bound; };
  entity.set(kNeededSegments,
             StatsValue::whole(static_cast<std::uint64_t>(std::count_if(bounds.begin(), bounds.end(), needs))));
}

}  // namespace

void QueueStats::add_put(const Record& put) {
  if (payload_.count() == 0) oldest_add_ = newest_add_ = put.add_time_ms;
  oldest_add_ = std::min(oldest_add_, put.add_time_ms);
  newest_add_ = std::max(newest_add_, put.add_time_ms);
  payload_.add(put.data.size());
  if (!put.expiry_ms) {
    ++without_expiry_;
  } else if (*put.expiry_ms <= now_) {
    ++expired_;
  }
}

void QueueStats::add_to(const QueueReplay& replay, const QueueStatsSource& source, StatsModel* model) const {
  StatsEntity& queue = model->entity("queue", queue_labels(source));
  std::uint64_t segment_bytes = 0, reclaimable = 0;
  for (const SegmentSummary& s : replay.segments()) segment_bytes += s.bytes;
  for (const std::size_t i : passed_segments(replay)) reclaimable += replay.segments()[i].bytes;
  queue.set(kRecords, StatsValue::whole(replay.records()));
  queue.set(kJournal, StatsValue::whole(segment_bytes + source.bookmark_bytes));
  queue.set(kSegments, StatsValue::whole(replay.segments().size()));
  queue.set(kReaders, StatsValue::whole(replay.readers().size()));
  if (const auto tail = id_value(replay.tail_id())) queue.set(kTailId, *tail);
  queue.set(kQueuedItems, StatsValue::whole(replay.items().size()));
  queue.set(kQueued, StatsValue::whole(payload_.sum()));
  queue.set(kPayload, payload_.distribution());
  if (payload_.count() > 0) {
    queue.set(kOldestAdd, StatsValue::milliseconds(oldest_add_));
    queue.set(kNewestAdd, StatsValue::milliseconds(newest_add_));
    if (const auto oldest = elapsed(oldest_add_, now_)) queue.set(kOldestAge, *oldest);
  }
  queue.set(kExpired, StatsValue::whole(expired_));
  queue.set(kNoExpiry, StatsValue::whole(without_expiry_));
  queue.set(kReclaimable, StatsValue::whole(reclaimable));
  std::vector<ReaderTally> tallies;
  for (const ReaderState& r : replay.readers()) tallies.push_back(tally_reader(replay, r));
  const Bounds bounds = segment_bounds(replay);
  add_segments(&queue, replay, bounds, tallies);
  for (std::size_t i = 0; i < tallies.size(); ++i)
    add_reader(model, source, replay, bounds, replay.readers()[i], tallies[i], now_);
}

}  // namespace qjt::libkestrel
