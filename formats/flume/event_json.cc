#include "flume/event_json.h"

#include <string_view>

#include "time_value.h"
#include "whole_number.h"

namespace qjt::flume {

namespace {

// The headers as a JSON object; with `timestamp_as_time`, a "timestamp"
// header holding a decimal integer as format_time shows it.
void write_headers(JsonWriter* out, const LogRecord& put, bool timestamp_as_time) {
  // Bytes that are not UTF-8 become U+FFFD one by one, as Java's decoder
  // replaces them, so that any header can be shown.
  out->begin_object();
  for (const EventHeader& h : put.headers) {
    out->escaped_key(h.key.as_chars());
    const auto ms = timestamp_as_time && h.key.as_chars() == "timestamp"
                        ? whole_number<std::int64_t>(h.value.as_chars())
                        : std::nullopt;
    ms ? out->string(format_time(*ms)) : out->string(h.value.as_chars());
  }
  out->end_object();
}

}  // namespace

void write_headers_json(JsonWriter* out, const LogRecord& put) { write_headers(out, put, false); }

std::string headers_text(const LogRecord& put) {
  std::string text;
  JsonWriter out(&text);
  write_headers(&out, put, true);
  return text;
}

std::optional<std::int64_t> event_time_ms(const LogRecord& put) {
  if (put.type != LogRecordType::kPut) return std::nullopt;
  for (const EventHeader& h : put.headers)
    if (h.key.as_chars() == "timestamp") return whole_number<std::int64_t>(h.value.as_chars());
  return std::nullopt;
}

void write_event_time_json(JsonWriter* out, const LogRecord& put) {
  if (const auto ms = event_time_ms(put)) out->num("time_ms", *ms);
}

void add_event_fields(JsonWriter* line, const LogRecord& put, DataMode mode) {
  write_headers_json(&line->key("headers"), put);
  write_event_time_json(line, put);
  line->unsigned_num("size", put.body.size());
  add_payload(line, put.body, mode);
}

}  // namespace qjt::flume
