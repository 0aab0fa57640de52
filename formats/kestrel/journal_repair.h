// Repair plans for one classic Kestrel journal file: which byte ranges to
// keep and which to drop, with the reason for each drop.
//
// Truncation keeps everything before the first BROKEN record (unlike
// Kestrel 2.x, which truncates the live file whichever file was damaged).
// Salvage also looks past each damaged region for the next offset from
// which records decode again and keeps them: a resync point must start with
// an item record (its size and two timestamps make a false match unlikely),
// every item in the run must carry plausible times, and the run must reach
// the end of the file or kResyncRecords records.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "byte_span.h"

namespace qjt::kestrel {

inline constexpr int kResyncRecords = 8;

struct ByteRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::uint64_t size() const { return end - begin; }
};

struct DroppedRange {
  ByteRange range;
  std::string reason;  // the BROKEN record's error
};

struct RepairPlan {
  std::vector<ByteRange> keep;  // in file order
  std::vector<DroppedRange> dropped;
  std::uint64_t kept_bytes() const;
  bool changes_file() const { return !dropped.empty(); }
};

RepairPlan plan_repair(ByteSpan journal, bool salvage);

// The records of a journal that a plan keeps and loses, counted as salvage
// finds them: every record that decodes (END_OF_FILE aside), and each
// damaged region as one record, since how many it held cannot be told.
struct RecordCount {
  std::uint64_t kept = 0;
  std::uint64_t lost = 0;
  std::uint64_t total() const { return kept + lost; }
};

// What `plan` keeps of `journal`; `salvaged` is plan_repair(journal, true),
// which finds every record there is to count.
RecordCount count_records(ByteSpan journal, const RepairPlan& plan, const RepairPlan& salvaged);

enum class GentlestRepair {
  kNone,      // nothing to repair, or no repair keeps a byte
  kTruncate,  // the cut keeps as many records as salvage
  kSalvage,   // salvage keeps more records than the cut
};
// The repair of `journal` that keeps the most.
GentlestRepair gentlest_repair(ByteSpan journal);

}  // namespace qjt::kestrel
