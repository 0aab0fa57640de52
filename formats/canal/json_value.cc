#include "canal/json_value.h"

#include <array>
#include <utility>

#include "json_writer.h"
#include "whole_number.h"

namespace qjt::canal {
namespace {

bool is_space(std::uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

class Parser {
 public:
  Parser(ByteSpan bytes, JsonError* error) : bytes_(bytes), error_(error) {}

  bool document(JsonValue* value) {
    skip_space();
    if (!parse_value(value, 0)) return false;
    skip_space();
    if (pos_ < bytes_.size()) return fail("expected the end of the file after the JSON value");
    return true;
  }

 private:
  bool fail(const std::string& message) {
    error_->offset = pos_;
    error_->truncated = pos_ >= bytes_.size();
    error_->message = error_->truncated ? "the file ends inside the JSON value (" + message + ")" : message;
    return false;
  }
  bool at_end() const { return pos_ >= bytes_.size(); }
  std::uint8_t peek() const { return bytes_[pos_]; }
  void skip_space() {
    while (!at_end() && is_space(peek())) ++pos_;
  }

  bool parse_value(JsonValue* v, int depth) {
    if (depth > kMaxDepth) return fail("JSON nested deeper than 32 levels");
    if (at_end()) return fail("expected a value");
    v->offset = pos_;
    switch (peek()) {
      case '{':
        return parse_object(v, depth);
      case '[':
        return parse_array(v, depth);
      case '"':
        v->kind = JsonValue::Kind::kString;
        return parse_string(&v->text);
      case 't':
        return literal("true", JsonValue::Kind::kBool, v, true);
      case 'f':
        return literal("false", JsonValue::Kind::kBool, v, false);
      case 'n':
        return literal("null", JsonValue::Kind::kNull, v, false);
      default:
        return parse_number(v);
    }
  }

  bool literal(std::string_view word, JsonValue::Kind kind, JsonValue* v, bool value) {
    for (char c : word) {
      if (at_end() || peek() != static_cast<std::uint8_t>(c)) return fail("expected '" + std::string(word) + "'");
      ++pos_;
    }
    v->kind = kind;
    v->boolean = value;
    return true;
  }

  bool digits() {
    const std::size_t start = pos_;
    while (!at_end() && peek() >= '0' && peek() <= '9') ++pos_;
    return pos_ > start || fail("expected a digit");
  }

  bool parse_number(JsonValue* v) {
    const std::size_t start = pos_;
    if (!at_end() && peek() == '-') ++pos_;
    if (at_end() || peek() < '0' || peek() > '9') return fail("expected a value");
    if (peek() == '0') {
      ++pos_;
    } else if (!digits()) {
      return false;
    }
    if (!at_end() && peek() == '.') {
      ++pos_;
      if (!digits()) return false;
    }
    if (!at_end() && (peek() == 'e' || peek() == 'E')) {
      ++pos_;
      if (!at_end() && (peek() == '+' || peek() == '-')) ++pos_;
      if (!digits()) return false;
    }
    v->kind = JsonValue::Kind::kNumber;
    v->text = std::string(bytes_.subspan(start, pos_ - start).as_chars());
    return true;
  }

  bool hex4(std::uint32_t* out) {
    *out = 0;
    for (int i = 0; i < 4; ++i, ++pos_) {
      if (at_end()) return fail("expected four hex digits");
      const std::uint8_t c = peek();
      std::uint32_t d = 0;
      if (c >= '0' && c <= '9')
        d = c - '0';
      else if (c >= 'a' && c <= 'f')
        d = c - 'a' + 10u;
      else if (c >= 'A' && c <= 'F')
        d = c - 'A' + 10u;
      else
        return fail("expected four hex digits");
      *out = *out * 16 + d;
    }
    return true;
  }

  bool unicode_escape(std::string* out) {
    std::uint32_t cp = 0;
    if (!hex4(&cp)) return false;
    if (cp >= 0xDC00 && cp <= 0xDFFF) return fail("a lone low surrogate in a \\u escape");
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      std::uint32_t low = 0;
      if (at_end() || peek() != '\\') return fail("expected the low half of a surrogate pair");
      ++pos_;
      if (at_end() || peek() != 'u') return fail("expected the low half of a surrogate pair");
      ++pos_;
      if (!hex4(&low)) return false;
      if (low < 0xDC00 || low > 0xDFFF) return fail("expected the low half of a surrogate pair");
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    append_utf8(out, cp);
    return true;
  }

  bool escape(std::string* out) {
    if (at_end()) return fail("expected an escape");
    const std::uint8_t c = peek();
    ++pos_;
    switch (c) {
      case '"':
      case '\\':
      case '/':
        out->push_back(static_cast<char>(c));
        return true;
      case 'b':
        out->push_back('\b');
        return true;
      case 'f':
        out->push_back('\f');
        return true;
      case 'n':
        out->push_back('\n');
        return true;
      case 'r':
        out->push_back('\r');
        return true;
      case 't':
        out->push_back('\t');
        return true;
      case 'u':
        return unicode_escape(out);
      default:
        --pos_;
        return fail("an unknown escape in a string");
    }
  }

  bool parse_string(std::string* out) {
    ++pos_;  // the opening quote
    for (;;) {
      if (at_end()) return fail("expected the closing quote of a string");
      const std::uint8_t c = peek();
      if (c == '"') break;
      if (c < 0x20) return fail("a control character inside a string");
      ++pos_;
      if (c == '\\') {
        if (!escape(out)) return false;
      } else {
        out->push_back(static_cast<char>(c));
      }
    }
    ++pos_;
    return true;
  }

  // `open` has been checked; parses "item (, item)*" up to `close`.
  template <typename Item>
  bool sequence(std::uint8_t close, const char* what, Item item) {
    ++pos_;
    skip_space();
    if (!at_end() && peek() == close) {
      ++pos_;
      return true;
    }
    for (;;) {
      skip_space();
      if (!item()) return false;
      skip_space();
      if (at_end()) return fail(std::string("expected ',' or the end of ") + what);
      if (peek() == close) {
        ++pos_;
        return true;
      }
      if (peek() != ',') return fail(std::string("expected ',' or the end of ") + what);
      ++pos_;
    }
  }

  bool parse_array(JsonValue* v, int depth) {
    v->kind = JsonValue::Kind::kArray;
    return sequence(']', "an array", [&] {
      v->items.emplace_back();
      return parse_value(&v->items.back(), depth + 1);
    });
  }

  bool parse_object(JsonValue* v, int depth) {
    v->kind = JsonValue::Kind::kObject;
    return sequence('}', "an object", [&] {
      if (at_end() || peek() != '"') return fail("expected a quoted key");
      std::string key;
      if (!parse_string(&key)) return false;
      skip_space();
      if (at_end() || peek() != ':') return fail("expected ':' after a key");
      ++pos_;
      skip_space();
      v->members.emplace_back(std::move(key), JsonValue{});
      return parse_value(&v->members.back().second, depth + 1);
    });
  }

  ByteSpan bytes_;
  JsonError* error_;
  std::size_t pos_ = 0;
};

}  // namespace

JsonValue::JsonValue() = default;
JsonValue::JsonValue(const JsonValue&) = default;
JsonValue::JsonValue(JsonValue&&) noexcept = default;
JsonValue& JsonValue::operator=(const JsonValue&) = default;
JsonValue& JsonValue::operator=(JsonValue&&) noexcept = default;
JsonValue::~JsonValue() = default;

const JsonValue* JsonValue::find(std::string_view key) const {
  for (const auto& [name, value] : members)
    if (name == key) return &value;
  return nullptr;
}

std::optional<std::int64_t> JsonValue::as_int() const {
  if (kind != Kind::kNumber) return std::nullopt;
  return whole_number<std::int64_t>(text);
}

namespace {

constexpr std::array<std::pair<JsonValue::Kind, const char*>, 6> kJsonKindNames = {{
    {JsonValue::Kind::kNull, "null"},
    {JsonValue::Kind::kBool, "a boolean"},
    {JsonValue::Kind::kNumber, "a number"},
    {JsonValue::Kind::kString, "a string"},
    {JsonValue::Kind::kArray, "an array"},
    {JsonValue::Kind::kObject, "an object"},
}};

}  // namespace

const char* kind_name(JsonValue::Kind kind) {
  for (const auto& [value, text] : kJsonKindNames)
    if (value == kind) return text;
  return "?";
}

bool parse_json(ByteSpan bytes, JsonValue* value, JsonError* error) { return Parser(bytes, error).document(value); }

}  // namespace qjt::canal
