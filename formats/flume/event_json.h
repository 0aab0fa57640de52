// How a Flume event (a Put record's headers and body) appears in JSON, the
// same in dump, replay and convert, and its headers in text:
//   "headers": {"key": "value", ...}   (in record order; invalid UTF-8 in a
//                                       key or value becomes U+FFFD)
//   "time_ms": the "timestamp" header as epoch milliseconds, when it holds
//              a decimal integer (the header itself stays in "headers")
//   "size": body bytes, then the body as every qjt payload is rendered
//   (lib/payload.h: data / data_b64 / data_hex, or nothing for --data none).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "flume/log_record.h"
#include "json_line.h"
#include "payload.h"

namespace qjt::flume {

void add_event_fields(JsonWriter* line, const LogRecord& put, DataMode mode);

// A put's event time: its "timestamp" header, where Flume's
// TimestampInterceptor (and most sources) put epoch milliseconds; nullopt
// for another record, or a header that is absent or no decimal integer.
std::optional<std::int64_t> event_time_ms(const LogRecord& put);
// "time_ms": event_time_ms, when there is one.
void write_event_time_json(JsonWriter* out, const LogRecord& put);

// The headers alone, as a JSON object.
void write_headers_json(JsonWriter* out, const LogRecord& put);
// The headers as text output shows them: that JSON object, except that a
// "timestamp" header holding a decimal integer shows it as a time
// (time_value.h format_time: {"timestamp":"2023-11-14T22:13:20.204Z"}), as
// every other time in text is shown. JSON keeps the header as it is.
std::string headers_text(const LogRecord& put);

}  // namespace qjt::flume
