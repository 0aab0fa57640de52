// Unit tests for lib/: ByteReader, JsonWriter and JsonLine, UTF-8
// validation, payload rendering, InputFile, exit codes, findings and their
// reporters, the clock. Expected values come from the relevant standards
// (RFC 4648, RFC 8259, Unicode) and the headers' documented contracts.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "byte_span.h"
#include "clock.h"
#include "exit_code.h"
#include "finding.h"
#include "input_file.h"
#include "json_line.h"
#include "json_writer.h"
#include "payload.h"
#include "read_window.h"
#include "reporters.h"
#include "stream_buffer.h"
#include "unit_helpers.h"

using namespace qjt;
using qjt_test::Bytes;
using qjt_test::span;

namespace {

const std::string kReplacement = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

std::string json_string(std::string_view value) {
  std::string out;
  append_json_string(&out, value);
  return out;
}

}  // namespace

// ---------------------------------------------------------------- ByteReader

TEST_CASE("ByteReader: little-endian reads") {
  const Bytes b = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c};
  ByteReader r(span(b));
  std::int32_t i32 = 0;
  REQUIRE(r.read_i32_le(&i32));
  CHECK(i32 == 0x04030201);
  CHECK(r.position() == 4);
  std::int64_t i64 = 0;
  REQUIRE(r.read_i64_le(&i64));
  CHECK(i64 == 0x0c0b0a0908070605LL);
  CHECK(r.position() == 12);
  CHECK(r.remaining() == 0);
}

TEST_CASE("ByteReader: big-endian reads") {
  const Bytes b = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c};
  ByteReader r(span(b));
  std::int32_t i32 = 0;
  REQUIRE(r.read_i32_be(&i32));
  CHECK(i32 == 0x01020304);
  std::int64_t i64 = 0;
  REQUIRE(r.read_i64_be(&i64));
  CHECK(i64 == 0x05060708090a0b0cLL);
  CHECK(r.remaining() == 0);
}

