#include "libkestrel/libkestrel_json.h"

#include <fmt/format.h>

#include "json_line.h"
#include "record_format.h"
#include "time_value.h"

namespace qjt::libkestrel {
namespace {

// Everything after the envelope: replay's item objects have "file" but,
// not being a record stream, no "format".
JsonWriter& add_fields(JsonWriter& line, const Record& record, DataMode mode) {
  line.unsigned_num("offset", record.offset).str("op", op_name(record.op));
  switch (record.op) {
    case Op::kPut:
      line.num("id", record.id).num("error_count", record.error_count).num("time_ms", record.add_time_ms);
      record.expiry_ms ? line.num("expiry_ms", *record.expiry_ms) : line.null("expiry_ms");
      line.unsigned_num("size", record.data.size());
      add_payload(&line, record.data, mode);
      break;
    case Op::kReadHead:
      line.num("id", record.id);
      break;
    case Op::kReadDone:
      line.begin_array("ids");
      for (std::size_t i = 0; i < record.done_count(); ++i) line.number(record.done_id(i));
      line.end_array();
      break;
    case Op::kUnknown:
      line.num("command", record.command).unsigned_num("size", record.data.size());
      break;
    case Op::kBroken:
      line.str("error", record.error);
      break;
    case Op::kEndOfFile:
      break;
  }
  return line;
}

}  // namespace

void append_record_json(std::string* out, std::string_view file, const Record& record, DataMode mode) {
  JsonLine line(out, JsonType::kRecord);
  add_fields(line.envelope(record_format::kLibkestrel, file), record, mode).finish();
}

void write_record_object(JsonWriter* out, std::string_view file, const Record& record, DataMode mode) {
  add_fields(out->begin_object().str("file", file), record, mode).end_object();
}

void append_record_text(std::string* out, const Record& record, DataMode mode) {
  auto it = std::back_inserter(*out);
  fmt::format_to(it, "{:>10}  {}", record.offset, op_name(record.op));
  switch (record.op) {
    case Op::kPut:
      fmt::format_to(it, " {:<6} id={} add={}", record.data.size(), record.id, format_time(record.add_time_ms));
      if (record.expiry_ms) fmt::format_to(it, " exp={}", format_time(*record.expiry_ms));
      if (record.error_count != 0) fmt::format_to(it, " errors={}", record.error_count);
      break;
    case Op::kReadHead:
      fmt::format_to(it, " {}", record.id);
      break;
    case Op::kReadDone: {
      std::string ids;
      for (std::size_t i = 0; i < record.done_count(); ++i)
        fmt::format_to(std::back_inserter(ids), "{}{}", i > 0 ? "," : "", record.done_id(i));
      fmt::format_to(it, " ({})", ids);
      break;
    }
    case Op::kUnknown:
      fmt::format_to(it, " command={} size={}", record.command, record.data.size());
      break;
    case Op::kBroken:
      fmt::format_to(it, "  {}", record.error);
      break;
    case Op::kEndOfFile:
      break;
  }
  out->push_back('\n');
  if (record.op == Op::kPut) append_payload_text(out, record.data, mode);
}

}  // namespace qjt::libkestrel
