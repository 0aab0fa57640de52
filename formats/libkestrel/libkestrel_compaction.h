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

#include <map>
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

// minHead = min(last id, min over readers of head + 1); every segment whose
// first id is at most minHead goes, except the last of them, which may
// still hold unread items. With `rewrite`, the bookmarks whose bytes
// (`current`, by path) differ from the canonical form are rewritten.
CompactionPlan plan_compaction(const QueueReplay& replay, bool rewrite, const std::map<std::string, ByteSpan>& current,
                               const std::vector<std::string>& temp_files);

}  // namespace qjt::libkestrel
