#include "libkestrel/libkestrel_compaction.h"

#include <algorithm>

#include "durable_file.h"
#include "failpoint.h"
#include "libkestrel/libkestrel_writer.h"
#include "kestrel/queue_rewrite.h"

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

CompactionPlan plan_compaction(const QueueReplay& replay, bool rewrite,
                               const std::map<std::string, ByteSpan>& current,
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

bool carry_out(const CompactionPlan& plan, const std::string& backup_dir, std::string* error) {
  if (!backup_dir.empty()) {
    std::vector<std::string> changed = plan.delete_segments;
    for (const auto& b : plan.rewrite_bookmarks) changed.push_back(b.path);
    changed.insert(changed.end(), plan.temp_files.begin(), plan.temp_files.end());
    if (!kestrel::back_up_files(backup_dir, changed, error)) return false;
  }
  for (const auto& b : plan.rewrite_bookmarks) {
    const auto content = [&b](FileWriter* w, std::string* e) { return w->append(ByteSpan(b.bytes), e); };
    if (!write_file_atomically(b.path, content, error)) return false;
    failpoint("libkestrel_compact.bookmark_rewritten");
  }
  std::vector<std::string> removed = plan.temp_files;
  removed.insert(removed.end(), plan.delete_segments.begin(), plan.delete_segments.end());
  for (const std::string& path : removed) {
    if (!durable_remove(path, error)) return false;
    failpoint("libkestrel_compact.file_removed");
  }
  return true;
}

}  // namespace qjt::libkestrel
