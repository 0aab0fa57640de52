// JsonWriter: writes one JSON document, nested objects and arrays included,
// value by value into a caller-owned buffer; the writer puts the commas.
//
// It exists for record streams (dump, convert) and reports: millions of
// small objects, where building a DOM per record would cost more than
// decoding, and documents whose arrays are filled by loops. Keys are trusted
// literals; string values are escaped, and bytes that are not valid UTF-8
// become U+FFFD so every document is valid JSON.
//
// Integers beyond 2^53 in magnitude are written as numbers, exactly, unless
// write_big_numbers_as_strings(true) was called (--json-big-numbers=string):
// then as decimal strings ("9007199254740993"), because jq and JavaScript
// read numbers as doubles and would round them. parse_big_number_string()
// reads such a string back, for qjt's own JSON Lines readers.
//
// Contract: inside an object every value is preceded by key() (or given
// through a member shorthand, which is key() plus the value); inside an
// array values are given bare. Every begin_ is matched by its end_. Nesting
// deeper than kMaxDepth is a programming error (asserted).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
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

// Appends a Unicode code point (at most 0x10FFFF, not a surrogate) to
// `out` as UTF-8: what a JSON or Java \u escape decodes to.
void append_utf8(std::string* out, std::uint32_t code_point);

// Process-wide, set once from --json-big-numbers before a command runs.
void write_big_numbers_as_strings(bool as_strings);
// The largest magnitude a double holds exactly: 2^53.
inline constexpr std::uint64_t kMaxExactDouble = std::uint64_t{1} << 53;
// A string as --json-big-numbers=string writes one: the decimal digits
// (after an optional minus) of an integer beyond 2^53 in magnitude that
// fits in 64 bits; nullopt for anything else, so that a small number
// quoted by hand stays the error it was.
std::optional<std::int64_t> parse_big_number_string(std::string_view text);

// What a top-level JSON object is: its "type", the first member of every
// line qjt prints (as ripgrep's --json lines), and of every finding object
// wherever it is nested. The one place these names are spelled
// (qjt-json(5), "Common fields").
enum class JsonType {
  kRecord,   // a line of a record stream: dump --json, convert --to jsonl
  kReport,   // what a command did or found: verify, replay, an applied repair or compact
  kFinding,  // a finding object (finding.h), at any depth
  kPlan,     // what a command would do: repair without --apply, compact --dry-run
  kError,    // a command stopped before or instead of its output
  kSummary,  // a total: what gen wrote, verify's over the units of a walk
  kStats,    // what stats found (stats_json.h)
  kUnit,     // what a walk found at a PATH, before the unit's records (lib/cli/walk_report.h)
};

// The name of `type` as written: "record", "report", ...
std::string_view json_type_name(JsonType type);
// The type a name stands for; nullopt for a name that is none of them.
std::optional<JsonType> parse_json_type(std::string_view name);

class JsonWriter {
 public:
  static constexpr std::size_t kMaxDepth = 16;

  // Writes at the end of *out; the buffer is never rewritten.
  explicit JsonWriter(std::string* out) : out_(out) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  // Names the next value of the current object; `name` is a trusted
  // literal, written as it is.
  JsonWriter& key(std::string_view name);
  // A key that comes from the data (an event header's name): escaped like
  // a string value.
  JsonWriter& escaped_key(std::string_view name);

  JsonWriter& string(std::string_view value);
  JsonWriter& number(std::int64_t value);
  JsonWriter& unsigned_number(std::uint64_t value);
  JsonWriter& boolean(bool value);
  JsonWriter& null();
  // `json` must already be one valid JSON value rendered elsewhere.
  JsonWriter& raw(std::string_view json);

  // Member shorthands: key(name) then the value.
  JsonWriter& str(std::string_view name, std::string_view value) { return key(name).string(value); }
  JsonWriter& num(std::string_view name, std::int64_t value) { return key(name).number(value); }
  JsonWriter& unsigned_num(std::string_view name, std::uint64_t value) { return key(name).unsigned_number(value); }
  JsonWriter& boolean(std::string_view name, bool value) { return key(name).boolean(value); }
  JsonWriter& null(std::string_view name) { return key(name).null(); }
  JsonWriter& raw(std::string_view name, std::string_view json) { return key(name).raw(json); }
  JsonWriter& begin_object(std::string_view name) { return key(name).begin_object(); }
  JsonWriter& begin_array(std::string_view name) { return key(name).begin_array(); }
  // The "type" member (JsonType): the first of its object.
  JsonWriter& type(JsonType type) { return str("type", json_type_name(type)); }

  // Closes the innermost object and ends the line: the last call for a
  // line of a record stream or a one-line report.
  void finish();

  // How many objects and arrays are open.
  std::size_t depth() const { return depth_; }

 private:
  // The comma before a value, unless it is the first of its container or
  // follows its key.
  void separate();
  JsonWriter& open(char bracket);
  // The digits of an integer, quoted when it is big and strings were asked for.
  void integer_digits(std::string_view digits, bool big);
  JsonWriter& close(char bracket);

  std::string* out_;
  std::array<bool, kMaxDepth> has_values_{};  // per open container
  std::size_t depth_ = 0;
  bool after_key_ = false;
};

}  // namespace qjt
