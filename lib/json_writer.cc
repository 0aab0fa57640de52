#include "json_writer.h"

#include <array>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "run_context.h"
#include "whole_number.h"

namespace qjt {
namespace {

std::uint64_t load8(const char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return w;
}

bool ascii8(const char* p) { return (load8(p) & 0x8080808080808080ULL) == 0; }

// Whether the 8 bytes at p are all ASCII that a JSON string holds as they
// are (no control character, quote or backslash): payloads are mostly such
// text, and testing a word at a time makes dumping them a quarter faster.
bool plain_ascii8(const char* p) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
  const std::uint64_t w = load8(p);
  auto has_zero_byte = [](std::uint64_t v) { return (v - kOnes) & ~v & kHighs; };
  const std::uint64_t special = (w & kHighs) | ((w - kOnes * 0x20) & ~w & kHighs) | has_zero_byte(w ^ (kOnes * '"')) |
                                has_zero_byte(w ^ (kOnes * '\\'));
  return special == 0;
}

// Length of the well-formed UTF-8 sequence starting at s[i], or 0.
std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) return 1;
  std::size_t n;
  unsigned char lo = 0x80, hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;  // no UTF-16 surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (s.size() - i < n) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) return 0;
  }
  return n;
}

// Whether a double cannot hold `value` exactly.
bool is_big(std::int64_t value) {
  const std::uint64_t magnitude = value < 0 ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
  return magnitude > kMaxExactDouble;
}

}  // namespace

namespace {
constexpr std::array<std::pair<JsonType, std::string_view>, 8> kJsonTypeNames{{
    {JsonType::kRecord, "record"},
    {JsonType::kReport, "report"},
    {JsonType::kFinding, "finding"},
    {JsonType::kPlan, "plan"},
    {JsonType::kError, "error"},
    {JsonType::kSummary, "summary"},
    {JsonType::kStats, "stats"},
    {JsonType::kUnit, "unit"},
}};
}  // namespace

std::string_view json_type_name(JsonType type) {
  for (const auto& [t, name] : kJsonTypeNames)
    if (t == type) return name;
  return "";
}

std::optional<JsonType> parse_json_type(std::string_view name) {
  for (const auto& [t, n] : kJsonTypeNames)
    if (n == name) return t;
  return std::nullopt;
}

void write_big_numbers_as_strings(bool as_strings) {
  RunContext::process().settings().big_numbers_as_strings = as_strings;
}

std::optional<std::int64_t> parse_big_number_string(std::string_view text) {
  const auto value = whole_number<std::int64_t>(text);
  if (!value || !is_big(*value)) return std::nullopt;
  return value;
}

std::size_t valid_utf8_prefix(std::string_view bytes) {
  for (std::size_t i = 0; i < bytes.size();) {
    // Fast path for ASCII runs, the common case for payloads.
    if (i + 8 <= bytes.size() && ascii8(bytes.data() + i)) {
      i += 8;
      continue;
    }
    if (static_cast<unsigned char>(bytes[i]) < 0x80) {
      ++i;
      continue;
    }
    const std::size_t n = utf8_sequence_length(bytes, i);
    if (n == 0) return i;
    i += n;
  }
  return bytes.size();
}

bool is_valid_utf8(std::string_view bytes) { return valid_utf8_prefix(bytes) == bytes.size(); }

void append_json_string(std::string* out, std::string_view value) {
  out->push_back('"');
  std::size_t run_start = 0;
  auto flush_run = [&](std::size_t end) { out->append(value.data() + run_start, end - run_start); };
  for (std::size_t i = 0; i < value.size();) {
    if (i + 8 <= value.size() && plain_ascii8(value.data() + i)) {
      i += 8;
      continue;
    }
    const auto c = static_cast<unsigned char>(value[i]);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      ++i;
      continue;
    }
    if (c >= 0x80) {
      const std::size_t n = utf8_sequence_length(value, i);
      if (n != 0) {
        i += n;
        continue;
      }
      flush_run(i);
      out->append("\xEF\xBF\xBD");
      run_start = ++i;
      continue;
    }
    flush_run(i);
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      default:
        fmt::format_to(std::back_inserter(*out), "\\u{:04x}", c);
    }
    run_start = ++i;
  }
  flush_run(value.size());
  out->push_back('"');
}

void JsonWriter::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (depth_ == 0) return;
  if (has_values_[depth_ - 1]) out_->push_back(',');
  has_values_[depth_ - 1] = true;
}

JsonWriter& JsonWriter::open(char bracket) {
  assert(depth_ < kMaxDepth);
  separate();
  out_->push_back(bracket);
  has_values_[depth_++] = false;
  return *this;
}

JsonWriter& JsonWriter::close(char bracket) {
  assert(depth_ > 0 && !after_key_);
  --depth_;
  out_->push_back(bracket);
  return *this;
}

JsonWriter& JsonWriter::begin_object() { return open('{'); }
JsonWriter& JsonWriter::end_object() { return close('}'); }
JsonWriter& JsonWriter::begin_array() { return open('['); }
JsonWriter& JsonWriter::end_array() { return close(']'); }

JsonWriter& JsonWriter::key(std::string_view name) {
  separate();
  out_->push_back('"');
  out_->append(name);
  out_->append("\":");
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::escaped_key(std::string_view name) {
  separate();
  append_json_string(out_, name);
  out_->push_back(':');
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::string(std::string_view value) {
  separate();
  append_json_string(out_, value);
  return *this;
}

void JsonWriter::integer_digits(std::string_view digits, bool big) {
  separate();
  const bool quoted = big && RunContext::current().settings().big_numbers_as_strings;
  if (quoted) out_->push_back('"');
  out_->append(digits);
  if (quoted) out_->push_back('"');
}

JsonWriter& JsonWriter::number(std::int64_t value) {
  const fmt::format_int digits(value);
  integer_digits(std::string_view(digits.data(), digits.size()), is_big(value));
  return *this;
}

JsonWriter& JsonWriter::unsigned_number(std::uint64_t value) {
  const fmt::format_int digits(value);
  integer_digits(std::string_view(digits.data(), digits.size()), value > kMaxExactDouble);
  return *this;
}

JsonWriter& JsonWriter::boolean(bool value) {
  separate();
  out_->append(value ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::null() {
  separate();
  out_->append("null");
  return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json) {
  separate();
  out_->append(json);
  return *this;
}

void JsonWriter::finish() {
  end_object();
  out_->push_back('\n');
}

void append_utf8(std::string* out, std::uint32_t cp) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace qjt
