#include "kestrel/journal_writer.h"

namespace qjt::kestrel {
namespace {

// Little-endian fields gathered in a fixed buffer and appended at once:
// compaction writes millions of headers.
class HeaderBytes {
 public:
  void u8(std::uint8_t v) { bytes_[size_++] = static_cast<char>(v); }
  void le(std::uint64_t value, int width) {
    for (int i = 0; i < width; ++i) bytes_[size_ + static_cast<std::size_t>(i)] = static_cast<char>(value >> (8 * i));
    size_ += static_cast<std::size_t>(width);
  }
  void i32(std::int32_t v) { le(static_cast<std::uint32_t>(v), 4); }
  void i64(std::int64_t v) { le(static_cast<std::uint64_t>(v), 8); }
  void append_to(std::string* out) const { out->append(bytes_, size_); }

 private:
  char bytes_[32];  // the longest header, ADD_XID's, is 25 bytes
  std::size_t size_ = 0;
};

bool has_payload(RecordType type) {
  return type == RecordType::kBroken || type == RecordType::kAdd || carries_item(type);
}

}  // namespace

void append_record_header(std::string* out, const JournalRecord& r) {
  if (r.type == RecordType::kEndOfFile || r.type == RecordType::kBroken) return;  // BROKEN: all payload
  HeaderBytes h;
  h.u8(static_cast<std::uint8_t>(r.type));
  if (carries_xid(r.type)) h.i32(r.xid);
  if (r.type == RecordType::kAdd) {
    h.i32(static_cast<std::int32_t>(r.payload.size() + kLegacyBlockHeader));
    h.i32(static_cast<std::int32_t>(r.expiry_ms / 1000));
  } else if (carries_item(r.type)) {
    h.i32(static_cast<std::int32_t>(r.payload.size() + kItemBlockHeader));
    h.i64(r.add_time_ms);
    h.i64(r.expiry_ms);
  }
  h.append_to(out);
}

void append_record(std::string* out, const JournalRecord& r) {
  append_record_header(out, r);
  if (has_payload(r.type)) out->append(r.payload.as_chars());
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
