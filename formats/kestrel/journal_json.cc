#include "journal_json.h"

#include <fmt/format.h>

#include "json_line.h"

namespace qjt::kestrel {

void append_record_json(std::string* out, std::string_view file, const JournalRecord& record,
                        DataMode mode) {
  JsonLine line(out);
  line.str("file", file).unsigned_num("offset", record.offset).str("op", record_type_name(record.type));
  if (carries_xid(record.type)) line.num("xid", record.xid);
  if (carries_item(record.type)) {
    if (record.has_add_time) {
      line.num("add_time_ms", record.add_time_ms);
    } else {
      line.null("add_time_ms");
    }
    line.num("expiry_ms", record.expiry_ms).unsigned_num("size", record.payload.size());
    add_payload(&line, record.payload, mode);
  }
  if (record.type == RecordType::kBroken) {
    line.unsigned_num("tail_bytes", record.length).str("error", record.error);
  }
  line.finish();
}

void append_record_text(std::string* out, const JournalRecord& record, DataMode mode) {
  auto it = std::back_inserter(*out);
  fmt::format_to(it, "{:08x}  {}", record.offset, record_type_name(record.type));
  if (carries_item(record.type)) fmt::format_to(it, " {:<6}", record.payload.size());
  if (carries_xid(record.type)) fmt::format_to(it, " xid={}", record.xid);
  if (record.has_add_time) fmt::format_to(it, " add={}", record.add_time_ms);
  if (carries_item(record.type) && record.expiry_ms != 0) fmt::format_to(it, " exp={}", record.expiry_ms);
  if (record.type == RecordType::kBroken) fmt::format_to(it, "  {}", record.error);
  out->push_back('\n');
  if (!carries_item(record.type) || mode == DataMode::kNone) return;
  const RenderedPayload rendered = render_payload(record.payload, mode);
  out->append("    ");
  append_json_string(out, rendered.value);
  out->push_back('\n');
}

void append_item_json(std::string* out, std::string_view file, const QueuedItem& item,
                      DataMode mode, bool with_xid) {
  JsonLine line(out);
  if (with_xid) line.num("xid", item.xid);
  line.str("file", file).unsigned_num("offset", item.record_offset);
  if (item.has_add_time) {
    line.num("add_time_ms", item.add_time_ms);
  } else {
    line.null("add_time_ms");
  }
  line.num("expiry_ms", item.expiry_ms).unsigned_num("size", item.payload.size());
  add_payload(&line, item.payload, mode);
  line.close();
}

}  // namespace qjt::kestrel
