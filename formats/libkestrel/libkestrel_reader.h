// Reader: decodes a libkestrel segment or bookmark record by record, with
// the checks libkestrel's RecordReader makes, in its order (spec §5.4).
//
// Contract:
//  - After the 4-byte magic, every record in order, then exactly one
//    terminal record: END_OF_FILE where the data ends (the end of the file,
//    or a 0x00 command byte, which ends a pre-extended segment), or BROKEN
//    at the offset of the first record that cannot be decoded: a file
//    without the expected magic, a truncated header or entry, an item over
//    16 MiB or with a negative size, a READ_HEAD, PUT or READ_DONE whose
//    header is too short for its fields. Nothing after it is decoded, as
//    libkestrel truncates a segment there.
//  - Unknown commands are returned as UNKNOWN records, skipped by their
//    framing.
//  - Progress (progress.h) hears of the records and bytes read in batches
//    (ReadTally), not per record.
//  - A size read from the file is checked against the 16 MiB limit and the
//    bytes that remain before anything uses it; nothing is allocated.
#pragma once

#include <optional>

#include "libkestrel/libkestrel_record.h"
#include "read_tally.h"

namespace qjt::libkestrel {

class Reader {
 public:
  // `expected` is the kind the file must be (kSegment or kBookmark).
  Reader(ByteSpan file, FileKind expected) : file_(file), expected_(expected), tally_(file) {}
  // Starts at `position`, a record boundary a reader from the start
  // returned: how replay decodes an item again from its offset.
  Reader(ByteSpan file, FileKind expected, std::size_t position)
      : file_(file), expected_(expected), position_(position), magic_checked_(true), tally_(file, position) {}

  // Fills *record with the next record. Returns false once the terminal
  // record has been returned.
  bool next(Record* record);

  // After an END_OF_FILE at a 0x00 command byte: the offset of the first
  // non-zero byte behind it (a segment's padding is all zeros).
  std::optional<std::uint64_t> data_after_end() const { return data_after_end_; }

 private:
  // next() without the counting; true.
  bool decode_next(Record* record);
  bool check_magic(Record* record);
  bool decode(ByteReader* in, std::uint8_t command_byte, Record* record);
  bool decode_fields(std::uint8_t command, std::uint8_t words, ByteSpan header, ByteSpan data, Record* record);
  bool end_at_zero(Record* record);
  bool broken(Record* record, std::string message);

  ByteSpan file_;
  FileKind expected_;
  std::size_t position_ = 0;
  bool magic_checked_ = false;
  bool done_ = false;
  std::optional<std::uint64_t> data_after_end_;
  ReadTally tally_;  // records and bytes, for progress
};

}  // namespace qjt::libkestrel
