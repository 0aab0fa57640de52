// How a Flume event (a Put record's headers and body) appears in JSON, the
// same in dump, replay and convert:
//   "headers": {"key": "value", ...}   (in record order; invalid UTF-8 in a
//                                       key or value becomes U+FFFD)
//   "size": body bytes, then the body as every qjt payload is rendered
//   (lib/payload.h: data / data_b64 / data_hex, or nothing for --data none).
#pragma once

#include "flume/log_record.h"
#include "json_line.h"
#include "payload.h"

namespace qjt::flume {

void add_event_fields(JsonWriter* line, const LogRecord& put, DataMode mode);

// The headers alone, as a JSON object.
void write_headers_json(JsonWriter* out, const LogRecord& put);

}  // namespace qjt::flume
