// JournalRecord: one decoded record of a classic Kestrel journal.
//
// The payload is a view into the input; a record never owns item bytes.
#pragma once

#include <cstdint>
#include <string>

#include "byte_span.h"
#include "kestrel/journal_format.h"

namespace qjt::kestrel {

struct JournalRecord {
  RecordType type = RecordType::kEndOfFile;
  std::uint64_t offset = 0;  // of the opcode byte (END_OF_FILE: the file size)
  std::uint64_t length = 0;  // encoded bytes; BROKEN: bytes from offset to end of file

  std::int32_t xid = 0;          // valid when carries_xid(type)
  std::int64_t add_time_ms = 0;  // valid when has_add_time
  bool has_add_time = false;     // false for the legacy ADD, which stores none
  std::int64_t expiry_ms = 0;    // 0 = never; legacy ADD: its seconds * 1000
  ByteSpan payload;              // item data; BROKEN: the raw bytes from offset to end of file

  std::string error;  // BROKEN only: what was expected and what was found
  // BROKEN only: Kestrel 2.x aborts its startup on this record (an uncaught
  // exception for a negative size) instead of truncating the file.
  bool kestrel_cannot_start = false;
  // BROKEN only: false when `length` and `payload` stop short of the end
  // (a stream whose tail was not read: JournalReader::set_broken_tail).
  bool tail_whole = true;
};

}  // namespace qjt::kestrel
