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
//  - A stream read on demand is decoded as it arrives: a record is read as
//    far as its own length, never further, so /dev/zero ends at its first
//    record. A BROKEN record spans the rest of the input, which on a stream
//    means reading to its end; a reader that does not show the tail
//    (set_broken_tail(false)) gets one that spans its first bytes only
//    (at most a record's fixed fields), and stops there.
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
  explicit JournalReader(const InputFile& file, ReadWindow::Lookback lookback = ReadWindow::Lookback::kKept,
                         std::size_t window_capacity = ReadWindow::kDefaultCapacity)
      : window_(file, window_capacity, lookback) {}

  // Whether a BROKEN record on a stream spans the stream's rest (the
  // default) or only its first bytes; a file's is always its rest.
  void set_broken_tail(bool whole) { broken_tail_ = whole; }

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
  void end_broken(JournalRecord* record, std::size_t header_size);
  // File offset at a header cursor.
  std::size_t offset_of(const ByteReader& in) const { return position_ + in.position(); }
  // How many of the `want` bytes after the cursor the input has; the cursor
  // is moved onto the header as the window holds it then.
  std::size_t available_after(ByteReader* in, std::size_t want);

  ReadWindow window_;
  std::size_t position_ = 0;     // of the record being decoded, then of the next
  std::size_t header_size_ = 0;  // of the record being decoded: at most kMaxHeader
  bool done_ = false;
  bool broken_tail_ = true;
};

}  // namespace qjt::kestrel
