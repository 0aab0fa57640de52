// JournalReader: decodes a classic Kestrel journal record by record.
//
// Contract:
//  - Every file yields its records in order, then exactly one terminal
//    record: END_OF_FILE when the data ends at a record boundary, or BROKEN
//    at the offset of the first record that cannot be decoded (truncated
//    field or block, invalid opcode, negative or oversized size, item block
//    too short). Nothing after a BROKEN record is decoded, as Kestrel stops
//    replaying a file there.
//  - Decoding never allocates for a record's contents and never trusts a
//    size field beyond checking it against the bytes that remain.
#pragma once

#include "byte_span.h"
#include "journal_record.h"

namespace qjt::kestrel {

class JournalReader {
 public:
  explicit JournalReader(ByteSpan journal) : journal_(journal) {}
  // Starts at `position`, which must be a record boundary (an offset that a
  // reader from 0 returned): how replay re-reads an item it kept by position.
  JournalReader(ByteSpan journal, std::size_t position)
      : journal_(journal), position_(position <= journal.size() ? position : journal.size()) {}

  // Fills *record with the next record. Returns false once the terminal
  // record has been returned.
  bool next(JournalRecord* record);

 private:
  bool decode_common(JournalRecord* record);
  bool decode(ByteReader* in, JournalRecord* record);
  bool read_xid(ByteReader* in, JournalRecord* record);
  bool read_item_block(ByteReader* in, JournalRecord* record);
  bool read_legacy_block(ByteReader* in, JournalRecord* record);
  bool read_block_size(ByteReader* in, std::int32_t minimum, std::int32_t* size,
                       JournalRecord* record);
  bool broken(JournalRecord* record, std::string message);

  ByteSpan journal_;
  std::size_t position_ = 0;
  bool done_ = false;
};

}  // namespace qjt::kestrel
