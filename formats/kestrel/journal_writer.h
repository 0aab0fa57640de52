// Encoding of classic Kestrel records, byte for byte as Kestrel writes them
// (README.md, "The file"). The inverse of JournalReader: for every record
// the reader returns, append_record writes the bytes it was read from.
#pragma once

#include <string>

#include "kestrel/journal_record.h"

namespace qjt::kestrel {

// Appends the encoding of `record` to *out. A BROKEN record appends its raw
// bytes (its payload); END_OF_FILE appends nothing.
void append_record(std::string* out, const JournalRecord& record);
// The same without the payload bytes, which follow in the encoding: for a
// writer that sends a large payload on without copying it.
void append_record_header(std::string* out, const JournalRecord& record);

// The ADDX record Kestrel's rewrite writes for an item.
JournalRecord addx_record(ByteSpan payload, std::int64_t add_time_ms, std::int64_t expiry_ms);
// A record made only of an opcode and an xid (SAVE_XID, UNREMOVE, ...).
JournalRecord xid_record(RecordType type, std::int32_t xid);

}  // namespace qjt::kestrel
