// LegacyUpgrade: rewrites a Kestrel 1.x journal, record by record, into the
// opcode set Kestrel 2.x writes, so that 2.x's replay of the result equals
// 1.x's replay of the original (the same queue, the same open transactions
// under the same xids). This removes the cross-version hazard of spec 2.4:
// 2.x files every legacy REMOVE_TENTATIVE under xid 0.
//
//   ADD (0x00)               -> ADDX, add time = the given time, expiry kept
//   REMOVE_TENTATIVE (0x03)  -> REMOVE_TENTATIVE_XID with the xid 1.x assigned
//                               (the counter + 1, skipping 0 and open xids)
//   ADD_XID (0x07)           -> ADDX (its xid is inert)
//   SAVE_XID (0x04)          -> nothing (it only moves the counter, and every
//                               REMOVE_TENTATIVE_XID written sets it anyway)
//   BROKEN                   -> its raw bytes, unchanged
//   END_OF_FILE              -> nothing
//   anything else            -> copied as it is
//
// The 1.x state (queue length and open xids) is tracked by a ReplayState
// with legacy xids, so memory grows with the live items, not the journal.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "kestrel/journal_record.h"
#include "kestrel/replay_state.h"
#include "reporters.h"

namespace qjt::kestrel {

struct UpgradeCounts {
  std::uint64_t legacy_adds = 0;     // ADD rewritten as ADDX
  std::uint64_t legacy_removes = 0;  // REMOVE_TENTATIVE given its xid
  std::uint64_t add_xids = 0;        // ADD_XID rewritten as ADDX
  std::uint64_t save_xids = 0;       // SAVE_XID dropped
  std::uint64_t copied = 0;          // records copied unchanged
  std::uint64_t broken_bytes = 0;    // raw bytes of a BROKEN tail copied
};

class LegacyUpgrade {
 public:
  // `legacy_add_time_ms` becomes the add time of every legacy ADD.
  explicit LegacyUpgrade(std::int64_t legacy_add_time_ms);
  ~LegacyUpgrade();
  LegacyUpgrade(const LegacyUpgrade&) = delete;
  LegacyUpgrade& operator=(const LegacyUpgrade&) = delete;

  // Appends the 2.x form of `record` (the records of one stream, in order).
  void convert(const JournalRecord& record, std::string* out);

  const UpgradeCounts& counts() const { return counts_; }

 private:
  std::int64_t legacy_add_time_ms_;
  DiscardFindings silent_;
  ReplayState state_;
  UpgradeCounts counts_;
};

}  // namespace qjt::kestrel
