// InflightFile: Flume's `inflightputs` and `inflighttakes` (spec §3), the
// pointers of transactions still open at checkpoint time.
//
// Layout: a 16-byte MD5 over every byte after it, then big-endian longs
// {transaction ID, n, n event pointers}... Flume's writer sizes its buffer
// 16 bytes too large and writes it after the checksum, so every file it
// writes ends in 16 zero bytes (read back as transaction 0 with no events).
//
// Contract: decoding never throws and never allocates from the count n read
// in the file (it is checked against the bytes left). The decoder reads as
// Flume's deserialize does: a 0-byte file is empty; the count is cast to a
// Java int (a negative one reads no pointers); a tail too short for what it
// announces ends the parse, keeping the pointers read so far. Unlike Flume,
// which stays silent about the tail, each of these is also a finding.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "byte_span.h"
#include "finding.h"
#include "flume/event_pointer.h"

namespace qjt::flume {

inline constexpr std::size_t kInflightChecksumSize = 16;

struct InflightTransaction {
  std::int64_t transaction_id = 0;
  std::vector<EventPointer> pointers;
  std::uint64_t offset = 0;  // of the transaction ID in the file
  friend bool operator==(const InflightTransaction&, const InflightTransaction&) = default;
};

struct InflightFile {
  // In file order (Flume's writer uses hash-map order: not meaningful).
  // Entries with no pointer are left out, as Flume's multimap keeps none.
  std::vector<InflightTransaction> transactions;
  bool checksum_ok = true;  // false: Flume throws BadCheckpointException
  bool complete = true;     // false: a short tail or bad length ended the parse
};

// Findings: inflight_length (1 to 15 bytes: no room for the checksum),
// inflight_checksum, inflight_count (n outside 0..2^31-1),
// inflight_truncated (a tail shorter than it announces).
InflightFile decode_inflight(ByteSpan bytes, std::string_view file, Reporter* reporter);

// Flume's bytes for these transactions (offsets ignored), trailing 16 zero
// bytes included; no transaction gives the 32-byte empty file.
std::string encode_inflight(const std::vector<InflightTransaction>& transactions);

}  // namespace qjt::flume
