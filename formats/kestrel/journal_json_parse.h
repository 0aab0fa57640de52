// The inverse of append_record_json: one line of `qjt dump --json` (the
// schema of man/qjt-dump.1) back into a JournalRecord that append_record
// encodes byte for byte as the record it was dumped from.
//
// What is read, per op:
//   every line      "op", one of the record names (END_OF_FILE writes nothing)
//   xid records     "xid", an integer in the i32 range
//   ADD (legacy)    "expiry_ms", a multiple of 1000 whose seconds fit an i32;
//                   "time_ms" absent or null (the record stores none)
//   ADDX, ADD_XID,  "time_ms" (the add time) and "expiry_ms", integers in the
//                   i64 range ("add_time_ms", as older releases wrote it,
//                   when "time_ms" is absent)
//   CONTINUE
//   items, BROKEN   the payload in exactly one of "data" (UTF-8 text),
//                   "data_b64" (RFC 4648 base64, padded) or "data_hex"
//                   (an even number of hex digits, either case)
// "file", "offset", "size", "tail_bytes" and "error" are informational and
// ignored (record surgery with jq leaves them stale); so is any other key.
// "type", when present, must be "record", and "format" "kestrel": another
// kind of line or a line of another family (record_format.h) is refused
// rather than read as a broken journal record.
#pragma once

#include <string>
#include <string_view>

#include "kestrel/journal_record.h"
#include "payload.h"

namespace qjt::kestrel {

// Parses one line. On success fills *record, whose payload is a view into
// *payload_storage (so the storage must outlive the record's use), and
// returns true. On failure returns false and sets *error to a sentence
// saying what was expected and what was found (without a line number).
bool parse_record_json(std::string_view line, JournalRecord* record, std::string* payload_storage, std::string* error);

// The strict payload decoders (lib/payload.h), under their old names here.
using qjt::base64_decode;
using qjt::hex_decode;

}  // namespace qjt::kestrel
