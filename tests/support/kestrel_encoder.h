// TEST-ONLY encoder for classic Kestrel journals, written straight from the
// byte-level spec (shared reference "kestrel-format.md", sections 1.1 and
// 1.2), with no code shared with qjt's decoder.
//
// JournalBuilder appends records and, for each one, remembers what it wrote
// (offset = bytes written so far, opcode, xid, times, payload). From that it
// renders the lines `qjt dump` must print, so expected dump outputs come
// from the encoder's own inputs, never from the decoder under test.
//
// Payloads, and the raw tails of broken records, are either ASCII (rendered
// as "data") or deliberately invalid UTF-8 (rendered as "data_b64"); keep
// fixtures to those two kinds.
#pragma once

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace qjt_test::kestrel {

enum Op : std::uint8_t {
  kAdd = 0x00,
  kRemove = 0x01,
  kAddX = 0x02,
  kRemoveTentative = 0x03,
  kSaveXid = 0x04,
  kUnremove = 0x05,
  kConfirmRemove = 0x06,
  kAddXid = 0x07,
  kContinue = 0x08,
  kRemoveTentativeXid = 0x09,
};

inline const char* op_name(std::uint8_t op) {
  static const char* const kNames[] = {
      "ADD",      "REMOVE",         "ADDX",    "REMOVE_TENTATIVE", "SAVE_XID",
      "UNREMOVE", "CONFIRM_REMOVE", "ADD_XID", "CONTINUE",         "REMOVE_TENTATIVE_XID"};
  return op <= kRemoveTentativeXid ? kNames[op] : "INVALID";
}

// ---- little-endian writers -------------------------------------------------

inline void put_u8(std::string* out, std::uint8_t v) { out->push_back(static_cast<char>(v)); }

inline void put_i32(std::string* out, std::int32_t v) {
  const auto u = static_cast<std::uint32_t>(v);
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((u >> (8 * i)) & 0xFFu));
}

inline void put_i64(std::string* out, std::int64_t v) {
  const auto u = static_cast<std::uint64_t>(v);
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<char>((u >> (8 * i)) & 0xFFu));
}

// ---- rendering helpers -----------------------------------------------------

template <typename... Args>
std::string format(const char* pattern, Args... args) {
  char buf[512];
  const int n = std::snprintf(buf, sizeof buf, pattern, args...);
  if (n < 0 || static_cast<std::size_t>(n) >= sizeof buf) throw std::runtime_error("format overflow");
  return std::string(buf, static_cast<std::size_t>(n));
}

inline std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (c < 0x20) {
          out += format("\\u%04x", static_cast<unsigned>(c));
        } else {
          out.push_back(ch);
        }
    }
  }
  out.push_back('"');
  return out;
}

inline std::string base64(std::string_view s) {
  static const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  auto byte = [&](std::size_t k) { return static_cast<std::uint32_t>(static_cast<unsigned char>(s[k])); };
  for (; i + 3 <= s.size(); i += 3) {
    const std::uint32_t v = (byte(i) << 16) | (byte(i + 1) << 8) | byte(i + 2);
    for (int shift = 18; shift >= 0; shift -= 6) out.push_back(kAlphabet[(v >> shift) & 63u]);
  }
  if (s.size() - i == 1) {
    const std::uint32_t v = byte(i) << 16;
    out.push_back(kAlphabet[(v >> 18) & 63u]);
    out.push_back(kAlphabet[(v >> 12) & 63u]);
    out += "==";
  } else if (s.size() - i == 2) {
    const std::uint32_t v = (byte(i) << 16) | (byte(i + 1) << 8);
    out.push_back(kAlphabet[(v >> 18) & 63u]);
    out.push_back(kAlphabet[(v >> 12) & 63u]);
    out.push_back(kAlphabet[(v >> 6) & 63u]);
    out.push_back('=');
  }
  return out;
}

inline std::string hex(std::string_view s) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15u]);
  }
  return out;
}

// Loose UTF-8 check (lead byte plus the right number of continuation
// bytes); only used to refuse fixtures that are non-ASCII yet plausibly
// valid UTF-8, whose text rendering would need a real validator.
inline bool looks_like_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80                 ? 1
                          : c >= 0xC2 && c <= 0xDF ? 2
                          : c >= 0xE0 && c <= 0xEF ? 3
                          : c >= 0xF0 && c <= 0xF4 ? 4
                                                   : 0;
    if (n == 0 || s.size() - i < n) return false;
    for (std::size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0u) != 0x80u) return false;
    i += n;
  }
  return true;
}