TEST_CASE("ByteReader: sign and high-bit values") {
  const Bytes b = {0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x80, 0x80, 0x00,
                   0x00, 0x00, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  ByteReader r(span(b));
  std::int32_t i32 = 0;
  REQUIRE(r.read_i32_le(&i32));
  CHECK(i32 == -1);
  REQUIRE(r.read_i32_le(&i32));
  CHECK(i32 == INT32_MIN);
  REQUIRE(r.read_i32_be(&i32));
  CHECK(i32 == INT32_MIN);
  std::int64_t i64 = 0;
  REQUIRE(r.read_i64_le(&i64));
  CHECK(i64 == -2);

  ByteReader u(span(b));
  std::uint32_t u32 = 0;
  REQUIRE(u.read_u32_le(&u32));
  CHECK(u32 == 0xffffffffu);
  REQUIRE(u.read_u32_be(&u32));
  CHECK(u32 == 0x00000080u);
  std::uint8_t u8 = 0;
  REQUIRE(u.read_u8(&u8));
  CHECK(u8 == 0x80);
}

TEST_CASE("ByteReader: a failed read leaves the position unchanged") {
  const Bytes b = {0xaa, 0xbb, 0xcc};
  ByteReader r(span(b));
  std::int32_t i32 = 12345;
  CHECK_FALSE(r.read_i32_le(&i32));
  CHECK(r.position() == 0);
  CHECK(i32 == 12345);  // output untouched on failure
  CHECK_FALSE(r.read_i32_be(&i32));
  CHECK(r.position() == 0);

  std::uint8_t u8 = 0;
  REQUIRE(r.read_u8(&u8));
  CHECK(u8 == 0xaa);
  CHECK(r.position() == 1);

  std::int64_t i64 = 0;
  CHECK_FALSE(r.read_i64_le(&i64));
  CHECK_FALSE(r.read_i64_be(&i64));
  std::uint32_t u32 = 0;
  CHECK_FALSE(r.read_u32_le(&u32));
  CHECK(r.position() == 1);

  ByteSpan s;
  CHECK_FALSE(r.read_span(3, &s));
  CHECK(r.position() == 1);
  REQUIRE(r.read_span(2, &s));
  CHECK(s.size() == 2);
  CHECK(s[0] == 0xbb);
  CHECK(s[1] == 0xcc);
  CHECK(r.position() == 3);
  CHECK(r.remaining() == 0);

  CHECK_FALSE(r.read_u8(&u8));
  CHECK(r.position() == 3);
  REQUIRE(r.read_span(0, &s));  // an empty span always fits
  CHECK(s.size() == 0);
}

TEST_CASE("ByteReader: starting position is clamped to the span") {
  const Bytes b = {0x01, 0x02, 0x03, 0x04, 0x05};
  ByteReader mid(span(b), 1);
  std::int32_t i32 = 0;
  REQUIRE(mid.read_i32_le(&i32));
  CHECK(i32 == 0x05040302);

  ByteReader past(span(b), 99);
  CHECK(past.position() == 5);
  CHECK(past.remaining() == 0);
  std::uint8_t u8 = 0;
  CHECK_FALSE(past.read_u8(&u8));
}

TEST_CASE("ByteSpan: subspan clamps to the span") {
  const Bytes b = {1, 2, 3, 4};
  const ByteSpan s = span(b);
  CHECK(s.subspan(1, 2).size() == 2);
  CHECK(s.subspan(1, 2)[0] == 2);
  CHECK(s.subspan(3, 10).size() == 1);
  CHECK(s.subspan(10, 1).size() == 0);
  CHECK(s.subspan(2).size() == 2);
  CHECK(ByteSpan(std::string_view("xyz")).as_chars() == "xyz");
}

// ---------------------------------------------------------------- JSON

TEST_CASE("JsonType: one name each, read back") {
  for (const JsonType t : {JsonType::kRecord, JsonType::kReport, JsonType::kFinding, JsonType::kPlan, JsonType::kError,
                           JsonType::kSummary, JsonType::kStats}) {
    CHECK_FALSE(json_type_name(t).empty());
    CHECK(parse_json_type(json_type_name(t)) == t);
  }
  CHECK(json_type_name(JsonType::kRecord) == "record");
  CHECK_FALSE(parse_json_type("put").has_value());
}

TEST_CASE("JsonLine: fields in order and one line") {
  std::string out = "prefix:";
  JsonLine line(&out, JsonType::kReport);
  line.str("s", "text")
      .num("n", -5)
      .num("big", INT64_MIN)
      .unsigned_num("u", UINT64_MAX)
      .boolean("t", true)
      .boolean("f", false)
      .null("z")
      .raw("r", "[1,{\"a\":2}]");
  line.finish();
  CHECK(out ==
        "prefix:{\"type\":\"report\",\"s\":\"text\",\"n\":-5,\"big\":-9223372036854775808,"
        "\"u\":18446744073709551615,\"t\":true,\"f\":false,\"z\":null,\"r\":[1,{\"a\":2}]}\n");
}

TEST_CASE("JsonLine: the type first, and end_object without newline") {
  std::string a;
  JsonLine(&a, JsonType::kSummary).finish();
  CHECK(a == "{\"type\":\"summary\"}\n");
  std::string b;
  JsonLine inner(&b, JsonType::kRecord);
  inner.num("x", 1).end_object();
  CHECK(b == "{\"type\":\"record\",\"x\":1}");
  CHECK(inner.depth() == 0);
}

TEST_CASE("JsonWriter: nested objects and arrays get their commas") {
  std::string out;
  JsonWriter w(&out);
  w.begin_object().begin_array("a");
  for (int i = 1; i <= 3; ++i) w.number(i);
  w.end_array().begin_object("o").str("k", "v").begin_array("inner").begin_array().end_array();
  w.begin_object().end_object().null().end_array().end_object();
  w.begin_array("objs");
  for (int i = 0; i < 2; ++i) w.begin_object().num("i", i).boolean("odd", i % 2 == 1).end_object();
  w.end_array().unsigned_num("u", 7).finish();
  CHECK(out ==
        "{\"a\":[1,2,3],\"o\":{\"k\":\"v\",\"inner\":[[],{},null]},"
        "\"objs\":[{\"i\":0,\"odd\":false},{\"i\":1,\"odd\":true}],\"u\":7}\n");
  CHECK(w.depth() == 0);
}

TEST_CASE("JsonWriter: empty containers, bare values and raw values") {
  std::string empty_array;
  JsonWriter(&empty_array).begin_array().end_array();
  CHECK(empty_array == "[]");
  std::string empty_object;
  JsonWriter(&empty_object).begin_object().end_object();
  CHECK(empty_object == "{}");
  std::string values;
  JsonWriter w(&values);
  w.begin_array().string("s").number(-1).unsigned_number(UINT64_MAX).boolean(false).null();
  w.raw("{\"pre\":[1]}").raw("2").end_array();
  CHECK(values == "[\"s\",-1,18446744073709551615,false,null,{\"pre\":[1]},2]");
}

TEST_CASE("JsonWriter: strings and bytes are escaped like append_json_string") {
  const std::string bytes = "q\"\\\n\x01\xff";
  std::string expected = "[";
  append_json_string(&expected, bytes);
  expected += ",{\"k\":";
  append_json_string(&expected, bytes);
  expected += "}]";
  std::string out;
  JsonWriter(&out).begin_array().string(bytes).begin_object().str("k", bytes).end_object().end_array();
  CHECK(out == expected);
  CHECK(out == "[\"q\\\"\\\\\\n\\u0001\xEF\xBF\xBD\",{\"k\":\"q\\\"\\\\\\n\\u0001\xEF\xBF\xBD\"}]");
}

TEST_CASE("JsonWriter: escaped_key escapes a key from the data; key writes a literal as it is") {
  std::string out;
  JsonWriter(&out).begin_object().escaped_key("a\"b\xff").null().key("plain").null().end_object();
  CHECK(out == "{\"a\\\"b\xEF\xBF\xBD\":null,\"plain\":null}");
}

TEST_CASE("JsonWriter: appends after what the buffer already holds") {
  std::string out = "x=";
  JsonWriter(&out).begin_array().begin_array().number(0).end_array().end_array();
  CHECK(out == "x=[[0]]");
}

TEST_CASE("JSON strings: quotes and backslashes are escaped") {
  CHECK(json_string("") == "\"\"");
  CHECK(json_string("plain") == "\"plain\"");
  CHECK(json_string("a\"b") == "\"a\\\"b\"");
  CHECK(json_string("a\\b") == "\"a\\\\b\"");
  CHECK(json_string("/") == "\"/\"");
}

TEST_CASE("JSON strings: control characters are escaped") {
  CHECK(json_string("\n\r\t\b\f") == "\"\\n\\r\\t\\b\\f\"");
  CHECK(json_string(std::string_view("\0", 1)) == "\"\\u0000\"");
  CHECK(json_string("\x01") == "\"\\u0001\"");
  CHECK(json_string("x\x1fy") == "\"x\\u001fy\"");
  // Every byte below 0x20 must be escaped somehow (RFC 8259 section 7).
  for (int c = 0; c < 0x20; ++c) {
    const std::string in(1, static_cast<char>(c));
    const std::string out = json_string(in);
    CHECK(out.size() > 3);
    CHECK(out[1] == '\\');
  }
}

TEST_CASE("JSON strings: invalid UTF-8 becomes U+FFFD") {
  CHECK(json_string("a\xff"
                    "b") == "\"a" + kReplacement + "b\"");
  CHECK(json_string("\x80") == "\"" + kReplacement + "\"");
  // A bad lead byte must not swallow the ASCII that follows it.
  CHECK(json_string("\xE2(\xA1") == "\"" + kReplacement + "(" + kReplacement + "\"");
  // Overlong "/" and an encoded surrogate: every byte is ill-formed.
  CHECK(json_string("\xC0\xAF") == "\"" + kReplacement + kReplacement + "\"");
  CHECK(json_string("\xED\xA0\x80") == "\"" + kReplacement + kReplacement + kReplacement + "\"");
  // A sequence truncated by the end of the value.
  const std::string truncated = json_string("ab\xE2\x82");
  CHECK(truncated.rfind("\"ab" + kReplacement, 0) == 0);
  CHECK(is_valid_utf8(truncated));
  CHECK(truncated.back() == '"');
}

TEST_CASE("JSON strings: valid multibyte UTF-8 is kept as is") {
  for (std::string_view s : {"\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xF4\x8F\xBF\xBF", "\xEF\xBF\xBD",
                             "caf\xC3\xA9 \xE2\x82\xAC"
                             "5"}) {
    CHECK(json_string(s) == "\"" + std::string(s) + "\"");
  }
}

TEST_CASE("JSON strings and UTF-8 checks: one special byte at every place of a longer string") {
  // Long plain runs are tested eight bytes at a time: put each kind of byte
  // that is not plain at every offset of 8-byte words, and where a word
  // ends, and check the escaped form against the byte-by-byte rule.
  const std::pair<std::string_view, std::string_view> cases[] = {{"\"", "\\\""},
                                                                 {"\\", "\\\\"},
                                                                 {"\n", "\\n"},
                                                                 {std::string_view("\0", 1), "\\u0000"},
                                                                 {"\x1f", "\\u001f"},
                                                                 {"\x7f", "\x7f"},
                                                                 {"\xC3\xA9", "\xC3\xA9"},
                                                                 {"\xFF", "\xEF\xBF\xBD"}};
  const std::string plain = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (const auto& [raw, escaped] : cases) {
    for (std::size_t at = 0; at <= 24; ++at) {
      CAPTURE(at);
      const std::string input = plain.substr(0, at) + std::string(raw) + plain.substr(at, 24 - at);
      CHECK(json_string(input) == "\"" + plain.substr(0, at) + std::string(escaped) + plain.substr(at, 24 - at) + "\"");
      CHECK(is_valid_utf8(input) == (raw != "\xFF"));
    }
  }
}

TEST_CASE("is_valid_utf8: accepts well-formed text") {
  CHECK(is_valid_utf8(""));
  CHECK(is_valid_utf8("hello"));
  CHECK(is_valid_utf8(std::string_view("\0\x7f", 2)));
  CHECK(is_valid_utf8("\xC2\x80"));          // U+0080, smallest 2-byte
  CHECK(is_valid_utf8("\xDF\xBF"));          // U+07FF
  CHECK(is_valid_utf8("\xE0\xA0\x80"));      // U+0800, smallest 3-byte
  CHECK(is_valid_utf8("\xED\x9F\xBF"));      // U+D7FF, just below the surrogates
  CHECK(is_valid_utf8("\xEE\x80\x80"));      // U+E000, just above them
  CHECK(is_valid_utf8("\xEF\xBF\xBF"));      // U+FFFF
  CHECK(is_valid_utf8("\xF0\x90\x80\x80"));  // U+10000, smallest 4-byte
  CHECK(is_valid_utf8("\xF4\x8F\xBF\xBF"));  // U+10FFFF, the last code point
}

TEST_CASE("is_valid_utf8: rejects overlongs surrogates and bad bytes") {
  CHECK_FALSE(is_valid_utf8("\xC0\x80"));          // overlong U+0000
  CHECK_FALSE(is_valid_utf8("\xC1\xBF"));          // overlong U+007F
  CHECK_FALSE(is_valid_utf8("\xE0\x80\x80"));      // overlong 3-byte
  CHECK_FALSE(is_valid_utf8("\xE0\x9F\xBF"));      // overlong U+07FF
  CHECK_FALSE(is_valid_utf8("\xF0\x80\x80\x80"));  // overlong 4-byte
  CHECK_FALSE(is_valid_utf8("\xF0\x8F\xBF\xBF"));  // overlong U+FFFF
  CHECK_FALSE(is_valid_utf8("\xED\xA0\x80"));      // U+D800
  CHECK_FALSE(is_valid_utf8("\xED\xBF\xBF"));      // U+DFFF
  CHECK_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));  // U+110000
  CHECK_FALSE(is_valid_utf8("\xF5\x80\x80\x80"));
  CHECK_FALSE(is_valid_utf8("\xFE"));
  CHECK_FALSE(is_valid_utf8("\xFF"));
  CHECK_FALSE(is_valid_utf8("\x80"));  // lone continuation
  CHECK_FALSE(is_valid_utf8("ok\xBF"));
  CHECK_FALSE(is_valid_utf8("\xC3\xA9\xA9"));  // one continuation too many
}

