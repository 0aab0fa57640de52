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

// Calls write with the bytes as text: themselves when valid UTF-8, else
// with replace_invalid_utf8's replacements.
template <typename Write>
void with_text(ByteSpan bytes, Write write) {
  const std::string_view chars = bytes.as_chars();
  if (is_valid_utf8(chars)) {
    write(chars);
  } else {
    write(replace_invalid_utf8(chars));
  }
}

}  // namespace

void write_headers_json(JsonWriter* out, const LogRecord& put) {
  out->begin_object();
  for (const EventHeader& h : put.headers) {
    with_text(h.key, [out](std::string_view key) { out->escaped_key(key); });
    with_text(h.value, [out](std::string_view value) { out->string(value); });
  }
  out->end_object();
}

void add_event_fields(JsonWriter* line, const LogRecord& put, DataMode mode) {
  write_headers_json(&line->key("headers"), put);
  line->unsigned_num("size", put.body.size());
  add_payload(line, put.body, mode);
}

}  // namespace qjt::flume
