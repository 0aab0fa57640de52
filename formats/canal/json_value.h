// JsonValue: a strict JSON reader for Canal's small checkpoint files.
//
// Why not nlohmann: a finding must name the byte where the JSON goes wrong,
// numbers must keep their literal text (a 64-bit position or a serverId
// above 2^31 must not pass through a double), duplicate keys must stay
// visible, and a truncated file must be told apart from a malformed one.
// Nesting deeper than kMaxDepth is refused, so hostile input cannot exhaust
// the stack; nothing is sized from a value read in the file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "byte_span.h"

namespace qjt::canal {

struct JsonValue {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  std::uint64_t offset = 0;  // byte offset of the value's first byte
  std::string text;          // a string's decoded UTF-8, or a number's literal
  bool boolean = false;
  std::vector<JsonValue> items;                            // kArray
  std::vector<std::pair<std::string, JsonValue>> members;  // kObject, in file order

  // Defined where JsonValue is complete: clang with libstdc++ 12 refuses the
  // implicit ones, which instantiate ~vector<pair<string, JsonValue>> inside
  // the class (the fuzz build, tests/fuzz, is built with clang).
  JsonValue();
  JsonValue(const JsonValue&);
  JsonValue(JsonValue&&) noexcept;
  JsonValue& operator=(const JsonValue&);
  JsonValue& operator=(JsonValue&&) noexcept;
  ~JsonValue();

  // The first member named `key`, or null.
  const JsonValue* find(std::string_view key) const;
  // The number as a 64-bit integer; nullopt when it is not an integer
  // literal or does not fit.
  std::optional<std::int64_t> as_int() const;
};

const char* kind_name(JsonValue::Kind kind);

struct JsonError {
  std::uint64_t offset = 0;
  std::string message;
  bool truncated = false;  // the input ended inside the value
};

inline constexpr int kMaxDepth = 32;

// Parses one JSON value that may be followed only by whitespace. The input
// must be UTF-8 (check with valid_utf8_prefix, json_line.h, first).
bool parse_json(ByteSpan bytes, JsonValue* value, JsonError* error);

}  // namespace qjt::canal