inline bool is_ascii(std::string_view s) {
  bool ascii = true;
  for (char ch : s)
    if (static_cast<unsigned char>(ch) >= 0x80) ascii = false;
  if (!ascii && looks_like_utf8(s)) throw std::logic_error("fixture payloads must be ASCII or clearly invalid UTF-8");
  return ascii;
}

// ---- what a record is expected to decode to ---------------------------------

enum class DataMode { kText, kBase64, kHex, kNone };

struct ExpectedRecord {
  std::uint64_t offset = 0;
  std::string op;                           // ADD ... REMOVE_TENTATIVE_XID, END_OF_FILE, BROKEN
  std::optional<std::int32_t> xid;          // records with an xid field
  bool item = false;                        // ADD, ADDX, ADD_XID, CONTINUE
  std::optional<std::int64_t> add_time_ms;  // none for the legacy ADD
  std::int64_t expiry_ms = 0;
  std::string data;              // item payload; BROKEN: the raw bytes to the end of the file
  std::uint64_t tail_bytes = 0;  // BROKEN
  std::string error;             // BROKEN
};

// The payload field of a dump line: text mode shows ASCII as "data" and
// anything else (always invalid UTF-8 in these fixtures) as "data_b64".
inline std::string payload_field(std::string_view data, DataMode mode) {
  switch (mode) {
    case DataMode::kText:
      return is_ascii(data) ? ",\"data\":" + json_string(data) : ",\"data_b64\":\"" + base64(data) + "\"";
    case DataMode::kBase64:
      return ",\"data_b64\":\"" + base64(data) + "\"";
    case DataMode::kHex:
      return ",\"data_hex\":\"" + hex(data) + "\"";
    case DataMode::kNone:
      break;
  }
  return "";
}

// One line of `qjt dump --json`.
inline std::string dump_json_line(std::string_view file, const ExpectedRecord& r, DataMode mode) {
  std::string out = "{\"type\":\"record\",\"format\":\"kestrel\",\"file\":" + json_string(file) +
                    ",\"offset\":" + std::to_string(r.offset) + ",\"op\":" + json_string(r.op);
  if (r.xid) out += ",\"xid\":" + std::to_string(*r.xid);
  if (r.item) {
    out += ",\"time_ms\":" + (r.add_time_ms ? std::to_string(*r.add_time_ms) : std::string("null"));
    out += ",\"expiry_ms\":" + std::to_string(r.expiry_ms);
    out += ",\"size\":" + std::to_string(r.data.size());
    out += payload_field(r.data, mode);
  }
  if (r.op == "BROKEN") {
    // The raw bytes from the broken record to the end of the file.
    out += ",\"tail_bytes\":" + std::to_string(r.tail_bytes) + payload_field(r.data, mode) +
           ",\"error\":" + json_string(r.error);
  }
  out += "}\n";
  return out;
}

