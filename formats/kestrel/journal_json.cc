#include "kestrel/journal_json.h"

#include <fmt/format.h>

#include "json_line.h"
#include "record_format.h"
#include "time_value.h"

namespace qjt::kestrel {
namespace {

// time_ms, the add time (null for the legacy ADD, which stores none),
// expiry_ms, size and the payload: the fields every item carries.
void add_item_fields(JsonWriter* line, bool has_add_time, std::int64_t add_time_ms, std::int64_t expiry_ms,
                     ByteSpan payload, DataMode mode) {
  if (has_add_time) {
    line->num("time_ms", add_time_ms);
  } else {
    line->null("time_ms");
  }
  line->num("expiry_ms", expiry_ms).unsigned_num("size", payload.size());
  add_payload(line, payload, mode);
}

}  // namespace

void append_record_json(std::string* out, std::string_view file, const JournalRecord& record, DataMode mode) {
  JsonLine line(out, JsonType::kRecord);
  line.envelope(record_format::kKestrel, file).unsigned_num("offset", record.offset);
  line.str("op", record_type_name(record.type));
  if (carries_xid(record.type)) line.num("xid", record.xid);
  if (carries_item(record.type)) {
    add_item_fields(&line, record.has_add_time, record.add_time_ms, record.expiry_ms, record.payload, mode);
  }
  if (record.type == RecordType::kBroken) {
    // The raw bytes from the record's offset to the end of the file, so the
    // JSON Lines carry the whole file (qjt convert --to kestrel).
    line.unsigned_num("tail_bytes", record.length);
    add_payload(&line, record.payload, mode);
    line.str("error", record.error);
  }
  line.finish();
}

void append_record_text(std::string* out, const JournalRecord& record, DataMode mode) {
  auto it = std::back_inserter(*out);
  fmt::format_to(it, "{:>10}  {}", record.offset, record_type_name(record.type));
  if (carries_item(record.type)) fmt::format_to(it, " {:<6}", record.payload.size());
  if (carries_xid(record.type)) fmt::format_to(it, " xid={}", record.xid);
  if (record.has_add_time) fmt::format_to(it, " add={}", format_time(record.add_time_ms));
  if (carries_item(record.type) && record.expiry_ms != 0) fmt::format_to(it, " exp={}", format_time(record.expiry_ms));
  if (record.type == RecordType::kBroken) fmt::format_to(it, "  {}", record.error);
  out->push_back('\n');
  if (carries_item(record.type)) append_payload_text(out, record.payload, mode);
}

void write_item_json(JsonWriter* out, std::string_view file, const JournalRecord& added_by, DataMode mode,
                     std::optional<std::int32_t> xid) {
  out->begin_object();
  if (xid) out->num("xid", *xid);
  out->str("file", file).unsigned_num("offset", added_by.offset);
  add_item_fields(out, added_by.has_add_time, added_by.add_time_ms, added_by.expiry_ms, added_by.payload, mode);
  out->end_object();
}

}  // namespace qjt::kestrel
