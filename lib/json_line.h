// JsonLine: writes one JSON object as one line, field by field, into a
// caller-owned buffer, in the order the fields are added.
//
// It exists for record streams (dump, convert): millions of small objects,
// where building a DOM per record would cost more than decoding. Keys are
// trusted literals; string values are escaped, and bytes that are not valid
// UTF-8 become U+FFFD so every line is valid JSON.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace qjt {

// Appends `value` to `out` as a quoted JSON string.
void append_json_string(std::string* out, std::string_view value);

// True when `bytes` is well-formed UTF-8 (no overlongs, no surrogates).
bool is_valid_utf8(std::string_view bytes);

// The length of the longest well-formed UTF-8 prefix of `bytes`: the
// offset of the first bad byte, or bytes.size().
std::size_t valid_utf8_prefix(std::string_view bytes);

class JsonLine {
 public:
  // Starts an object at the end of *out.
  explicit JsonLine(std::string* out);

  JsonLine& str(std::string_view key, std::string_view value);
  JsonLine& num(std::string_view key, std::int64_t value);
  JsonLine& unsigned_num(std::string_view key, std::uint64_t value);
  JsonLine& boolean(std::string_view key, bool value);
  JsonLine& null(std::string_view key);
  // `json` must already be valid JSON (an array or object built elsewhere).
  JsonLine& raw(std::string_view key, std::string_view json);
  // The two fields every record of a stream (dump --json, convert --to
  // jsonl) starts with: "format", the family (record_format.h), then
  // "file", the file the record came from as it was given. Lines of
  // several files and families, once concatenated, still say where each
  // came from. Must be the first fields added.
  JsonLine& envelope(std::string_view format, std::string_view file);

  // Closes the object and ends the line.
  void finish();
  // Closes the object without ending the line (for objects nested in a
  // larger document).
  void close();

 private:
  void key(std::string_view name);

  std::string* out_;
  bool first_ = true;
};

}  // namespace qjt