// One record of `qjt dump` text output: "%10d  OP [size] [xid=N] [add=TIME]
// [exp=TIME]" (TIME in ISO 8601 UTC with milliseconds), then, unless mode is none, the payload on an indented line as
// key="value" (data=, data_b64= or data_hex=, value a JSON string).
// Epoch milliseconds as 2023-11-14T22:13:20.000Z, written here apart from
// lib/time_value.h so that the expectations do not come from the code tested.
inline std::string iso_utc_time(std::int64_t ms) {
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  return format("%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                tm.tm_min, tm.tm_sec, static_cast<int>(ms % 1000));
}

inline std::string dump_text_line(const ExpectedRecord& r, DataMode mode) {
  std::string out = format("%10llu  ", static_cast<unsigned long long>(r.offset)) + r.op;
  if (r.item) out += format(" %-6zu", r.data.size());
  if (r.xid) out += " xid=" + std::to_string(*r.xid);
  if (r.add_time_ms) out += " add=" + iso_utc_time(*r.add_time_ms);
  if (r.item && r.expiry_ms != 0) out += " exp=" + iso_utc_time(r.expiry_ms);
  if (r.op == "BROKEN") out += "  " + r.error;
  out += "\n";
  if (r.item && mode != DataMode::kNone) {
    std::string field;  // key="value", the key as in the JSON output
    switch (mode) {
      case DataMode::kText:
        field = is_ascii(r.data) ? "data=" + json_string(r.data) : "data_b64=" + json_string(base64(r.data));
        break;
      case DataMode::kBase64:
        field = "data_b64=" + json_string(base64(r.data));
        break;
      case DataMode::kHex:
        field = "data_hex=" + json_string(hex(r.data));
        break;
      case DataMode::kNone:
        break;
    }
    out += "    " + field + "\n";
  }
  return out;
}

// ---- the builder ------------------------------------------------------------

class JournalBuilder {
 public:
  const std::string& bytes() const { return bytes_; }
  std::uint64_t size() const { return bytes_.size(); }

  // Every record written, then the terminal one (END_OF_FILE at the file
  // size, unless a broken tail was appended).
  std::vector<ExpectedRecord> records() const {
    std::vector<ExpectedRecord> all = records_;
    if (!broken_) {
      ExpectedRecord end;
      end.offset = bytes_.size();
      end.op = "END_OF_FILE";
      all.push_back(end);
    }
    return all;
  }

  // ADDX 0x02: i32 size (=16+N), i64 add time ms, i64 expiry ms, data.
  JournalBuilder& addx(std::int64_t add_time_ms, std::int64_t expiry_ms, std::string_view data) {
    ExpectedRecord& r = begin(kAddX);
    item_block(&r, add_time_ms, expiry_ms, data);
    return *this;
  }
  // Legacy ADD 0x00: i32 size (=4+N), i32 expiry seconds, data.
  JournalBuilder& add_legacy(std::int32_t expiry_seconds, std::string_view data) {
    ExpectedRecord& r = begin(kAdd);
    put_i32(&bytes_, static_cast<std::int32_t>(4 + data.size()));
    put_i32(&bytes_, expiry_seconds);
    bytes_.append(data);
    r.item = true;
    r.expiry_ms = std::int64_t{expiry_seconds} * 1000;
    r.data = std::string(data);
    return *this;
  }
  JournalBuilder& remove() {
    begin(kRemove);
    return *this;
  }
  JournalBuilder& remove_tentative() {
    begin(kRemoveTentative);
    return *this;
  }
  JournalBuilder& save_xid(std::int32_t xid) { return xid_record(kSaveXid, xid); }
  JournalBuilder& unremove(std::int32_t xid) { return xid_record(kUnremove, xid); }
  JournalBuilder& confirm_remove(std::int32_t xid) { return xid_record(kConfirmRemove, xid); }
  JournalBuilder& remove_tentative_xid(std::int32_t xid) { return xid_record(kRemoveTentativeXid, xid); }
  // ADD_XID 0x07 / CONTINUE 0x08: i32 xid, then an ADDX block.
  JournalBuilder& add_xid(std::int32_t xid, std::int64_t add_time_ms, std::int64_t expiry_ms, std::string_view data) {
    xid_record(kAddXid, xid);
    item_block(&records_.back(), add_time_ms, expiry_ms, data);
    return *this;
  }
  JournalBuilder& continue_(std::int32_t xid, std::int64_t add_time_ms, std::int64_t expiry_ms, std::string_view data) {
    xid_record(kContinue, xid);
    item_block(&records_.back(), add_time_ms, expiry_ms, data);
    return *this;
  }

  // ---- broken tails: the last thing in a file ----
  // Each writes the damaged record and the BROKEN line qjt must print for it
  // (offset of the damaged record, bytes from there to the end, and the
  // message, whose wording is qjt's own).

  // `op` followed by `present` (< 4) bytes of its xid field.
  JournalBuilder& truncated_xid(std::uint8_t op, int present) {
    const std::uint64_t at = bytes_.size();
    put_u8(&bytes_, op);
    bytes_.append(static_cast<std::size_t>(present), '\x07');
    return broken(at, format("truncated %s record: expected a 4-byte xid at offset %llu, found %d "
                             "byte(s) before end of file",
                             op_name(op), static_cast<unsigned long long>(at + 1), present));
  }
  // An item record (ADD/ADDX, or ADD_XID/CONTINUE with xid) cut inside its size field.
  JournalBuilder& truncated_size(std::uint8_t op, int present) {
    const std::uint64_t at = bytes_.size();
    put_u8(&bytes_, op);
    if (op == kAddXid || op == kContinue) put_i32(&bytes_, 1);
    const std::uint64_t size_at = bytes_.size();
    bytes_.append(static_cast<std::size_t>(present), '\x01');
    return broken(at, format("truncated %s record: expected a 4-byte size at offset %llu, found %d "
                             "byte(s) before end of file",
                             op_name(op), static_cast<unsigned long long>(size_at), present));
  }
  // An item record whose size field is `size` with `present` bytes after it.
  // Reports a negative size, a block longer than the rest of the file, or a
  // block shorter than its fixed header, whichever applies (in that order).
  JournalBuilder& bad_block(std::uint8_t op, std::int32_t size, std::size_t present) {
    const std::uint64_t at = bytes_.size();
    put_u8(&bytes_, op);
    if (op == kAddXid || op == kContinue) put_i32(&bytes_, 1);
    const auto size_at = static_cast<unsigned long long>(bytes_.size());
    put_i32(&bytes_, size);
    for (std::size_t i = 0; i < present; ++i) put_u8(&bytes_, static_cast<std::uint8_t>('a' + i % 26));
    const int minimum = op == kAdd ? 4 : 16;
    std::string error;
    if (size < 0) {
      error = format(
          "%s record has a negative size field at offset %llu: expected a block of at "
          "least %d bytes, found %d",
          op_name(op), size_at, minimum, size);
    } else if (static_cast<std::size_t>(size) > present) {
      error = format(
          "truncated %s record: expected %d bytes after the size field at offset %llu, "
          "found %zu before end of file",
          op_name(op), size, size_at, present);
    } else if (size < minimum) {
      error = format(
          "%s record's block is too short: expected at least %d bytes, found a size field "
          "of %d at offset %llu",
          op_name(op), minimum, size, size_at);
    } else {
      throw std::logic_error("bad_block called with a valid block");
    }
    return broken(at, error);
  }
  // An invalid opcode byte followed by `trailing` bytes.
  JournalBuilder& invalid_opcode(std::uint8_t op, std::string_view trailing) {
    const std::uint64_t at = bytes_.size();
    put_u8(&bytes_, op);
    bytes_.append(trailing);
    return broken(at, format("invalid opcode: expected 0x00 to 0x09, found 0x%02x (Kestrel reports %d)",
                             static_cast<unsigned>(op), static_cast<int>(static_cast<std::int8_t>(op))));
  }

 private:
  ExpectedRecord& begin(std::uint8_t op) {
    if (broken_) throw std::logic_error("nothing can follow a broken record");
    ExpectedRecord r;
    r.offset = bytes_.size();
    r.op = op_name(op);
    put_u8(&bytes_, op);
    records_.push_back(r);
    return records_.back();
  }
  JournalBuilder& xid_record(std::uint8_t op, std::int32_t xid) {
    ExpectedRecord& r = begin(op);
    put_i32(&bytes_, xid);
    r.xid = xid;
    return *this;
  }
  void item_block(ExpectedRecord* r, std::int64_t add_time_ms, std::int64_t expiry_ms, std::string_view data) {
    put_i32(&bytes_, static_cast<std::int32_t>(16 + data.size()));
    put_i64(&bytes_, add_time_ms);
    put_i64(&bytes_, expiry_ms);
    bytes_.append(data);
    r->item = true;
    r->add_time_ms = add_time_ms;
    r->expiry_ms = expiry_ms;
    r->data = std::string(data);
  }
  JournalBuilder& broken(std::uint64_t at, std::string error) {
    if (broken_) throw std::logic_error("only one broken record per file");
    ExpectedRecord r;
    r.offset = at;
    r.op = "BROKEN";
    r.tail_bytes = bytes_.size() - at;
    r.data = bytes_.substr(at);
    r.error = std::move(error);
    records_.push_back(r);
    broken_ = true;
    return *this;
  }

  std::string bytes_;
  std::vector<ExpectedRecord> records_;
  bool broken_ = false;
};

}  // namespace qjt_test::kestrel
