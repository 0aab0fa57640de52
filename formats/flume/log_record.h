// LogRecord: one record of a Flume data log (log-N), V2 or V3, as the
// sequential reader meets it (spec §5.1-5.3).
//
// Views, not copies: body, header keys and values point into the mapped
// file (or, for an encrypted V3 log, into the reader's decryption buffer)
// and stay valid until the reader's next call to next().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "byte_span.h"
#include "flume/event_pointer.h"

namespace qjt::flume {

enum class LogRecordType : std::uint8_t {
  kPut,        // TransactionEventRecord type 1
  kTake,       // 2
  kRollback,   // 3
  kCommit,     // 4
  kNoop,       // OP byte 0x00: a record neutralised by the integrity tool
  kEndOfData,  // OP byte 0x80 (preallocated fill) or the physical end of the file
  kBroken,     // anything the reader cannot decode; ends the file as Flume's reader stops
};

// "put", "take", "rollback", "commit", "noop", "end_of_data", "broken"
const char* log_record_type_name(LogRecordType type);
// The same in upper case, as JSON's "op" has every family's record kind
// (qjt-json(5)): "PUT", "TAKE", ..., "END_OF_DATA", "BROKEN".
const char* log_record_op_name(LogRecordType type);

struct LogRecord;
// For a put whose CRC32 fails: "expected CRC32 S, found C over bytes A to B"
// (the stored and the computed checksum, the body's range in the file).
std::string crc_mismatch_message(const LogRecord& put);

struct EventHeader {
  ByteSpan key;
  ByteSpan value;  // empty for a header written without a value (Flume reads it as "")
};

struct LogRecord {
  LogRecordType type = LogRecordType::kEndOfData;
  std::uint64_t offset = 0;  // of the OP byte: the pointer a checkpoint holds for a put
  std::uint64_t size = 0;    // bytes from the OP byte to the next record; kBroken: 5 + L when a V3
                             // record's framing was intact (its whole extent), else 0
  std::int64_t transaction_id = 0;
  std::int64_t write_order_id = 0;

  // kPut
  std::vector<EventHeader> headers;  // reused by the reader: no allocation per record
  ByteSpan body;
  std::uint64_t body_offset = 0;  // of body's first byte in the file (also when encrypted: CTR keeps positions)
  bool null_body = false;         // V2 body length -1 (Flume's null body); body is then empty
  std::optional<std::uint32_t> stored_crc;  // V3 Put.checksum, absent before Flume 1.4
  std::uint32_t computed_crc = 0;           // CRC32 of body, computed only when stored_crc is present (and checked)
  bool crc_ok = true;                       // false only when stored_crc does not match
  // Put.checksum is an sfixed64: a stored value above 32 bits never matches
  // (Flume compares longs); stored_crc then holds its low 32 bits.

  // kTake: the put taken
  EventPointer taken;
  // kCommit: 1 = a put transaction, 2 = a take transaction
  std::int16_t commit_type = 0;

  // kBroken: what was expected and found. kNoop: the skipped length.
  std::string error;

  // V3: the payload's bytes after the footer, which Flume ignores. Flume
  // writes none: they are what a length damaged upward swallowed (the
  // records that followed, unread by Flume's replay).
  std::uint64_t trailing_bytes = 0;
  // The offset of the first of them: where the record's fields end.
  std::uint64_t trailing_offset() const { return offset + size - trailing_bytes; }
};

// For a record with trailing_bytes: "expected the record to end at byte E
// with its footer, found N more bytes up to F (...)" (F: where its length
// says it ends).
std::string trailing_bytes_message(const LogRecord& record);

}  // namespace qjt::flume
