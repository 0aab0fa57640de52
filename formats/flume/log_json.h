// log_json: a Flume data log as the JSON Lines `qjt dump --json` prints, and
// those lines back to a V3 data log and its log-N.meta (`qjt convert --to
// flume-log`), so that events can be edited with jq (spec §5.1, §5.3, §5.4).
//
// Contract:
//  - Identity: for every V3 log, dump's lines (the log_meta line of its
//    meta, then its records) assembled again give the log's bytes and the
//    meta's bytes exactly. Where the fields a line shows would not encode to
//    the file's bytes (protobuf Flume does not write: unknown fields, another
//    order, a header without a value; a CRC that fails or is not 32 bits;
//    header keys or values that are not UTF-8, or repeated keys, which JSON
//    cannot carry), the line also carries the bytes themselves, and those
//    win. add_exact_fields decides that by encoding the line's fields and
//    comparing, so no case is missed by enumeration.
//  - A line whose fields are re-encoded is written as Flume 1.4+ writes it:
//    fields in number order, Put.checksum recomputed over the body (an
//    edited body gets a valid CRC), omitted when the line's "crc" is null.
//    "offset", "size", "crc_ok" and "file" are informational and ignored,
//    and "format", when present, must be "flume" (record_format.h),
//    so lines can be deleted or edited freely (a take still names the
//    pointer the line gives).
//  - Nothing here trusts a size from the input: the fill is streamed by the
//    caller, capped at kMaxFill; raw bytes are as long as the line.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "byte_span.h"
#include "flume/aes_ctr.h"
#include "flume/channel_logs.h"
#include "flume/log_metadata.h"
#include "flume/log_record.h"
#include "flume/log_writer.h"
#include "json_line.h"
#include "payload.h"

namespace qjt::flume {

// ---------------------------------------------------------------- dump side

// Adds `bytes` as "<prefix>_hex" in hex mode, "<prefix>_b64" otherwise
// (raw bytes are not text).
void add_raw_bytes(JsonWriter* line, std::string_view prefix, ByteSpan bytes, DataMode mode);

// Adds to the dump line of a V3 `record` read from `file` (with `cipher`
// for an encrypted log, which is restarted per record and so may be shared
// with the reader) what the line needs to give back the record's bytes:
//   put/take/rollback/commit: "raw_b64"|"raw_hex", the record's bytes as in
//     the file (OP byte to the next record; ciphertext when encrypted), only
//     when encoding the shown fields would give other bytes;
//   noop:        always raw (the skipped bytes matter to nobody but identity);
//   broken:      raw = every byte from the record to the end of the file;
//   end_of_data: "fill" (the 0x80 bytes from here, 0 at the physical end),
//     then "after_fill_b64"|"after_fill_hex" when other bytes follow.
void add_exact_fields(JsonWriter* line, const LogRecord& record, ByteSpan file, AesCtr* cipher, DataMode mode);

// Whether a log-N.meta's bytes are what encode_log_metadata writes for its
// fields; dump adds "raw_b64"|"raw_hex" to the log_meta line when not.
bool log_meta_is_canonical(ByteSpan bytes, const LogMetadata& decoded);

// ---------------------------------------------------------------- convert side

// The most 0x80 fill a line may ask for: a Flume log is at most
// maxFileSize, itself below 2^31.
inline constexpr std::uint64_t kMaxFill = 0x7FFFFFFF;

enum class LogJsonKind { kMeta, kRecord, kEnd };

struct LogJsonLine {
  LogJsonKind kind = LogJsonKind::kRecord;
  // kMeta
  LogMetadata meta;
  // kRecord
  LogRecordType type = LogRecordType::kPut;
  int version = 3;
  std::int64_t transaction_id = 0;
  std::int64_t write_order_id = 0;
  std::vector<std::pair<std::string, std::string>> headers;  // in line order
  std::string body;
  bool checksum = true;  // "crc" not null
  EventPointer taken;
  std::int16_t commit_type = 0;
  // kMeta, kRecord: the bytes to write as they are ("raw_b64"/"raw_hex").
  std::optional<std::string> raw;
  // kEnd
  std::uint64_t fill = 0;
  std::string after_fill;
};

// One line of dump --json output (a log_meta or a log_record line). False,
// with *error saying what was expected and found (no line number), when the
// line is not one that can be written back.
bool parse_log_json_line(std::string_view text, LogJsonLine* line, std::string* error);

// Puts parsed lines together in order: at most one log_meta line, first;
// then records; then at most one end_of_data (or a broken record, whose raw
// bytes run to the end of the file); nothing after those.
class LogJsonAssembler {
 public:
  explicit LogJsonAssembler(const KeyRing* keys) : keys_(keys) {}

  enum class Refusal { kNone, kBadLine, kMissingKey };
  // Adds one line; false with *error (and refusal()) when it cannot come here.
  bool add(const LogJsonLine& line, std::string* error);
  Refusal refusal() const { return refusal_; }

  const std::string& records() const { return records_; }  // the log up to the fill
  std::uint64_t fill() const { return fill_; }
  const std::string& after_fill() const { return after_fill_; }
  const std::optional<LogMetadata>& meta() const { return meta_; }
  // The meta file's bytes: the raw bytes of the log_meta line, else its encoding.
  std::optional<std::string> meta_bytes() const;
  bool upgraded_v2() const { return upgraded_v2_; }

 private:
  bool add_meta(const LogJsonLine& line, std::string* error);
  bool add_record(const LogJsonLine& line, std::string* error);
  bool refuse(Refusal why, std::string message, std::string* error);

  const KeyRing* keys_;
  Refusal refusal_ = Refusal::kNone;
  bool seen_any_ = false;
  bool ended_ = false;
  bool upgraded_v2_ = false;
  std::optional<LogMetadata> meta_;
  std::optional<std::string> meta_raw_;
  std::unique_ptr<AesCtr> cipher_;
  std::string records_;
  std::uint64_t fill_ = 0;
  std::string after_fill_;
};

// Appends the V3 record a line's fields describe (no raw bytes involved).
bool encode_json_record(const LogJsonLine& line, V3RecordWriter* writer, std::string* out);

}  // namespace qjt::flume
