// Stats of a libkestrel (Kestrel 3) queue (issue 26, qjt-stats(1)): what
// `qjt stats` shows of it, added to the family-neutral model
// (stats_model.h) from what QueueReplay builds, in its pass.
//
// Entities, labelled format ("libkestrel"), path and queue, and a reader's
// also by reader (the default reader's name is empty, as its bookmark
// Q.read. names it). README.md ("Stats") says what each figure means; in
// short:
//  - a "queue": its files and records; its items on disk up to the tail
//    (count, bytes, payload sizes, add times, expiries); what compaction
//    would reclaim; per segment (table "segment", key "file"): id range,
//    items, bytes, how many readers still need it, whether compaction
//    deletes it and the bytes freed once every reader passes it; and the
//    space report (table "segment_reader", keys "file" and "reader"): per
//    segment, each reader that still needs it, slowest first, with its
//    head and its pending items in that segment;
//  - a "reader" per reader: head, pending items and bytes, lag behind the
//    tail in items and as the age of its next item, the segments it needs.
//
// A reader "needs" a segment while its head is below the segment's bound
// (libkestrel_compaction.h, segment_bounds): compaction keeps the segment
// for it. Ids below 0 (damaged input) are left out, as not known.
#pragma once

#include <cstdint>
#include <string>

#include "libkestrel/libkestrel_record.h"
#include "libkestrel/libkestrel_replay.h"
#include "log_histogram.h"
#include "stats_model.h"

namespace qjt::libkestrel {

// The queue's names in the model, and what replay does not keep.
struct QueueStatsSource {
  std::string path;                  // the directory the queue is in
  std::string queue;                 // its name
  std::uint64_t bookmark_bytes = 0;  // of the bookmarks read
};

// Tallies the items as replay reads them (give add_put to add_segment),
// then adds the queue's and its readers' entities once replay is done.
class QueueStats {
 public:
  // Ages are taken against `now` (milliseconds since the Unix epoch).
  explicit QueueStats(std::int64_t now) : now_(now) {}

  // One PUT record, as QueueReplay::add_segment reads it.
  void add_put(const Record& put);

  // Adds the queue, then each reader in replay's order. `replay` is the
  // finished replay whose PUTs add_put saw.
  void add_to(const QueueReplay& replay, const QueueStatsSource& source, StatsModel* model) const;

 private:
  std::int64_t now_;
  LogHistogram payload_;
  std::int64_t oldest_add_ = 0, newest_add_ = 0;  // meaningful once payload_ has values
  std::uint64_t expired_ = 0, without_expiry_ = 0;
};

}  // namespace qjt::libkestrel
