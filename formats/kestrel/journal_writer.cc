#include "journal_writer.h"

namespace qjt::kestrel {
namespace {

void put_le(std::string* out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}
void put_i32(std::string* out, std::int32_t v) { put_le(out, static_cast<std::uint32_t>(v), 4); }
void put_i64(std::string* out, std::int64_t v) { put_le(out, static_cast<std::uint64_t>(v), 8); }

void put_item_block(std::string* out, const JournalRecord& r) {
  put_i32(out, static_cast<std::int32_t>(r.payload.size() + kItemBlockHeader));
  put_i64(out, r.add_time_ms);
  put_i64(out, r.expiry_ms);
  out->append(r.payload.as_chars());
}

}  // namespace

void append_record(std::string* out, const JournalRecord& r) {
  if (r.type == RecordType::kEndOfFile) return;
  if (r.type == RecordType::kBroken) {
    out->append(r.payload.as_chars());
    return;
  }
  out->push_back(static_cast<char>(r.type));
  if (carries_xid(r.type)) put_i32(out, r.xid);
  if (r.type == RecordType::kAdd) {
    put_i32(out, static_cast<std::int32_t>(r.payload.size() + kLegacyBlockHeader));
    put_i32(out, static_cast<std::int32_t>(r.expiry_ms / 1000));
    out->append(r.payload.as_chars());
  } else if (carries_item(r.type)) {
    put_item_block(out, r);
  }
}

JournalRecord addx_record(ByteSpan payload, std::int64_t add_time_ms, std::int64_t expiry_ms) {
  JournalRecord r;
  r.type = RecordType::kAddX;
  r.payload = payload;
  r.add_time_ms = add_time_ms;
  r.has_add_time = true;
  r.expiry_ms = expiry_ms;
  return r;
}

JournalRecord xid_record(RecordType type, std::int32_t xid) {
  JournalRecord r;
  r.type = type;
  r.xid = xid;
  return r;
}

}  // namespace qjt::kestrel
