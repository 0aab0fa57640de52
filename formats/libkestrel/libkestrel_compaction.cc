#include "libkestrel/libkestrel_compaction.h"

#include <algorithm>

#include "libkestrel/libkestrel_writer.h"

namespace qjt::libkestrel {
namespace {

std::vector<std::string> passed_segments(const QueueReplay& replay) {
  std::int64_t min_head = replay.tail_id();
  for (const ReaderState& r : replay.readers()) min_head = std::min(min_head, r.head + 1);
  std::vector<std::string> passed;
  for (const SegmentSummary& s : replay.segments()) {
    if (s.first_id && *s.first_id <= min_head) passed.push_back(s.path);
  }
  if (!passed.empty()) passed.pop_back();  // the last of them may hold unread items
  return passed;
}

}  // namespace

CompactionPlan plan_compaction(const QueueReplay& replay, bool rewrite, const std::map<std::string, ByteSpan>& current,
                               const std::vector<std::string>& temp_files) {
  CompactionPlan plan{passed_segments(replay), {}, temp_files};
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
