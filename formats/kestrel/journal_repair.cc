#include "kestrel/journal_repair.h"

#include "kestrel/journal_reader.h"

namespace qjt::kestrel {
namespace {

// 2001-09-09 to 2286-11-20 in ms: any add time Kestrel wrote lies inside.
constexpr std::int64_t kEarliestPlausibleMs = 1'000'000'000'000;
constexpr std::int64_t kLatestPlausibleMs = 9'999'999'999'999;

bool plausible_time(std::int64_t ms) { return ms >= kEarliestPlausibleMs && ms <= kLatestPlausibleMs; }

bool plausible(const JournalRecord& r) {
  if (r.type == RecordType::kBroken) return false;
  if (!carries_item(r.type) || !r.has_add_time) return true;
  return plausible_time(r.add_time_ms) && (r.expiry_ms == 0 || plausible_time(r.expiry_ms));
}

// Whether records decode cleanly from `offset` on, starting with an item.
bool resyncs_at(ByteSpan journal, std::uint64_t offset) {
  const ByteSpan tail = journal.subspan(offset);
  if (tail.empty() || tail[0] > kMaxOpcode) return false;
  JournalReader reader(tail);
  JournalRecord record;
  for (int n = 0; n < kResyncRecords && reader.next(&record); ++n) {
    if (record.type == RecordType::kEndOfFile) return n > 0;
    if (n == 0 && (!carries_item(record.type) || !record.has_add_time)) return false;
    if (!plausible(record)) return false;
  }
  return true;
}

// Finds the first BROKEN record at or after `from`; false when there is none.
bool find_broken(ByteSpan journal, std::uint64_t from, JournalRecord* broken) {
  JournalReader reader(journal.subspan(from));
  while (reader.next(broken)) {
    if (broken->type == RecordType::kBroken) {
      broken->offset += from;
      return true;
    }
  }
  return false;
}

// The records that decode in `ranges` of `journal`, each read on its own.
std::uint64_t decoded_records(ByteSpan journal, const std::vector<ByteRange>& ranges) {
  std::uint64_t count = 0;
  for (const ByteRange& range : ranges) {
    JournalReader reader(journal.subspan(range.begin, range.size()));
    JournalRecord record;
    while (reader.next(&record))
      if (record.type != RecordType::kEndOfFile && record.type != RecordType::kBroken) ++count;
  }
  return count;
}

}  // namespace

std::uint64_t RepairPlan::kept_bytes() const {
  std::uint64_t total = 0;
  for (const auto& r : keep) total += r.size();
  return total;
}

RepairPlan plan_repair(ByteSpan journal, bool salvage) {
  RepairPlan plan;
  std::uint64_t start = 0;
  JournalRecord broken;
  while (find_broken(journal, start, &broken)) {
    if (broken.offset > start) plan.keep.push_back({start, broken.offset});
    std::uint64_t resume = journal.size();
    if (salvage) {
      for (std::uint64_t p = broken.offset + 1; p < journal.size(); ++p) {
        if (resyncs_at(journal, p)) {
          resume = p;
          break;
        }
      }
    }
    plan.dropped.push_back({{broken.offset, resume}, broken.error});
    start = resume;
    if (start == journal.size()) return plan;
  }
  if (start < journal.size()) plan.keep.push_back({start, journal.size()});
  return plan;
}

RecordCount count_records(ByteSpan journal, const RepairPlan& plan, const RepairPlan& salvaged) {
  // Salvage keeps every range any plan keeps, and more: its ranges and
  // damaged regions are the journal's records.
  const std::uint64_t total = decoded_records(journal, salvaged.keep) + salvaged.dropped.size();
  const std::uint64_t kept = decoded_records(journal, plan.keep);
  return RecordCount{kept, total - kept};
}

GentlestRepair gentlest_repair(ByteSpan journal) {
  const RepairPlan cut = plan_repair(journal, false);
  if (!cut.changes_file()) return GentlestRepair::kNone;
  const RepairPlan salvaged = plan_repair(journal, true);
  if (count_records(journal, salvaged, salvaged).kept > count_records(journal, cut, salvaged).kept)
    return GentlestRepair::kSalvage;
  return cut.kept_bytes() > 0 ? GentlestRepair::kTruncate : GentlestRepair::kNone;
}

}  // namespace qjt::kestrel
