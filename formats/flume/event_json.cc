#include "flume/event_json.h"

#include <string>
#include <string_view>

namespace qjt::flume {
namespace {

// Java decodes header bytes as UTF-8 with replacement; so does qjt, byte by
// byte, so that any header can be shown.
std::string replace_invalid_utf8(std::string_view bytes) {
  std::string out;
  std::size_t i = 0;
  while (i < bytes.size()) {
    std::size_t n = 1;
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c >= 0xF0) n = 4;
    else if (c >= 0xE0) n = 3;
    else if (c >= 0xC0) n = 2;
    if (i + n <= bytes.size() && is_valid_utf8(bytes.substr(i, n))) {
      out.append(bytes.substr(i, n));
      i += n;
    } else {
      out.append("\xEF\xBF\xBD");
      ++i;
    }
  }
  return out;
}

void append_text(std::string* out, ByteSpan bytes) {
  const std::string_view chars = bytes.as_chars();
  if (is_valid_utf8(chars)) {
    append_json_string(out, chars);
  } else {
    append_json_string(out, replace_invalid_utf8(chars));
  }
}

}  // namespace

void append_headers_json(std::string* out, const LogRecord& put) {
  out->push_back('{');
  bool first = true;
  for (const EventHeader& h : put.headers) {
    if (!first) out->push_back(',');
    first = false;
    append_text(out, h.key);
    out->push_back(':');
    append_text(out, h.value);
  }
  out->push_back('}');
}

void add_event_fields(JsonLine* line, const LogRecord& put, DataMode mode) {
  std::string headers;
  append_headers_json(&headers, put);
  line->raw("headers", headers).unsigned_num("size", put.body.size());
  add_payload(line, put.body, mode);
}

}  // namespace qjt::flume
