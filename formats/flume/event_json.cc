#include "flume/event_json.h"

namespace qjt::flume {

void write_headers_json(JsonWriter* out, const LogRecord& put) {
  // Bytes that are not UTF-8 become U+FFFD one by one, as Java's decoder
  // replaces them, so that any header can be shown.
  out->begin_object();
  for (const EventHeader& h : put.headers) out->escaped_key(h.key.as_chars()).string(h.value.as_chars());
  out->end_object();
}

void add_event_fields(JsonWriter* line, const LogRecord& put, DataMode mode) {
  write_headers_json(&line->key("headers"), put);
  line->unsigned_num("size", put.body.size());
  add_payload(line, put.body, mode);
}

}  // namespace qjt::flume
