#include "libkestrel/libkestrel_compaction.h"

#include <algorithm>
#include <limits>
#include <tuple>

#include "libkestrel/libkestrel_writer.h"

namespace qjt::libkestrel {

std::vector<std::size_t> passed_segments(const QueueReplay& replay) {
  // min(tail, head + 1) without computing head + 1 when the head is the
  // largest id there is.
  std::int64_t min_head = replay.tail_id();
  for (const ReaderState& r : replay.readers())
    if (r.head < min_head) min_head = r.head + 1;
  std::vector<std::size_t> passed;
  const auto& segments = replay.segments();
  for (std::size_t i = 0; i < segments.size(); ++i) {
    if (segments[i].first_id && *segments[i].first_id <= min_head) passed.push_back(i);
  }
  if (!passed.empty()) passed.pop_back();  // the last of them may hold unread items
  return passed;
}

std::vector<std::optional<std::int64_t>> segment_bounds(const QueueReplay& replay) {
  const auto& segments = replay.segments();
  std::vector<std::optional<std::int64_t>> bounds(segments.size());
  std::optional<std::int64_t> next_first;
  for (std::size_t i = segments.size(); i-- > 0;) {
    if (!segments[i].first_id) continue;
    // No id is before the smallest one: then no head is below the bound.
    if (!next_first) {
      bounds[i] = segments[i].last_id;
    } else {
      bounds[i] = *next_first == std::numeric_limits<std::int64_t>::min() ? *next_first : *next_first - 1;
    }
    next_first = segments[i].first_id;
  }
  return bounds;
}

std::vector<const ReaderState*> readers_below(const QueueReplay& replay, std::int64_t bound) {
  std::vector<const ReaderState*> below;
  for (const ReaderState& r : replay.readers())
    if (r.head < bound) below.push_back(&r);
  std::sort(below.begin(), below.end(), [](const ReaderState* a, const ReaderState* b) {
    return std::tie(a->head, a->name) < std::tie(b->head, b->name);
  });
  return below;
}

std::optional<CompactionBlocker> compaction_blocker(const QueueReplay& replay) {
  const std::vector<std::size_t> passed = passed_segments(replay);
  const auto bounds = segment_bounds(replay);
  // The last segment with items is kept whoever reads it.
  std::optional<std::size_t> last;
  for (std::size_t i = 0; i < bounds.size(); ++i)
    if (bounds[i]) last = i;
  for (std::size_t i = 0; last && i < *last; ++i) {
    if (!bounds[i] || std::binary_search(passed.begin(), passed.end(), i)) continue;
    const auto below = readers_below(replay, *bounds[i]);
    return below.empty() ? std::nullopt : std::optional(CompactionBlocker{i, below.front()});
  }
  return std::nullopt;
}

CompactionPlan plan_compaction(const QueueReplay& replay, bool rewrite, const std::map<std::string, ByteSpan>& current,
                               const std::vector<std::string>& temp_files) {
  CompactionPlan plan{{}, {}, temp_files};
  for (const std::size_t i : passed_segments(replay)) plan.delete_segments.push_back(replay.segments()[i].path);
  if (!rewrite) return plan;
  for (const ReaderState& r : replay.readers()) {
    const auto on_disk = current.find(r.path);
    if (on_disk == current.end()) continue;  // no bookmark: nothing to rewrite
    std::string canonical = bookmark_bytes(r.head, r.done);
    if (on_disk->second.as_chars() != canonical) plan.rewrite_bookmarks.push_back({r.path, std::move(canonical)});
  }
  return plan;
}

}  // namespace qjt::libkestrel
