// Payload rendering: how message bodies appear in JSON, the same for every
// format and command.
//
//   text    valid UTF-8 as "data", anything else as "data_b64" (the default)
//   base64  always "data_b64"
//   hex     always "data_hex" (lowercase, no separators)
//   none    no payload field at all
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "byte_span.h"

namespace qjt {

enum class DataMode { kText, kBase64, kHex, kNone };

std::optional<DataMode> parse_data_mode(std::string_view name);

struct RenderedPayload {
  std::string_view key;  // "data", "data_b64", "data_hex"; empty for none
  std::string value;     // the JSON string's content, unescaped
};

RenderedPayload render_payload(ByteSpan payload, DataMode mode);

class JsonWriter;
// Adds the payload field to a record line; text mode escapes straight from
// the mapped bytes without an intermediate copy.
void add_payload(JsonWriter* line, ByteSpan payload, DataMode mode);

// The payload on its own indented line after a record's text line, as every
// family's text dump shows it: `    data="..."` (data_b64=, data_hex=), the
// key telling text from base64 or hex, the quoting keeping control bytes off
// the terminal. Nothing when `mode` is none.
void append_payload_text(std::string* out, ByteSpan payload, DataMode mode);

std::string base64_encode(ByteSpan bytes);
std::string hex_encode(ByteSpan bytes);

// Strict decoders of the payload encodings above. Return false on any
// character outside the alphabet, a bad length or misplaced padding, and
// set *error to what was wrong.
bool base64_decode(std::string_view text, std::string* out, std::string* error);
bool hex_decode(std::string_view text, std::string* out, std::string* error);

// The bytes of a payload field as render_payload wrote it: `key` is "data"
// (the text itself), "data_b64" or "data_hex" (decoded), or any key ending
// in "_b64"/"_hex". False, with *error, when the text does not decode.
bool decode_payload(std::string_view key, std::string_view text, std::string* out, std::string* error);

}  // namespace qjt
