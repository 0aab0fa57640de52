// Compaction of a libkestrel (Kestrel 3) queue, as libkestrel's own
// Journal.checkOldFiles does it (spec §5.6): the segments every reader has
// passed are deleted, and, on request, each bookmark is rewritten in the
// canonical form libkestrel checkpoints (READ_HEAD, then the sorted
// READ_DONE) with the head and done set it loads.
//
// Every step keeps the queue each reader sees: a deleted segment holds only
// ids at or below every reader's head, so libkestrel's load-time clamp
// gives the same heads and done sets before and after; a bookmark is
// replaced atomically (through a "~~" temp file libkestrel deletes at
// startup) by the state libkestrel would load from it anyway.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "byte_span.h"
#include "libkestrel/libkestrel_replay.h"

namespace qjt::libkestrel {

struct BookmarkRewrite {
  std::string path;
  std::string bytes;  // the whole new file
};

// Carried out in this order, each step durable before the next: the
// bookmarks rewritten, then the temp files and the segments (oldest first)
// removed; the queue each reader sees is the same after every step.
struct CompactionPlan {
  std::vector<std::string> delete_segments;  // oldest first
  std::vector<BookmarkRewrite> rewrite_bookmarks;
  std::vector<std::string> temp_files;  // Q~~*: deleted, as libkestrel's startup does
  bool empty() const { return delete_segments.empty() && rewrite_bookmarks.empty() && temp_files.empty(); }
};

// The segments compaction deletes, as indices into replay.segments(),
// oldest first. minHead = min(last id, min over readers of head + 1);
// every segment whose first id is at most minHead goes, except the last of
// them, which may still hold unread items.
std::vector<std::size_t> passed_segments(const QueueReplay& replay);

// Per segment of replay.segments(): the id every reader's head must reach
// before compaction deletes it, the id before the next segment's first (for
// the last segment, its own last id, though libkestrel keeps writing it);
// none for a segment without items, which compaction never deletes
// (libkestrel's startup does). In a queue whose ids increase, a segment
// other than the last goes exactly when no head is below its bound.
std::vector<std::optional<std::int64_t>> segment_bounds(const QueueReplay& replay);

// The readers whose head is below `bound`, so that they still need its
// segment: the slowest first (lowest head, then name).
std::vector<const ReaderState*> readers_below(const QueueReplay& replay, std::int64_t bound);

// What keeps compaction from deleting more: the oldest segment it keeps
// that has a segment after it, and the slowest reader that needs it. None
// when only the last segment (or none) is kept, or no reader's head
// explains the segment kept (ids out of order: a damaged queue).
struct CompactionBlocker {
  std::size_t segment = 0;  // index into replay.segments()
  const ReaderState* reader = nullptr;
};
std::optional<CompactionBlocker> compaction_blocker(const QueueReplay& replay);

// The plan: passed_segments, and with `rewrite`, the bookmarks whose bytes
// (`current`, by path) differ from the canonical form.
CompactionPlan plan_compaction(const QueueReplay& replay, bool rewrite, const std::map<std::string, ByteSpan>& current,
                               const std::vector<std::string>& temp_files);

}  // namespace qjt::libkestrel
