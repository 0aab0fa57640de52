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
//  - Over a ByteSpan, a record's payload views that span. Over an
//    InputFile, the file is read forward through a ReadWindow (far faster
//    than walking the mapping, lib/read_window.h) and a payload view is
//    valid only until the next call to next() or seek(): keep positions.
#pragma once

#include <cstddef>

#include "byte_span.h"
#include "input_file.h"
#include "kestrel/journal_record.h"
#include "read_window.h"

namespace qjt::kestrel {

class JournalReader {
 public:
  explicit JournalReader(ByteSpan journal) : window_(journal) {}
  // Starts at `position` (see seek()).
  JournalReader(ByteSpan journal, std::size_t position) : window_(journal) { seek(position); }
  // `window_capacity` is for tests, which shrink it to cross its edges.
  explicit JournalReader(const InputFile& file, std::size_t window_capacity = ReadWindow::kDefaultCapacity)
      : window_(file, window_capacity) {}

  // Fills *record with the next record. Returns false once the terminal
  // record has been returned.
  bool next(JournalRecord* record);

  // For a writer that copies records: f(piece) for consecutive pieces of
  // the encoded bytes of `record` (a record next() returned), or of its
  // payload, each read through the window however long the record is
  // (ReadWindow::for_each_piece). False when f returned false.
  template <typename F>
  bool for_each_encoded_piece(const JournalRecord& record, F&& f) {
    return window_.for_each_piece(record.offset, record.length, f);
  }
  template <typename F>
  bool for_each_payload_piece(const JournalRecord& record, F&& f) {
    // Every record that has a payload ends with it (a BROKEN one is all payload).
    return window_.for_each_piece(record.offset + record.length - record.payload.size(), record.payload.size(), f);
  }

  // Continues from `position`, which must be a record boundary (an offset a
  // reader from 0 returned): how replay and compaction re-read an item they
  // kept by position. Forward seeks keep the window's reads sequential.
  void seek(std::size_t position);

 private:
  // The longest fixed part of a record: ADD_XID's opcode, xid, size, add
  // time and expiry. Every field check happens within these bytes.
  static constexpr std::size_t kMaxHeader = 25;

  bool decode_common(ByteSpan header, JournalRecord* record);
  bool decode(ByteReader* in, JournalRecord* record);
  bool read_xid(ByteReader* in, JournalRecord* record);
  bool read_item_block(ByteReader* in, JournalRecord* record);
  bool read_legacy_block(ByteReader* in, JournalRecord* record);
  bool read_block_size(ByteReader* in, std::int32_t minimum, std::int32_t* size, JournalRecord* record);
  bool read_payload(ByteReader* in, std::size_t size, JournalRecord* record);
  bool broken(JournalRecord* record, std::string message);
  // File offset, and bytes left in the file, at a header cursor.
  std::size_t offset_of(const ByteReader& in) const { return position_ + in.position(); }
  std::size_t left_after(const ByteReader& in) const { return window_.size() - offset_of(in); }

  ReadWindow window_;
  std::size_t position_ = 0;  // of the record being decoded, then of the next
  bool done_ = false;
};

}  // namespace qjt::kestrel
