// RecordTally: what the records of a queue's journal come to, counted as
// replay passes them: records and bytes per opcode, and the sizes of the
// payloads the adding records carry (ADD, ADDX, ADD_XID, CONTINUE).
//
// It is stats' share of the replay pass (kestrel_stats.h): replay_journal
// feeds it only when given one, so replay alone never pays for it, and
// stats pays an increment and a histogram add per record. The terminal
// records the reader adds (END_OF_FILE, BROKEN) are no records of the
// journal and are not counted: a broken record is a finding.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "kestrel/journal_record.h"
#include "log_histogram.h"

namespace qjt::kestrel {

class RecordTally {
 public:
  void add(const JournalRecord& record) {
    const auto op = static_cast<std::size_t>(record.type);
    if (op >= records_.size()) return;
    ++records_[op];
    bytes_[op] += record.length;
    if (carries_item(record.type)) payloads_.add(record.payload.size());
  }

  // Of an opcode's records (type <= kMaxOpcode).
  std::uint64_t records(RecordType type) const { return records_[static_cast<std::size_t>(type)]; }
  std::uint64_t bytes(RecordType type) const { return bytes_[static_cast<std::size_t>(type)]; }
  // The payload sizes of the records that add an item.
  const LogHistogram& payloads() const { return payloads_; }

 private:
  std::array<std::uint64_t, kMaxOpcode + 1> records_{};  // by opcode
  std::array<std::uint64_t, kMaxOpcode + 1> bytes_{};
  LogHistogram payloads_;
};

}  // namespace qjt::kestrel
