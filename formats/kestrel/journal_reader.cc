#include "journal_reader.h"

#include <fmt/format.h>

namespace qjt::kestrel {

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
  record->offset = position_;
  if (position_ == journal_.size()) {
    record->type = RecordType::kEndOfFile;
    done_ = true;
    return true;
  }
  ByteReader in(journal_, position_);
  if (!decode(&in, record)) {
    record->type = RecordType::kBroken;
    record->length = journal_.size() - position_;
    record->payload = journal_.subspan(position_);
    done_ = true;
    return true;
  }
  record->length = in.position() - position_;
  position_ = in.position();
  return true;
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
    case RecordType::kAdd: return read_legacy_block(in, record);
    case RecordType::kAddX: return read_item_block(in, record);
    case RecordType::kAddXid:
    case RecordType::kContinue: return read_xid(in, record) && read_item_block(in, record);
    case RecordType::kSaveXid:
    case RecordType::kUnremove:
    case RecordType::kConfirmRemove:
    case RecordType::kRemoveTentativeXid: return read_xid(in, record);
    default: return true;  // REMOVE and the legacy REMOVE_TENTATIVE are one byte
  }
}

bool JournalReader::read_xid(ByteReader* in, JournalRecord* record) {
  if (in->read_i32_le(&record->xid)) return true;
  return broken(record, fmt::format("truncated {} record: expected a 4-byte xid at offset {}, "
                                    "found {} byte(s) before end of file",
                                    record_type_name(record->type), in->position(),
                                    in->remaining()));
}

bool JournalReader::read_block_size(ByteReader* in, std::int32_t minimum, std::int32_t* size,
                                    JournalRecord* record) {
  const auto name = record_type_name(record->type);
  const std::size_t at = in->position();
  if (!in->read_i32_le(size)) {
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
  if (static_cast<std::size_t>(*size) > in->remaining()) {
    return broken(record, fmt::format("truncated {} record: expected {} bytes after the size field "
                                      "at offset {}, found {} before end of file",
                                      name, *size, at, in->remaining()));
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
  in->read_span(static_cast<std::size_t>(size - kItemBlockHeader), &record->payload);
  record->has_add_time = true;
  return true;
}

bool JournalReader::read_legacy_block(ByteReader* in, JournalRecord* record) {
  std::int32_t size = 0;
  if (!read_block_size(in, kLegacyBlockHeader, &size, record)) return false;
  std::int32_t expiry_seconds = 0;
  in->read_i32_le(&expiry_seconds);
  record->expiry_ms = std::int64_t{expiry_seconds} * 1000;
  in->read_span(static_cast<std::size_t>(size - kLegacyBlockHeader), &record->payload);
  return true;
}

bool JournalReader::broken(JournalRecord* record, std::string message) {
  record->error = std::move(message);
  return false;
}

}  // namespace qjt::kestrel
