// QueueRewrite: replaces a queue's journal in a Kestrel queue directory
// with a new one, such that at every step on disk the directory replays,
// by Kestrel's startup rules (spec 2.1), to the same queue.
//
// Kestrel's own rewrite renames its result to Q.<ms>.pack, lets it
// supersede the archived segments, and only then deletes the live file: a
// crash in between replays the items twice (spec 3.2). Here the live file
// is archived first, so the pack supersedes it too:
//
//   1  write Q~~<ms>, fsync          (a ~~ file: ignored, deleted by Kestrel)
//   2  copy every file to be replaced into the backup directory
//   3  rename Q to Q.<ms>            (still the same stream, in the same order)
//   4  rename Q~~<ms> to Q.<ms>.pack (now it supersedes every older file)
//   5  remove the replaced files     (what Kestrel's startup would delete)
//   6  rename Q.<ms>.pack to Q
//
// Every rename and removal is followed by an fsync of the directory, and a
// failpoint, so tests can kill the process after each step. Steps 3 to 6
// run in one CommitSection (interrupt.h): an interrupt during steps 1 and 2
// removes Q~~<ms> and the backup, one later waits for step 6.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "durable_file.h"

namespace qjt::kestrel {

struct RewriteRequest {
  std::string dir;
  std::string queue;
  std::vector<std::string> replaced;  // every file of the queue: journal files and leftovers
  std::string backup_dir;             // created; empty for no backup
  std::int64_t min_stamp_ms = 0;      // the new files' timestamp is at least this
};

using JournalContent = std::function<bool(FileWriter*, std::string*)>;

// Runs steps 1 to 6, writing the new journal with `content`. On failure
// sets *error and leaves the directory in one of the safe states above,
// without Q~~<ms>.
bool rewrite_queue(const RewriteRequest& request, const JournalContent& content, std::string* error);

// The highest <ts> among `paths` named <queue>.<ts>[.pack], or 0.
std::int64_t highest_segment_stamp(const std::string& queue, const std::vector<std::string>& paths);

}  // namespace qjt::kestrel
