#include "kestrel/journal_reader.h"

#include <algorithm>

#include <fmt/format.h>

namespace qjt::kestrel {
namespace {

std::uint32_t load_u32(const std::uint8_t* p) {
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
}
std::uint64_t load_u64(const std::uint8_t* p) {
  return std::uint64_t{load_u32(p)} | std::uint64_t{load_u32(p + 4)} << 32;
}

}  // namespace

void JournalReader::seek(std::size_t position) {
  position_ = position;
  done_ = false;
}

std::size_t JournalReader::available_after(ByteReader* in, std::size_t want) {
  const std::size_t at = in->position();
  const std::size_t n = window_.available(position_ + at, want);
  *in = ByteReader(window_.view(position_, header_size_), at);
  return n;
}

// The records that make up nearly every journal (ADDX, the xid records,
// REMOVE), when all their fixed fields are in bounds: one bounds check
// instead of one per field. Anything else goes through decode().
bool JournalReader::decode_common(ByteSpan header, JournalRecord* record) {
  const std::uint8_t* p = header.data();
  switch (p[0]) {
    case static_cast<std::uint8_t>(RecordType::kAddX): {
      if (header.size() < 21) return false;
      const auto size = static_cast<std::int32_t>(load_u32(p + 1));
      if (size < kItemBlockHeader) return false;
      const std::size_t length = 5 + static_cast<std::size_t>(size);
      // Read before the window may move (a stream read further), and `p` with it.
      const auto add_time_ms = static_cast<std::int64_t>(load_u64(p + 5));
      const auto expiry_ms = static_cast<std::int64_t>(load_u64(p + 13));
      if (window_.available(position_, length) < length) return false;
      record->type = RecordType::kAddX;
      record->add_time_ms = add_time_ms;
      record->expiry_ms = expiry_ms;
      record->has_add_time = true;
      record->length = length;
      // Last: the view may move the window, and `p` with it. The whole
      // record in one view, so that the window holds it whole.
      record->payload = window_.view(position_, record->length).subspan(21);
      return true;
    }
    case static_cast<std::uint8_t>(RecordType::kSaveXid):
    case static_cast<std::uint8_t>(RecordType::kUnremove):
    case static_cast<std::uint8_t>(RecordType::kConfirmRemove):
    case static_cast<std::uint8_t>(RecordType::kRemoveTentativeXid):
      if (header.size() < 5) return false;
      record->type = static_cast<RecordType>(p[0]);
      record->xid = static_cast<std::int32_t>(load_u32(p + 1));
      record->length = 5;
      return true;
    case static_cast<std::uint8_t>(RecordType::kRemove):
      record->type = RecordType::kRemove;
      record->length = 1;
      return true;
    default:
      return false;
  }
}

bool JournalReader::next(JournalRecord* record) {
  if (done_) return false;
  // Field by field rather than `*record = JournalRecord{}`: this runs once
  // per record, and building and move-assigning a whole record (its error
  // string included) costs more than the decoding of a small one.
  record->type = RecordType::kEndOfFile;
  record->length = 0;
  record->xid = 0;
  record->add_time_ms = 0;
  record->has_add_time = false;
  record->expiry_ms = 0;
  record->payload = ByteSpan();
  record->error.clear();
  record->kestrel_cannot_start = false;
  record->tail_whole = true;
  record->offset = position_;
  window_.release_before(position_);
  header_size_ = window_.available(position_, kMaxHeader);
  if (header_size_ == 0) {
    done_ = true;
    return true;
  }
  window_.count_record();
  const ByteSpan header = window_.view(position_, header_size_);
  if (decode_common(header, record)) {
    position_ += record->length;
    return true;
  }
  ByteReader in(window_.view(position_, header_size_));  // decode_common may have moved the window
  if (!decode(&in, record)) {
    end_broken(record, header_size_);
    return true;
  }
  position_ += record->length;
  return true;
}

// The terminal BROKEN record: all the bytes left, or on a stream whose tail
// is not wanted, the header's.
void JournalReader::end_broken(JournalRecord* record, std::size_t header_size) {
  record->tail_whole = broken_tail_ || !window_.on_stream();
  const std::size_t length = record->tail_whole ? window_.size() - position_ : header_size;
  record->type = RecordType::kBroken;
  record->length = length;
  record->payload = window_.view(position_, length);
  done_ = true;
}

bool JournalReader::decode(ByteReader* in, JournalRecord* record) {
  std::uint8_t opcode = 0;
  in->read_u8(&opcode);
  if (opcode > kMaxOpcode) {
    return broken(record, fmt::format("invalid opcode: expected 0x00 to 0x09, found 0x{:02x} "
                                      "(Kestrel reports {})",
                                      opcode, static_cast<std::int8_t>(opcode)));
  }
  record->type = static_cast<RecordType>(opcode);
  switch (record->type) {
    case RecordType::kAdd:
      return read_legacy_block(in, record);
    case RecordType::kAddX:
      return read_item_block(in, record);
    case RecordType::kAddXid:
    case RecordType::kContinue:
      return read_xid(in, record) && read_item_block(in, record);
    case RecordType::kSaveXid:
    case RecordType::kUnremove:
    case RecordType::kConfirmRemove:
    case RecordType::kRemoveTentativeXid:
      if (!read_xid(in, record)) return false;
      record->length = in->position();
      return true;
    default:  // REMOVE and the legacy REMOVE_TENTATIVE are one byte
      record->length = in->position();
      return true;
  }
}

bool JournalReader::read_xid(ByteReader* in, JournalRecord* record) {
  if (in->read_i32_le(&record->xid)) return true;
  return broken(record, fmt::format("truncated {} record: expected a 4-byte xid at offset {}, "
                                    "found {} byte(s) before end of file",
                                    record_type_name(record->type), offset_of(*in), in->remaining()));
}

bool JournalReader::read_block_size(ByteReader* in, std::int32_t minimum, std::int32_t* size, JournalRecord* record) {
  const auto name = record_type_name(record->type);
  const std::size_t at = offset_of(*in);
  if (!in->read_i32_le(size)) {  // the header is short only at the end of the input
    return broken(record, fmt::format("truncated {} record: expected a 4-byte size at offset {}, "
                                      "found {} byte(s) before end of file",
                                      name, at, in->remaining()));
  }
  if (*size < 0) {
    record->kestrel_cannot_start = true;
    return broken(record, fmt::format("{} record has a negative size field at offset {}: expected a "
                                      "block of at least {} bytes, found {}",
                                      name, at, minimum, *size));
  }
  const auto wanted = static_cast<std::size_t>(*size);
  if (const std::size_t left = available_after(in, wanted); left < wanted) {
    return broken(record, fmt::format("truncated {} record: expected {} bytes after the size field "
                                      "at offset {}, found {} before end of file",
                                      name, *size, at, left));
  }
  if (*size < minimum) {
    return broken(record, fmt::format("{} record's block is too short: expected at least {} bytes, "
                                      "found a size field of {} at offset {}",
                                      name, minimum, *size, at));
  }
  return true;
}

bool JournalReader::read_item_block(ByteReader* in, JournalRecord* record) {
  std::int32_t size = 0;
  if (!read_block_size(in, kItemBlockHeader, &size, record)) return false;
  in->read_i64_le(&record->add_time_ms);
  in->read_i64_le(&record->expiry_ms);
  record->has_add_time = true;
  return read_payload(in, static_cast<std::size_t>(size - kItemBlockHeader), record);
}

bool JournalReader::read_legacy_block(ByteReader* in, JournalRecord* record) {
  std::int32_t size = 0;
  if (!read_block_size(in, kLegacyBlockHeader, &size, record)) return false;
  std::int32_t expiry_seconds = 0;
  in->read_i32_le(&expiry_seconds);
  record->expiry_ms = std::int64_t{expiry_seconds} * 1000;
  return read_payload(in, static_cast<std::size_t>(size - kLegacyBlockHeader), record);
}

// The block's fixed fields are read and its size checked against the file:
// the payload follows them, past the header the cursor covers.
bool JournalReader::read_payload(ByteReader* in, std::size_t size, JournalRecord* record) {
  record->length = in->position() + size;
  record->payload = window_.view(position_, record->length).subspan(in->position());
  return true;
}

bool JournalReader::broken(JournalRecord* record, std::string message) {
  record->error = std::move(message);
  return false;
}

}  // namespace qjt::kestrel