TEST_CASE("is_valid_utf8: rejects truncated sequences") {
  CHECK_FALSE(is_valid_utf8("\xC3"));
  CHECK_FALSE(is_valid_utf8("\xE2\x82"));
  CHECK_FALSE(is_valid_utf8("\xF0\x9F\x98"));
  CHECK_FALSE(
      is_valid_utf8("a\xE2\x82"
                    "b"));  // truncated then ASCII
  CHECK_FALSE(
      is_valid_utf8("\xF0\x9F\x98"
                    "\xF0\x9F\x98\x80"));
}

// ---------------------------------------------------------------- payloads

TEST_CASE("base64: RFC 4648 section 10 test vectors") {
  const std::array<std::pair<std::string_view, std::string_view>, 7> vectors = {{
      {"", ""},
      {"f", "Zg=="},
      {"fo", "Zm8="},
      {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="},
      {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"},
  }};
  for (const auto& vector : vectors) {
    CAPTURE(vector.first);
    CHECK(base64_encode(ByteSpan(vector.first)) == vector.second);
  }
}

TEST_CASE("base64: the last two alphabet characters and high bytes") {
  CHECK(base64_encode(span(Bytes{0xfb, 0xff})) == "+/8=");
  CHECK(base64_encode(span(Bytes{0xff, 0xff, 0xff})) == "////");
  CHECK(base64_encode(span(Bytes{0x00, 0x00, 0x00})) == "AAAA");
  CHECK(base64_encode(span(Bytes{0xff})) == "/w==");
}

TEST_CASE("hex: lowercase two digits per byte") {
  CHECK(hex_encode(ByteSpan()) == "");
  CHECK(hex_encode(span(Bytes{0x00, 0x0f, 0xa5, 0xff, 0x10})) == "000fa5ff10");
  CHECK(hex_encode(ByteSpan(std::string_view("hi"))) == "6869");
}

TEST_CASE("parse_data_mode: the four names") {
  CHECK(parse_data_mode("text") == DataMode::kText);
  CHECK(parse_data_mode("base64") == DataMode::kBase64);
  CHECK(parse_data_mode("hex") == DataMode::kHex);
  CHECK(parse_data_mode("none") == DataMode::kNone);
  CHECK_FALSE(parse_data_mode("TEXT").has_value());
  CHECK_FALSE(parse_data_mode("").has_value());
}

TEST_CASE("render_payload: text mode uses data for UTF-8 and data_b64 otherwise") {
  const RenderedPayload utf8 = render_payload(ByteSpan(std::string_view("caf\xC3\xA9")), DataMode::kText);
  CHECK(utf8.key == "data");
  CHECK(utf8.value == "caf\xC3\xA9");

  const RenderedPayload empty = render_payload(ByteSpan(), DataMode::kText);
  CHECK(empty.key == "data");
  CHECK(empty.value == "");

  const RenderedPayload binary = render_payload(span(Bytes{0x66, 0x6f, 0xff}), DataMode::kText);
  CHECK(binary.key == "data_b64");
  CHECK(binary.value == "Zm//");

  const RenderedPayload surrogate = render_payload(ByteSpan(std::string_view("\xED\xA0\x80")), DataMode::kText);
  CHECK(surrogate.key == "data_b64");
  CHECK(surrogate.value == "7aCA");
}

TEST_CASE("render_payload: base64 hex and none modes") {
  const ByteSpan hi(std::string_view("hi"));
  const RenderedPayload b64 = render_payload(hi, DataMode::kBase64);
  CHECK(b64.key == "data_b64");
  CHECK(b64.value == "aGk=");
  const RenderedPayload hex = render_payload(hi, DataMode::kHex);
  CHECK(hex.key == "data_hex");
  CHECK(hex.value == "6869");
  const RenderedPayload none = render_payload(hi, DataMode::kNone);
  CHECK(none.key.empty());
  CHECK(none.value.empty());
}

TEST_CASE("add_payload: the field a record line gets in each mode") {
  auto line_for = [](ByteSpan payload, DataMode mode) {
    std::string out;
    JsonWriter line(&out);
    line.begin_object().num("n", 1);
    add_payload(&line, payload, mode);
    line.end_object();
    return out;
  };
  CHECK(line_for(ByteSpan(std::string_view("a\"b\n")), DataMode::kText) == "{\"n\":1,\"data\":\"a\\\"b\\n\"}");
  CHECK(line_for(span(Bytes{0xff}), DataMode::kText) == "{\"n\":1,\"data_b64\":\"/w==\"}");
  CHECK(line_for(ByteSpan(std::string_view("hi")), DataMode::kBase64) == "{\"n\":1,\"data_b64\":\"aGk=\"}");
  CHECK(line_for(ByteSpan(std::string_view("hi")), DataMode::kHex) == "{\"n\":1,\"data_hex\":\"6869\"}");
  CHECK(line_for(ByteSpan(std::string_view("hi")), DataMode::kNone) == "{\"n\":1}");
}

// ---------------------------------------------------------------- InputFile

TEST_CASE("InputFile: a regular file is read whole") {
  qjt_test::TempDir dir("input");
  const auto path = (dir.path() / "journal").string();
  const Bytes content = {0x02, 0x00, 0xff, 'x', 0x00};
  qjt_test::write_file(path, content);
  std::string error;
  auto file = InputFile::open(path, &error);
  REQUIRE(file != nullptr);
  CHECK(error.empty());
  CHECK(file->name() == path);
  REQUIRE(file->bytes().size() == content.size());
  CHECK(Bytes(file->bytes().data(), file->bytes().data() + file->bytes().size()) == content);
}

TEST_CASE("InputFile: an empty file has no bytes") {
  qjt_test::TempDir dir("input");
  const auto path = (dir.path() / "empty").string();
  qjt_test::write_file(path, {});
  std::string error;
  auto file = InputFile::open(path, &error);
  REQUIRE(file != nullptr);
  CHECK(file->bytes().size() == 0);
  CHECK(file->bytes().empty());
}

TEST_CASE("InputFile: a missing file is an error naming the path") {
  qjt_test::TempDir dir("input");
  const auto path = (dir.path() / "no-such-journal").string();
  std::string error;
  auto file = InputFile::open(path, &error);
  CHECK(file == nullptr);
  CHECK(qjt_test::contains(error, path));
}

TEST_CASE("InputFile: a directory is an error naming the path") {
  qjt_test::TempDir dir("input");
  const auto path = dir.path().string();
  std::string error;
  auto file = InputFile::open(path, &error);
  CHECK(file == nullptr);
  CHECK(qjt_test::contains(error, path));
  CHECK(qjt_test::contains(error, "directory"));
}

// ---------------------------------------------------------------- ReadWindow

namespace {

Bytes counting_bytes(std::size_t n) {
  Bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(i * 7 + i / 251);
  return b;
}

Bytes as_bytes(qjt::ByteSpan s) { return Bytes(s.data(), s.data() + s.size()); }

std::unique_ptr<InputFile> open_written(const qjt_test::TempDir& dir, const Bytes& content) {
  const auto path = (dir.path() / "file").string();
  qjt_test::write_file(path, content);
  std::string error;
  auto file = InputFile::open(path, &error);
  REQUIRE(file != nullptr);
  return file;
}

}  // namespace

TEST_CASE("ReadWindow: forward views of every length give the file's bytes") {
  qjt_test::TempDir dir("window");
  const Bytes content = counting_bytes(1000);
  auto file = open_written(dir, content);
  const int fd = file->open_for_reading();
  REQUIRE(fd >= 0);
  ::close(fd);
  for (std::size_t length : {0u, 1u, 5u, 16u, 17u, 40u}) {
    CAPTURE(length);
    ReadWindow window(*file, 16);
    CHECK(window.size() == content.size());
    for (std::size_t offset = 0; offset + length <= content.size(); offset += 1 + length / 3) {
      CAPTURE(offset);
      const qjt::ByteSpan v = window.view(offset, length);
      REQUIRE(v.size() == length);
      REQUIRE(as_bytes(v) == Bytes(content.begin() + static_cast<std::ptrdiff_t>(offset),
                                   content.begin() + static_cast<std::ptrdiff_t>(offset + length)));
    }
  }
}

TEST_CASE("ReadWindow: views are read into the buffer; only views longer than it are the mapping") {
  qjt_test::TempDir dir("window");
  const Bytes content = counting_bytes(300);
  auto file = open_written(dir, content);
  const std::uint8_t* mapped = file->bytes().data();
  ReadWindow window(*file, 64);
  const qjt::ByteSpan first = window.view(10, 20);
  CHECK(first.data() != mapped + 10);                     // read into the buffer
  CHECK(window.view(12, 30).data() == first.data() + 2);  // already there: the same bytes
  CHECK(window.view(40, 65).data() == mapped + 40);       // longer than the buffer
  CHECK(window.view(200, 8).data() != mapped + 200);
  const qjt::ByteSpan back = window.view(5, 8);  // behind the buffer: read again
  CHECK(back.data() != mapped + 5);
  CHECK(as_bytes(back) == Bytes(content.begin() + 5, content.begin() + 13));
  CHECK(as_bytes(window.view(60, 64)) == Bytes(content.begin() + 60, content.begin() + 124));
  CHECK(window.view(300, 0).size() == 0);
}

TEST_CASE("ReadWindow: for_each_piece reads any range through the buffer, in order") {
  qjt_test::TempDir dir("window");
  const Bytes content = counting_bytes(1000);
  auto file = open_written(dir, content);
  ReadWindow window(*file, 64);
  for (const auto& piece_range :
       {std::pair<std::size_t, std::size_t>{0, 1000}, {3, 64}, {900, 65}, {10, 0}, {999, 1}}) {
    // Not a structured binding: clang 14 cannot capture one in doctest's lambdas.
    const std::size_t offset = piece_range.first, length = piece_range.second;
    CAPTURE(offset);
    CAPTURE(length);
    Bytes joined;
    std::size_t pieces = 0;
    CHECK(window.for_each_piece(offset, length, [&](qjt::ByteSpan piece) {
      CHECK(piece.size() <= 64);
      CHECK((piece.data() < file->bytes().data() ||
             piece.data() >= file->bytes().data() + file->bytes().size()));  // never the mapping
      joined.insert(joined.end(), piece.data(), piece.data() + piece.size());
      ++pieces;
      return true;
    }));
    CHECK(joined == Bytes(content.begin() + static_cast<std::ptrdiff_t>(offset),
                          content.begin() + static_cast<std::ptrdiff_t>(offset + length)));
    CHECK(pieces == std::max<std::size_t>(1, (length + 63) / 64));
  }
  std::size_t calls = 0;
  CHECK_FALSE(window.for_each_piece(0, 1000, [&](qjt::ByteSpan) { return ++calls < 3; }));
  CHECK(calls == 3);
}

TEST_CASE("ReadWindow: a span, or an input with nothing to read, is viewed in place") {
  const Bytes content = counting_bytes(100);
  ReadWindow over_span(qjt_test::span(content));
  CHECK(over_span.view(30, 50).data() == content.data() + 30);

  qjt_test::TempDir dir("window");
  auto file = open_written(dir, content);
  REQUIRE(file->preview_write(3, qjt_test::span(Bytes{0xAA})));
  CHECK(file->open_for_reading() == -1);  // the file no longer holds what the mapping shows
  ReadWindow previewed(*file, 16);
  CHECK(previewed.view(0, 8).data() == file->bytes().data());
  CHECK(previewed.view(3, 1)[0] == 0xAA);
}

TEST_CASE("InputFile: a mapped file holds no descriptor, and is read only while its path names it") {
  qjt_test::TempDir dir("input-fds");
  const Bytes content = counting_bytes(5000);
  qjt_test::write_file(dir.path() / "file", content);
  rlimit saved{};
  REQUIRE(::getrlimit(RLIMIT_NOFILE, &saved) == 0);
  rlimit low = saved;
  low.rlim_cur = 64;
  REQUIRE(::setrlimit(RLIMIT_NOFILE, &low) == 0);
  std::vector<std::unique_ptr<InputFile>> files;
  std::string error;
  for (int i = 0; i < 200; ++i) files.push_back(InputFile::open((dir.path() / "file").string(), &error));
  REQUIRE(::setrlimit(RLIMIT_NOFILE, &saved) == 0);
  for (const auto& f : files) REQUIRE(f != nullptr);

  // Replaced under the same name: the window reads the mapping, not the new file.
  std::filesystem::rename(dir.path() / "file", dir.path() / "old");
  qjt_test::write_file(dir.path() / "file", Bytes(5000, 0x55));
  CHECK(files[0]->open_for_reading() == -1);
  ReadWindow window(*files[0], 64);
  CHECK(as_bytes(window.view(100, 10)) == Bytes(content.begin() + 100, content.begin() + 110));
  CHECK(window.view(100, 10).data() == files[0]->bytes().data() + 100);
}

// ---------------------------------------------------------------- exit codes, findings

TEST_CASE("ExitCode: documented values") {
  CHECK(to_int(ExitCode::kOk) == 0);
  CHECK(to_int(ExitCode::kProblems) == 1);
  CHECK(to_int(ExitCode::kUsage) == 2);
  CHECK(to_int(ExitCode::kIoError) == 3);
  CHECK(to_int(ExitCode::kInUse) == 4);
}

TEST_CASE("ExitCode: worse orders in-use over io over usage over problems over ok") {
  const std::array<ExitCode, 5> ascending = {ExitCode::kOk, ExitCode::kProblems, ExitCode::kUsage, ExitCode::kIoError,
                                             ExitCode::kInUse};
  for (std::size_t i = 0; i < ascending.size(); ++i) {
    for (std::size_t j = 0; j < ascending.size(); ++j) {
      CAPTURE(i);
      CAPTURE(j);
      CHECK(worse(ascending[i], ascending[j]) == ascending[i > j ? i : j]);
    }
  }
}

TEST_CASE("format_finding: file offset severity code and message") {
  Finding with_offset{Severity::kError, "broken_record", "q/journal", 17, "expected x, found y"};
  CHECK(format_finding(with_offset) == "q/journal:17: error[broken_record]: expected x, found y");
  Finding without{Severity::kWarning, "temp_file", "q/j~~1", std::nullopt, "ignored"};
  CHECK(format_finding(without) == "q/j~~1: warning[temp_file]: ignored");
  Finding at_zero{Severity::kWarning, "w", "f", 0, "m"};
  CHECK(format_finding(at_zero) == "f:0: warning[w]: m");
}

TEST_CASE("findings as JSON and FindingList counts") {
  FindingList list;
  list.report(Finding{Severity::kError, "broken_record", "q", 17, "bad \"x\""});
  list.report(Finding{Severity::kWarning, "temp_file", "q~~1", std::nullopt, "m"});
  list.report(Finding{Severity::kWarning, "unknown_xid", "q", 3, "m2"});
  CHECK(list.findings().size() == 3);
  CHECK(list.count(Severity::kError) == 1);
  CHECK(list.count(Severity::kWarning) == 2);
  CHECK(list.findings()[1].code == "temp_file");

  std::string one;
  JsonWriter one_writer(&one);
  write_finding_json(&one_writer, list.findings()[0]);
  CHECK(one ==
        "{\"type\":\"finding\",\"severity\":\"error\",\"code\":\"broken_record\",\"file\":\"q\",\"offset\":17,"
        "\"message\":\"bad \\\"x\\\"\"}");
  std::string all;
  JsonWriter all_writer(&all);
  write_findings_json(&all_writer, {list.findings()[1], list.findings()[2]});
  CHECK(all ==
        "[{\"type\":\"finding\",\"severity\":\"warning\",\"code\":\"temp_file\",\"file\":\"q~~1\",\"offset\":null,"
        "\"message\":\"m\"},{\"type\":\"finding\",\"severity\":\"warning\",\"code\":\"unknown_xid\",\"file\":\"q\","
        "\"offset\":3,\"message\":\"m2\"}]");
  std::string none;
  JsonWriter none_writer(&none);
  write_findings_json(&none_writer, {});
  CHECK(none == "[]");
  CHECK(std::string(severity_name(Severity::kError)) == "error");
  CHECK(std::string(severity_name(Severity::kWarning)) == "warning");
}

TEST_CASE("hints: a second text line, a JSON member, left out when empty") {
  Finding f{Severity::kError, "broken_record", "q", 17, "m", "qjt repair --apply q"};
  CHECK(format_finding(f) == "q:17: error[broken_record]: m\n  hint: qjt repair --apply q");
  std::string json;
  JsonWriter writer(&json);
  write_finding_json(&writer, f);
  CHECK(json ==
        "{\"type\":\"finding\",\"severity\":\"error\",\"code\":\"broken_record\",\"file\":\"q\",\"offset\":17,"
        "\"message\":\"m\",\"hint\":\"qjt repair --apply q\"}");
}

TEST_CASE("hints: a family's table, applied to a list and on the way to a reporter") {
  constexpr HintRule table[] = {{"broken_record", "qjt repair --apply {file}"}};
  CHECK(find_hint(table, "broken_record") == "qjt repair --apply {file}");
  CHECK(find_hint(table, "temp_file").empty());
  const HintFor hint_for = [&table](const Finding& f) {
    return find_hint(table, f.code).empty() ? std::string() : "repair " + shell_word(f.file);
  };
  FindingList list;
  list.report(Finding{Severity::kError, "broken_record", "my q", 1, "m"});
  list.report(Finding{Severity::kWarning, "temp_file", "q~~1", std::nullopt, "m"});
  list.report(Finding{Severity::kError, "broken_record", "q", 2, "m", "already"});
  list.add_hints(hint_for);
  CHECK(list.findings()[0].hint == "repair 'my q'");
  CHECK(list.findings()[1].hint.empty());
  CHECK(list.findings()[2].hint == "already");

  FindingList sink;
  HintingReporter hinting(hint_for, &sink);
  hinting.report(Finding{Severity::kError, "broken_record", "q/a", 1, "m"});
  REQUIRE(sink.findings().size() == 1);
  CHECK(sink.findings()[0].hint == "repair q/a");
}

// ---------------------------------------------------------------- folding

namespace {

Finding dangling(std::uint64_t offset, std::string file = "c/data/log-1") {
  return Finding{.severity = Severity::kError,
                 .code = "dangling_pointer",
                 .file = std::move(file),
                 .offset = offset,
                 .message = fmt::format("queue element at {} points into log-1", offset),
                 .cause = "queue elements point into log-1, which cannot be read"};
}

}  // namespace

TEST_CASE("FindingList: findings with one cause fold into one, with their count and last offset") {
  FindingList list(true);
  for (std::uint64_t offset = 10; offset < 10 + 548; ++offset) list.report(dangling(offset));
  list.report(dangling(5, "c/data/log-2"));  // another file: its own finding
  REQUIRE(list.findings().size() == 2);
  const Finding& folded = list.findings()[0];
  CHECK(folded.count == 548);
  CHECK(folded.offset == 10u);
  CHECK(folded.last_offset == 557u);
  CHECK(finding_message(folded) == "548 queue elements point into log-1, which cannot be read");
  CHECK(format_finding(folded) ==
        "c/data/log-1:10: error[dangling_pointer]: 548 queue elements point into log-1, which cannot be read "
        "(the last at offset 557)");
  CHECK(finding_message(list.findings()[1]) == "queue element at 5 points into log-1");
  CHECK(list.count(Severity::kError) == 549);

  std::string json;
  JsonWriter writer(&json);
  write_finding_json(&writer, folded);
  CHECK(json ==
        "{\"type\":\"finding\",\"severity\":\"error\",\"code\":\"dangling_pointer\",\"file\":\"c/data/"
        "log-1\",\"offset\":10,"
        "\"message\":\"548 queue elements point into log-1, which cannot be read\",\"count\":548,"
        "\"last_offset\":557}");
}

TEST_CASE("FindingList: findings without a cause fold when their message is the same") {
  FindingList list(true);
  list.report(Finding{Severity::kWarning, "w", "f", 1, "same"});
  list.report(Finding{Severity::kWarning, "w", "f", 9, "same"});
  list.report(Finding{Severity::kWarning, "w", "f", 4, "other"});
  list.report(Finding{Severity::kError, "w", "f", 5, "same"});  // another severity
  REQUIRE(list.findings().size() == 3);
  CHECK(format_finding(list.findings()[0]) == "f:1: warning[w]: same (2 findings alike; the last at offset 9)");
  CHECK(list.findings()[1].count == 1);
  CHECK(list.count(Severity::kWarning) == 3);
  CHECK(list.count(Severity::kError) == 1);
  FindingList no_offsets(true);
  no_offsets.report(Finding{Severity::kWarning, "w", "f", std::nullopt, "same"});
  no_offsets.report(Finding{Severity::kWarning, "w", "f", std::nullopt, "same"});
  CHECK(format_finding(no_offsets.findings()[0]) == "f: warning[w]: same (2 findings alike)");
  std::string json;
  JsonWriter writer(&json);
  write_finding_json(&writer, no_offsets.findings()[0]);
  CHECK(json.find("\"count\":2,\"last_offset\":null}") != std::string::npos);
}

TEST_CASE("FindingList: beyond the first entries of a code, the rest of it in a file are counted, not kept") {
  FindingList list(true);
  constexpr std::uint64_t kMany = 100000;
  for (std::uint64_t i = 0; i < kMany; ++i)
    list.report(Finding{Severity::kError, "broken_line", i % 2 == 0 ? "a" : "b", i, fmt::format("line {}", i)});
  list.report(Finding{Severity::kWarning, "other_code", "a", 1, "kept"});
  // 100 distinct, then one entry per file for the rest, then the other code.
  REQUIRE(list.findings().size() == FindingFolder::kDistinctPerCode + 3);
  CHECK(list.count(Severity::kError) == kMany);
  const Finding& rest_of_a = list.findings()[FindingFolder::kDistinctPerCode];
  CHECK(rest_of_a.file == "a");
  CHECK(rest_of_a.offset == FindingFolder::kDistinctPerCode);
  CHECK(rest_of_a.count == kMany / 2 - FindingFolder::kDistinctPerCode / 2);
  CHECK(rest_of_a.last_offset == kMany - 2);
  CHECK(finding_message(rest_of_a) ==
        fmt::format("{} more broken_line findings, beyond the first 100 listed (--all-findings lists them)",
                    rest_of_a.count));
  CHECK(list.findings().back().message == "kept");
}

TEST_CASE("FindingList: folded findings fold again into another list; unfolded, every one is kept") {
  FindingList first(true);
  for (std::uint64_t offset = 0; offset < 3; ++offset) first.report(dangling(offset));
  FindingList second(true);
  second.report(dangling(100));
  for (const Finding& f : first.findings()) second.report(f);
  REQUIRE(second.findings().size() == 1);
  CHECK(second.findings()[0].count == 4);
  CHECK(second.findings()[0].offset == 100u);
  CHECK(second.findings()[0].last_offset == 2u);

  FindingList all(false);
  for (std::uint64_t offset = 0; offset < 300; ++offset) all.report(dangling(offset));
  CHECK(all.findings().size() == 300);
  CHECK(all.findings()[299].count == 1);
  CHECK(all.count(Severity::kError) == 300);
}

TEST_CASE("FindingList: --all-findings (set_all_findings) decides how a list is made") {
  set_all_findings(true);
  FindingList all;
  set_all_findings(false);
  FindingList folded;
  for (std::uint64_t offset = 0; offset < 3; ++offset) {
    all.report(dangling(offset));
    folded.report(dangling(offset));
  }
  CHECK(all.findings().size() == 3);
  CHECK(folded.findings().size() == 1);
}

TEST_CASE("shell_word: safe words as they are, others single-quoted") {
  CHECK(shell_word("testdata/kestrel/q.100") == "testdata/kestrel/q.100");
  CHECK(shell_word("a b") == "'a b'");
  CHECK(shell_word("it's") == "'it'\\''s'");
  CHECK(shell_word("") == "''");
  CHECK(shell_word("$HOME") == "'$HOME'");
}

// ---------------------------------------------------------------- reporters

TEST_CASE("UniqueFindings: forwards the first of findings with the same code, file and offset") {
  FindingList list;
  UniqueFindings unique(&list);
  unique.report(Finding{Severity::kError, "broken_record", "q", 17, "first"});
  unique.report(Finding{Severity::kError, "broken_record", "q", 17, "again"});
  unique.report(Finding{Severity::kError, "broken_record", "q", 18, "other offset"});
  unique.report(Finding{Severity::kError, "broken_record", "r", 17, "other file"});
  unique.report(Finding{Severity::kWarning, "temp_file", "q", 17, "other code"});
  unique.report(Finding{Severity::kWarning, "temp_file", "q", std::nullopt, "no offset"});
  unique.report(Finding{Severity::kWarning, "temp_file", "q", std::nullopt, "no offset again"});
  std::vector<std::string> messages;
  for (const Finding& f : list.findings()) messages.push_back(f.message);
  CHECK(messages == std::vector<std::string>{"first", "other offset", "other file", "other code", "no offset"});
}

TEST_CASE("UniqueFindings: memory bounded in the damage, a second forward pass still dropped whole") {
  FindingList list(false);
  UniqueFindings unique(&list);
  const auto pass = [&] {
    for (std::uint64_t offset = 0; offset < 100000; offset += 10)
      unique.report(Finding{Severity::kError, "broken_record", "q", offset, "m"});
  };
  pass();
  CHECK(list.findings().size() == 10000);
  CHECK(unique.remembered() <= UniqueFindings::kRemembered + 1);
  pass();  // the replay meets the records the decoder met
  CHECK(list.findings().size() == 10000);
  unique.report(Finding{Severity::kError, "broken_record", "q", 100001, "beyond"});
  unique.report(Finding{Severity::kError, "broken_record", "other", 5, "another file"});
  CHECK(list.findings().size() == 10002);
  CHECK(unique.remembered() <= UniqueFindings::kRemembered + 2);
}

TEST_CASE("ErrorWatch: forwards everything and tells whether an error went by") {
  FindingList list(false);
  ErrorWatch watch(&list);
  CHECK_FALSE(watch.errors());
  watch.report(Finding{Severity::kWarning, "temp_file", "q", std::nullopt, "m"});
  CHECK_FALSE(watch.errors());
  watch.report(Finding{Severity::kError, "broken_record", "q", 3, "m"});
  watch.report(Finding{Severity::kWarning, "temp_file", "q", std::nullopt, "m"});
  CHECK(watch.errors());
  CHECK(list.findings().size() == 3);
}

// ---------------------------------------------------------------- clock

TEST_CASE("now_ms: QJT_NOW_MS when it is an integer, else the system clock") {
  setenv("QJT_NOW_MS", "1800000000123", 1);
  CHECK(now_ms() == 1800000000123);
  setenv("QJT_NOW_MS", "-5", 1);
  CHECK(now_ms() == -5);
  for (const char* ignored : {"", "12x", "x", "1.5", "99999999999999999999"}) {
    setenv("QJT_NOW_MS", ignored, 1);
    CHECK(now_ms() > 1700000000000);  // after November 2023: the real clock
  }
  unsetenv("QJT_NOW_MS");
  CHECK(now_ms() > 1700000000000);
}

// ---------------------------------------------------------------- files that move

namespace {

// A file of `size` counting bytes, opened, then cut to `kept` bytes by
// "another process", as a journal truncated under qjt.
std::unique_ptr<InputFile> open_then_truncate(const qjt_test::TempDir& dir, std::size_t size, std::size_t kept) {
  auto file = open_written(dir, counting_bytes(size));
  REQUIRE(::truncate(file->name().c_str(), static_cast<off_t>(kept)) == 0);
  return file;
}

}  // namespace

TEST_CASE("InputFile: a file truncated under the mapping reads as zeros past its end, and is a change") {
  qjt_test::TempDir dir("moving");
  auto file = open_then_truncate(dir, 1 << 20, 4096);
  const ByteSpan bytes = file->bytes();
  REQUIRE(bytes.size() == 1 << 20);
  CHECK(bytes.data()[100] == counting_bytes(101)[100]);
  CHECK(bytes.data()[500000] == 0);  // SIGBUS without the guard
  CHECK(bytes.data()[(1 << 20) - 1] == 0);
  const auto change = file->change();
  REQUIRE(change.has_value());
  CHECK(change->code == "file_changed");
  CHECK(change->offset == 4096u);
  CHECK(qjt_test::contains(change->message, "1048576 bytes"));
  InputFile::take_changes();
  file.reset();
  const auto changes = InputFile::take_changes();
  REQUIRE(changes.size() == 1);
  CHECK(changes[0].file == (dir.path() / "file").string());
  CHECK(InputFile::take_changes().empty());
}

TEST_CASE("ReadWindow: a file truncated under the window reads as zeros past its end") {
  qjt_test::TempDir dir("moving");
  auto file = open_then_truncate(dir, 1 << 20, 10000);
  ReadWindow window(*file, 4096);
  CHECK(as_bytes(window.view(0, 16)) == Bytes(counting_bytes(16)));
  const ByteSpan past = window.view(600000, 3000);  // a short read: the mapping, guarded, answers
  CHECK(as_bytes(past) == Bytes(3000, 0));
  CHECK(as_bytes(window.view(9000, 2000)).size() == 2000);
  REQUIRE(file->change().has_value());
  CHECK(file->change()->offset == 10000u);
  file.reset();
  CHECK(InputFile::take_changes().size() == 1);
}

TEST_CASE("InputFile: a file left whole is no change") {
  qjt_test::TempDir dir("moving");
  auto file = open_written(dir, counting_bytes(50000));
  CHECK(file->bytes().data()[49999] == counting_bytes(50000)[49999]);
  CHECK_FALSE(file->change().has_value());
  file.reset();
  CHECK(InputFile::take_changes().empty());
}

// ---------------------------------------------------------------- streams

TEST_CASE("StreamBuffer: a stream is read to its end, or stops one byte past the limit") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const std::string text(3000, 'q');
  REQUIRE(::write(fds[1], text.data(), text.size()) == static_cast<ssize_t>(text.size()));
  ::close(fds[1]);
  StreamBuffer whole(fds[0], true, 3000);
  CHECK(whole.fill_all() == 3000);
  CHECK(whole.status() == StreamBuffer::Status::kComplete);
  CHECK(whole.view(0, 3000).as_chars() == text);

  StreamBuffer endless(::open("/dev/zero", O_RDONLY | O_CLOEXEC), true, 5 << 20);
  CHECK(endless.fill_all() == 5u << 20);
  CHECK(endless.status() == StreamBuffer::Status::kOverLimit);
}

TEST_CASE("StreamBuffer: read as far as asked, and in constant memory when the reader lets go") {
  StreamBuffer zero(::open("/dev/zero", O_RDONLY | O_CLOEXEC), true, std::uint64_t{1} << 40);
  CHECK(zero.fill_to(10) >= 10);
  CHECK(zero.size() <= std::uint64_t{1} << 20);  // one read's worth, not the stream
  CHECK(zero.status() == StreamBuffer::Status::kReading);
  CHECK_FALSE(zero.forgets());
  // A reader walking 256 MiB forward, 4 KiB at a time, letting go behind it.
  const std::uint64_t walk = std::uint64_t{256} << 20;
  for (std::uint64_t at = 0; at < walk; at += 4096) {
    zero.discard_before(at);
    REQUIRE(zero.fill_to(at + 4096) >= at + 4096);
    REQUIRE(zero.view(at, 4096).data()[4095] == 0);
  }
  CHECK(zero.forgets());
  CHECK(zero.held_from() > walk - (std::uint64_t{4} << 20));
  CHECK(zero.size() - zero.held_from() <= std::uint64_t{4} << 20);
}

TEST_CASE("InputFile: a stream read on demand is decoded as it arrives, and a window that lets go ends it") {
  InputFile::set_stream_limit(64 << 10);
  {
    qjt_test::PipeFeeder feeder(qjt_test::Bytes(128 << 10, 0), 1);
    Finding failure;
    auto zero = InputFile::open(feeder.path(), &failure, InputFile::StreamReading::kOnDemand);
    REQUIRE(zero != nullptr);
    CHECK(zero->size() == 0);
    ReadWindow window(*zero, ReadWindow::kDefaultCapacity, ReadWindow::Lookback::kNone);
    CHECK(window.available(0, 25) == 25);
    CHECK(window.view(0, 25).data()[24] == 0);
    CHECK(window.available(60 << 10, 8 << 10) == 4u << 10);      // the limit ends it
    CHECK(InputFile::open(feeder.path(), &failure) == nullptr);  // read once, not kept
    CHECK(failure.code == "io_error");
  }
  const auto stops = InputFile::take_changes();
  REQUIRE(stops.size() == 1);
  CHECK(stops[0].code == "input_too_large");
  CHECK(stops[0].offset == std::uint64_t{64 << 10});
  CHECK(InputFile::change_status(stops[0]) == ExitCode::kIoError);
  InputFile::set_stream_limit(InputFile::kDefaultStreamLimit);
  {  // A reader that releases what it passed holds a window's worth, not the stream.
    qjt_test::PipeFeeder feeder(qjt_test::Bytes(32 << 20, 7), 2);
    Finding failure;
    auto stream = InputFile::open(feeder.path(), &failure, InputFile::StreamReading::kOnDemand);
    REQUIRE(stream != nullptr);
    ReadWindow window(*stream, ReadWindow::kDefaultCapacity, ReadWindow::Lookback::kNone);
    for (std::size_t at = 0; window.available(at, 4096) == 4096; at += 4096) {
      window.release_before(at);
      REQUIRE(window.view(at, 4096).data()[4095] == 7);
    }
    const StreamBuffer* bytes = stream->stream_on_demand();
    CHECK(bytes->size() == 32u << 20);
    CHECK(bytes->size() - bytes->held_from() <= 2u << 20);
  }
  CHECK(InputFile::take_changes().empty());
}

TEST_CASE("ReadWindow: a stream read to its end by size() is viewed where its bytes are now") {
  // size() reads the rest of the stream, which grows (moves) its buffer:
  // a view after it must not point into the old one (dump --json
  // --max-input 1M /dev/zero once read past it).
  InputFile::set_stream_limit(1 << 20);
  {
    qjt_test::PipeFeeder feeder(qjt_test::Bytes(3 << 20, 5), 3);
    Finding failure;
    auto stream = InputFile::open(feeder.path(), &failure, InputFile::StreamReading::kOnDemand);
    REQUIRE(stream != nullptr);
    ReadWindow window(*stream, ReadWindow::kDefaultCapacity, ReadWindow::Lookback::kNone);
    REQUIRE(window.available(0, 64) == 64);
    CHECK(window.view(0, 64).data()[63] == 5);
    const std::size_t size = window.size();
    CHECK(size == 1u << 20);
    const ByteSpan tail = window.view(0, size);
    REQUIRE(tail.size() == size);
    CHECK(tail.data()[0] == 5);
    CHECK(tail.data()[size - 1] == 5);
  }
  CHECK(InputFile::take_changes().size() == 1);  // input_too_large
  InputFile::set_stream_limit(InputFile::kDefaultStreamLimit);
}

TEST_CASE("InputFile: a device past the stream limit is input_too_large at the limit, every time it is opened") {
  InputFile::set_stream_limit(64 << 10);
  for (int open = 0; open < 2; ++open) {
    Finding failure;
    CHECK(InputFile::open("/dev/zero", &failure) == nullptr);
    CHECK(failure.code == "input_too_large");
    CHECK(failure.file == "/dev/zero");
    CHECK(failure.offset == std::uint64_t{64 << 10});
  }
  InputFile::set_stream_limit(InputFile::kDefaultStreamLimit);
}

TEST_CASE("InputFile: a FIFO is opened once; opening it again gives the same bytes") {
  qjt_test::TempDir dir("fifo");
  const auto path = (dir.path() / "fifo").string();
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
  std::thread writer([&] {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return;  // the reader's open then fails the test
    [[maybe_unused]] const ssize_t written = ::write(fd, "journal", 7);
    ::close(fd);
  });
  std::string error;
  auto first = InputFile::open(path, &error);
  writer.join();
  REQUIRE(first != nullptr);
  auto second = InputFile::open(path, &error);  // would block forever if opened again
  REQUIRE(second != nullptr);
  CHECK(first->bytes().as_chars() == "journal");
  CHECK(second->bytes().as_chars() == "journal");
  CHECK(first->open_for_reading() == -1);
  CHECK(second->preview_write(0, ByteSpan(std::string_view("J"))));
  CHECK(second->bytes().as_chars() == "Journal");
  CHECK(first->bytes().as_chars() == "journal");  // each open previews on its own copy
}
