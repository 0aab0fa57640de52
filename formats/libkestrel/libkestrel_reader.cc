#include "libkestrel/libkestrel_reader.h"

#include <fmt/format.h>

namespace qjt::libkestrel {
namespace {

std::string magic_text(std::uint32_t magic) {
  return fmt::format("{:02x} {:02x} {:02x} {:02x}", magic >> 24, (magic >> 16) & 0xff, (magic >> 8) & 0xff,
                     magic & 0xff);
}

}  // namespace

bool Reader::broken(Record* record, std::string message) {
  record->op = Op::kBroken;
  record->length = file_.size() - record->offset;
  record->error = std::move(message);
  done_ = true;
  return true;
}

bool Reader::check_magic(Record* record) {
  magic_checked_ = true;
  const std::uint32_t want = expected_ == FileKind::kBookmark ? kBookmarkMagic : kSegmentMagic;
  const char* what = expected_ == FileKind::kBookmark ? "bookmark" : "segment";
  ByteReader in(file_);
  std::uint32_t magic = 0;
  if (!in.read_u32_be(&magic)) {
    return broken(record, fmt::format("no header: expected the 4-byte {} magic {}, found a {}-byte file", what,
                                      magic_text(want), file_.size()));
  }
  if (magic != want) {
    return broken(record, fmt::format("expected the {} magic {}, found {}", what, magic_text(want), magic_text(magic)));
  }
  position_ = 4;
  return false;
}

// A 0x00 command byte: libkestrel's reader stops there, since a segment is
// memory-mapped and pre-extended with zeros (§5.2, §5.5).
bool Reader::end_at_zero(Record* record) {
  record->op = Op::kEndOfFile;
  for (std::size_t i = position_ + 1; i < file_.size(); ++i) {
    if (file_[i] != 0) {
      data_after_end_ = i;
      break;
    }
  }
  done_ = true;
  return true;
}

bool Reader::next(Record* record) {
  if (done_) return false;
  decode_next(record);
  tally_.after_next(done_, done_ ? record->offset : position_);
  return true;
}

bool Reader::decode_next(Record* record) {
  *record = Record{};
  if (!magic_checked_ && check_magic(record)) return true;
  record->offset = position_;
  if (position_ >= file_.size()) {
    record->op = Op::kEndOfFile;
    done_ = true;
    return true;
  }
  const std::uint8_t command_byte = file_[position_];
  if (command_byte == 0) return end_at_zero(record);
  ByteReader in(file_, position_ + 1);
  if (!decode(&in, command_byte, record)) return true;  // BROKEN
  record->length = in.position() - position_;
  position_ = in.position();
  return true;
}

// Framing first, in RecordReader's order: header, size limit, entry; then
// the fields of the known commands. Returns false on a BROKEN record.
bool Reader::decode(ByteReader* in, std::uint8_t command_byte, Record* record) {
  const std::uint8_t command = command_byte >> 4;
  const std::uint8_t words = command_byte & 0x0f;
  ByteSpan header, data;
  if (!in->read_span(4u * words, &header)) {
    broken(record, fmt::format("truncated header: command byte {:#04x} announces {} header byte(s), {} remain",
                               command_byte, 4 * words, in->remaining()));
    return false;
  }
  if (command >= kFirstDataCommand) {
    std::int32_t size = 0;
    if (!ByteReader(header).read_i32_le(&size)) {
      broken(record,
             fmt::format("command byte {:#04x}: command {} carries data but has no size word", command_byte, command));
      return false;
    }
    if (size > kLargestData) {
      broken(record, fmt::format("item too large: {} data bytes, over libkestrel's limit of {}", size, kLargestData));
      return false;
    }
    if (size < 0) {
      broken(record, fmt::format("negative data size {}", size));
      return false;
    }
    if (!in->read_span(static_cast<std::size_t>(size), &data)) {
      broken(record, fmt::format("truncated entry: {} data byte(s) announced, {} remain", size, in->remaining()));
      return false;
    }
  }
  return decode_fields(command, words, header, data, record);
}

bool Reader::decode_fields(std::uint8_t command, std::uint8_t words, ByteSpan header, ByteSpan data, Record* record) {
  ByteReader fields(header);
  switch (command) {
    case kCmdReadHead:
      if (words < 2) {
        broken(record, fmt::format("corrupted READ_HEAD: expected 2 header words (the i64 head), found {}", words));
        return false;
      }
      record->op = Op::kReadHead;
      fields.read_i64_le(&record->id);
      return true;
    case kCmdPut: {
      // Words 6 (no expiry) or 8 (with); 7 would cut the expiry in half.
      if (words < kPutWords || words == kPutWords + 1) {
        broken(record, fmt::format("corrupted PUT: expected {} or {} header words, found {}", kPutWords,
                                   kPutWordsWithExpiry, words));
        return false;
      }
      record->op = Op::kPut;
      std::int32_t size = 0;
      fields.read_i32_le(&size);
      fields.read_i32_le(&record->error_count);
      fields.read_i64_le(&record->id);
      fields.read_i64_le(&record->add_time_ms);
      if (words >= kPutWordsWithExpiry) {
        std::int64_t expiry = 0;
        fields.read_i64_le(&expiry);
        record->expiry_ms = expiry;
      }
      record->data = data;
      return true;
    }
    case kCmdReadDone:
      if (data.size() % 8 != 0) {
        broken(record,
               fmt::format("corrupted READ_DONE: {} data bytes, not a multiple of 8 (one i64 per id)", data.size()));
        return false;
      }
      record->op = Op::kReadDone;
      record->data = data;
      return true;
    default:
      record->op = Op::kUnknown;
      record->command = command;
      record->data = data;
      return true;
  }
}

}  // namespace qjt::libkestrel
