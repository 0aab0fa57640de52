#include "flume/log_reader.h"

#include <fmt/format.h>
#include "crc32.h"

#include <cstring>

#include "flume/protobuf_wire.h"

namespace qjt::flume {
namespace {

constexpr std::size_t kV3Framing = 5;  // OP byte + int32 length
constexpr std::uint32_t kV2Magic = 0xDEADBEEF;

std::uint32_t load_u32_be(const std::uint8_t* p) {
  return std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 | std::uint32_t{p[2]} << 8 | std::uint32_t{p[3]};
}
std::uint32_t load_u32_le(const std::uint8_t* p) {
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
}
std::uint64_t load_u64_le(const std::uint8_t* p) {
  return std::uint64_t{load_u32_le(p)} | std::uint64_t{load_u32_le(p + 4)} << 32;
}

std::string at_byte(std::size_t position) { return fmt::format(" (at byte {} of the record)", position); }

// Decodes the plaintext payload of one V3 record (three delimited messages:
// TransactionEventHeader, the type's body, TransactionEventFooter) into
// *record. On failure record->error says what was expected and found and
// where, counted from the record's OP byte.
class V3PayloadDecoder {
 public:
  V3PayloadDecoder(ByteSpan payload, std::uint64_t payload_offset, bool verify_checksum, LogRecord* record)
      : payload_(payload), payload_offset_(payload_offset), verify_checksum_(verify_checksum), record_(record) {}

  bool decode() {
    if (!header()) return false;
    switch (record_->type) {
      case LogRecordType::kPut:
        if (!put()) return false;
        break;
      case LogRecordType::kTake:
        if (!take()) return false;
        break;
      case LogRecordType::kCommit:
        if (!commit()) return false;
        break;
      default:
        if (!empty_message("rollback")) return false;
        break;
    }
    // Flume reads the footer and ignores whatever follows it in the payload;
    // so does the reader, but it counts those bytes: a length damaged
    // upward hides the records that follow inside this one.
    if (!empty_message("footer")) return false;
    record_->trailing_bytes = payload_.size() - position_;
    return true;
  }

 private:
  // The record-relative position of `rel` bytes into `inner` (a view into
  // the payload).
  std::size_t where(ByteSpan inner, std::size_t rel = 0) const {
    return kV3Framing + static_cast<std::size_t>(inner.data() - payload_.data()) + rel;
  }

  bool fail(std::string message) {
    record_->error = std::move(message);
    return false;
  }
  bool wire_fail(const char* what, const WireReader& reader, ByteSpan message) {
    return fail(fmt::format("{}: {}{}", what, reader.error(), at_byte(where(message, reader.error_offset()))));
  }
  bool missing(const char* what, int number, const char* name, ByteSpan message) {
    return fail(
        fmt::format("{}: expected required field {} ({}), found none{}", what, number, name, at_byte(where(message))));
  }

  // The next length-delimited message of the payload.
  bool next_message(const char* what, ByteSpan* message) {
    const ByteSpan rest = payload_.subspan(position_);
    std::size_t consumed = 0;
    std::string error;
    if (!read_delimited(rest, message, &consumed, &error))
      return fail(fmt::format("{}: {}{}", what, error, at_byte(where(rest))));
    position_ += consumed;
    return true;
  }

  bool header() {
    ByteSpan m;
    if (!next_message("transaction header", &m)) return false;
    std::int32_t type = 0;
    const std::uint8_t* p = m.data();
    // What Flume always writes: 23 bytes, fields 1-3 in order.
    if (m.size() == 23 && p[0] == 0x0D && p[5] == 0x11 && p[14] == 0x19) {
      type = static_cast<std::int32_t>(load_u32_le(p + 1));
      record_->transaction_id = static_cast<std::int64_t>(load_u64_le(p + 6));
      record_->write_order_id = static_cast<std::int64_t>(load_u64_le(p + 15));
    } else if (!header_fields(m, &type)) {
      return false;
    }
    // Flume casts the sfixed32 to a short before dispatching on it.
    switch (static_cast<std::int16_t>(type)) {
      case 1:
        record_->type = LogRecordType::kPut;
        return true;
      case 2:
        record_->type = LogRecordType::kTake;
        return true;
      case 3:
        record_->type = LogRecordType::kRollback;
        return true;
      case 4:
        record_->type = LogRecordType::kCommit;
        return true;
      default:
        return fail(
            fmt::format("transaction header: expected record type 1 (put), 2 (take), 3 (rollback) or 4 "
                        "(commit), found {}{}",
                        type, at_byte(where(m))));
    }
  }

  bool header_fields(ByteSpan m, std::int32_t* type) {
    bool has_type = false, has_txid = false, has_woid = false;
    WireReader reader(m);
    WireField f;
    while (reader.next(&f)) {
      if (f.number == 1 && f.type == WireType::kFixed32) {
        *type = static_cast<std::int32_t>(static_cast<std::uint32_t>(f.value));
        has_type = true;
      } else if (f.number == 2 && f.type == WireType::kFixed64) {
        record_->transaction_id = static_cast<std::int64_t>(f.value);
        has_txid = true;
      } else if (f.number == 3 && f.type == WireType::kFixed64) {
        record_->write_order_id = static_cast<std::int64_t>(f.value);
        has_woid = true;
      }
    }
    if (!reader.error().empty()) return wire_fail("transaction header", reader, m);
    if (!has_type) return missing("transaction header", 1, "type", m);
    if (!has_txid) return missing("transaction header", 2, "transactionID", m);
    if (!has_woid) return missing("transaction header", 3, "writeOrderID", m);
    return true;
  }

  bool put() {
    ByteSpan m;
    if (!next_message("put", &m)) return false;
    bool has_event = false;
    std::optional<std::uint64_t> checksum;
    WireReader reader(m);
    WireField f;
    while (reader.next(&f)) {
      if (f.number == 1 && f.type == WireType::kLengthDelimited) {
        // A repeated embedded message merges, as protobuf-java does.
        if (!event(f.bytes)) return false;
        has_event = true;
      } else if (f.number == 2 && f.type == WireType::kFixed64) {
        checksum = f.value;
      }
    }
    if (!reader.error().empty()) return wire_fail("put", reader, m);
    if (!has_event) return missing("put", 1, "event", m);
    // Required fields are checked on the merged event.
    if (!event_has_body_) return missing("put event", 2, "body", last_event_);
    record_->body_offset = payload_offset_ + (where(record_->body) - kV3Framing);
    if (checksum) {
      record_->stored_crc = static_cast<std::uint32_t>(*checksum);
      if (!verify_checksum_) return true;
      record_->computed_crc = crc32_ieee(record_->body);
      record_->crc_ok = *checksum == record_->computed_crc;
    }
    return true;
  }

  bool event(ByteSpan m) {
    last_event_ = m;
    WireReader reader(m);
    WireField f;
    while (reader.next(&f)) {
      if (f.number == 1 && f.type == WireType::kLengthDelimited) {
        if (!event_header(f.bytes)) return false;
      } else if (f.number == 2 && f.type == WireType::kLengthDelimited) {
        record_->body = f.bytes;
        event_has_body_ = true;
      }
    }
    if (!reader.error().empty()) return wire_fail("put event", reader, m);
    return true;
  }

  bool event_header(ByteSpan m) {
    EventHeader header;
    header.value = m.subspan(m.size());  // "" when absent, still a view into the payload
    bool has_key = false;
    WireReader reader(m);
    WireField f;
    while (reader.next(&f)) {
      if (f.number == 1 && f.type == WireType::kLengthDelimited) {
        header.key = f.bytes;
        has_key = true;
      } else if (f.number == 2 && f.type == WireType::kLengthDelimited) {
        header.value = f.bytes;
      }
    }
    if (!reader.error().empty()) return wire_fail("put event header", reader, m);
    if (!has_key) return missing("put event header", 1, "key", m);
    record_->headers.push_back(header);
    return true;
  }

  bool take() {
    ByteSpan m;
    if (!next_message("take", &m)) return false;
    bool has_file = false, has_offset = false;
    WireReader reader(m);
    WireField f;
    while (reader.next(&f)) {
      if (f.type != WireType::kFixed32) continue;
      const auto value = static_cast<std::int32_t>(static_cast<std::uint32_t>(f.value));
      if (f.number == 1) {
        record_->taken.file_id = value;
        has_file = true;
      } else if (f.number == 2) {
        record_->taken.offset = value;
        has_offset = true;
      }
    }
    if (!reader.error().empty()) return wire_fail("take", reader, m);
    if (!has_file) return missing("take", 1, "fileID", m);
    if (!has_offset) return missing("take", 2, "offset", m);
    return true;
  }

  bool commit() {
    ByteSpan m;
    if (!next_message("commit", &m)) return false;
    bool has_type = false;
    WireReader reader(m);
    WireField f;
    while (reader.next(&f)) {
      if (f.number == 1 && f.type == WireType::kFixed32) {
        record_->commit_type = static_cast<std::int16_t>(static_cast<std::uint32_t>(f.value));
        has_type = true;
      }
    }
    if (!reader.error().empty()) return wire_fail("commit", reader, m);
    if (!has_type) return missing("commit", 1, "type", m);
    return true;
  }

  // A message with no fields of its own (Rollback, the footer): any fields
  // are unknown ones, skipped, but they must still parse.
  bool empty_message(const char* what) {
    ByteSpan m;
    if (!next_message(what, &m)) return false;
    WireReader reader(m);
    WireField f;
    while (reader.next(&f)) {
    }
    if (!reader.error().empty()) return wire_fail(what, reader, m);
    return true;
  }

  ByteSpan payload_;
  std::uint64_t payload_offset_;  // in the file
  bool verify_checksum_;
  LogRecord* record_;
  std::size_t position_ = 0;
  bool event_has_body_ = false;
  ByteSpan last_event_;
};

// Decodes a V2 record after its OP byte (spec §5.2): Java DataInput fields,
// no length prefix, so the record ends where its last field does.
class V2RecordDecoder {
 public:
  V2RecordDecoder(ByteSpan file, std::size_t op_offset, LogRecord* record)
      : in_(file, op_offset + 1), op_offset_(op_offset), record_(record) {}

  // The record's size on success.
  bool decode(std::size_t* size) {
    if (!prefix()) return false;
    bool ok = true;
    switch (record_->type) {
      case LogRecordType::kPut:
        ok = put();
        break;
      case LogRecordType::kTake:
        ok = take();
        break;
      case LogRecordType::kCommit:
        ok = read_i16(&record_->commit_type, "a commit type (int16)");
        break;
      default:
        break;
    }
    *size = in_.position() - op_offset_;
    return ok;
  }

 private:
  std::size_t here() const { return in_.position() - op_offset_; }
  // `at`: where the offending field starts, counted from the OP byte.
  bool fail_at(std::size_t at, std::string message) {
    record_->error = std::move(message) + at_byte(at);
    return false;
  }
  bool fail(std::string message) { return fail_at(here(), std::move(message)); }
  bool truncated(const char* what, std::size_t width) {
    return fail(fmt::format("expected {} ({} bytes), found {}", what, width, in_.remaining()));
  }
  bool read_i16(std::int16_t* out, const char* what) {
    ByteSpan two;
    if (!in_.read_span(2, &two)) return truncated(what, 2);
    *out = static_cast<std::int16_t>(static_cast<std::uint16_t>(two[0] << 8 | two[1]));
    return true;
  }
  bool read_i32(std::int32_t* out, const char* what) { return in_.read_i32_be(out) || truncated(what, 4); }
  bool read_i64(std::int64_t* out, const char* what) { return in_.read_i64_be(out) || truncated(what, 8); }

  bool prefix() {
    std::uint32_t magic = 0;
    if (!in_.read_u32_be(&magic)) return truncated("the V2 record magic 0xDEADBEEF", 4);
    if (magic != kV2Magic)
      return fail_at(1, fmt::format("expected the V2 record magic 0xDEADBEEF, found 0x{:08X}", magic));
    std::int16_t type = 0;
    if (!read_i16(&type, "a record type (int16)")) return false;
    switch (type) {
      case 1:
        record_->type = LogRecordType::kPut;
        break;
      case 2:
        record_->type = LogRecordType::kTake;
        break;
      case 3:
        record_->type = LogRecordType::kRollback;
        break;
      case 4:
        record_->type = LogRecordType::kCommit;
        break;
      default:
        return fail_at(
            5, fmt::format("expected record type 1 (put), 2 (take), 3 (rollback) or 4 (commit), found {}", type));
    }
    return read_i64(&record_->transaction_id, "a transaction id (int64)") &&
           read_i64(&record_->write_order_id, "a write order id (int64)");
  }

  bool take() {
    // Take.write: offset first, then fileID.
    return read_i32(&record_->taken.offset, "a take offset (int32)") &&
           read_i32(&record_->taken.file_id, "a take file id (int32)");
  }

  bool put() { return skip_new_classes() && headers() && body(); }

  // AbstractMapWritable's class table: Flume writes none and skips any
  // (a negative count skips none, as Java's loop does).
  bool skip_new_classes() {
    std::uint8_t count = 0;
    if (!in_.read_u8(&count)) return truncated("the event's class count (byte)", 1);
    const auto n = static_cast<std::int8_t>(count);
    for (std::int8_t i = 0; i < n; ++i) {
      ByteSpan skipped;
      if (!in_.read_span(3, &skipped)) return truncated("a class id and name length", 3);
      const std::size_t name_length = std::size_t{skipped[1]} << 8 | skipped[2];
      if (!in_.read_span(name_length, &skipped))
        return fail(fmt::format("expected a class name of {} bytes, found {}", name_length, in_.remaining()));
    }
    return true;
  }

  bool headers() {
    const std::size_t at = here();
    std::int32_t count = 0;
    if (!read_i32(&count, "the event's header count (int32)")) return false;
    // Each header takes at least 4 bytes (two type bytes, two VInts): a
    // count the rest of the file cannot hold is refused before any work.
    if (count > 0 && static_cast<std::size_t>(count) > in_.remaining() / 4)
      return fail_at(at, fmt::format("expected {} headers (at least {} bytes), found {} bytes", count,
                                     std::uint64_t{4} * static_cast<std::uint32_t>(count), in_.remaining()));
    for (std::int32_t i = 0; i < count; ++i) {
      EventHeader header;
      if (!text(&header.key, "key") || !text(&header.value, "value")) return false;
      record_->headers.push_back(header);
    }
    return true;
  }

  // A Writable type byte (Flume skips it without looking), then a Text: a
  // VInt byte count and the bytes.
  bool text(ByteSpan* out, const char* what) {
    std::uint8_t type_id = 0;
    if (!in_.read_u8(&type_id)) return truncated("a header type byte", 1);
    const std::size_t at = here();
    std::int32_t length = 0;
    if (!read_hadoop_vint(&in_, &length))
      return fail(fmt::format("expected a header {} length (Hadoop VInt), found a truncated or oversized one", what));
    if (length < 0) return fail_at(at, fmt::format("expected a header {} length >= 0, found {}", what, length));
    if (!in_.read_span(static_cast<std::size_t>(length), out))
      return fail(fmt::format("expected a header {} of {} bytes, found {}", what, length, in_.remaining()));
    return true;
  }

  bool body() {
    const std::size_t at = here();
    std::int32_t length = 0;
    if (!read_i32(&length, "the event's body length (int32)")) return false;
    if (length == -1) {
      record_->null_body = true;
      record_->body = ByteSpan();
    } else if (length < 0) {
      return fail_at(at, fmt::format("expected a body length >= -1, found {}", length));
    } else {
      const std::size_t body_at = in_.position();
      if (!in_.read_span(static_cast<std::size_t>(length), &record_->body))
        return fail(fmt::format("expected a body of {} bytes, found {}", length, in_.remaining()));
      record_->body_offset = body_at;
    }
    return true;
  }

  ByteReader in_;
  std::size_t op_offset_;
  LogRecord* record_;
};

}  // namespace

bool read_hadoop_vint(ByteReader* in, std::int32_t* value) {
  ByteReader probe = *in;
  std::uint8_t first_byte = 0;
  if (!probe.read_u8(&first_byte)) return false;
  const auto first = static_cast<std::int8_t>(first_byte);
  if (first >= -112) {
    *value = first;
    *in = probe;
    return true;
  }
  // -113..-120: positive, -(first + 112) bytes follow; -121..-128:
  // negative (one's complement), -(first + 120) bytes follow.
  const bool negative = first < -120;
  const int length = negative ? -(first + 120) : -(first + 112);
  std::uint64_t magnitude = 0;
  for (int i = 0; i < length; ++i) {
    std::uint8_t b = 0;
    if (!probe.read_u8(&b)) return false;
    magnitude = magnitude << 8 | b;
  }
  const std::int64_t result = negative ? static_cast<std::int64_t>(~magnitude) : static_cast<std::int64_t>(magnitude);
  if (result > INT32_MAX || result < INT32_MIN) return false;
  *value = static_cast<std::int32_t>(result);
  *in = probe;
  return true;
}

std::optional<std::size_t> find_first_non_fill(ByteSpan file, std::size_t from) {
  constexpr std::uint64_t kFillWord = 0x8080808080808080ull;
  std::size_t i = from;
  for (; i + 8 <= file.size(); i += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, file.data() + i, 8);
    if (word != kFillWord) break;
  }
  for (; i < file.size(); ++i)
    if (file[i] != kOpEof) return i;
  return std::nullopt;
}

std::optional<V2LogHeader> read_v2_log_header(ByteSpan file, const std::string& path,
                                              std::optional<std::int32_t> expected_file_id, Reporter* reporter) {
  auto report = [&](const char* code, std::uint64_t offset, std::string message) {
    reporter->report(Finding{Severity::kError, code, path, offset, std::move(message)});
  };
  ByteReader in(file);
  V2LogHeader header;
  if (!in.read_i32_be(&header.version) || !in.read_i32_be(&header.file_id) ||
      !in.read_i64_be(&header.checkpoint_position) || !in.read_i64_be(&header.checkpoint_write_order_id)) {
    report("log_header_truncated", 0, fmt::format("expected a 24-byte V2 log header, found {} bytes", file.size()));
    return std::nullopt;
  }
  if (header.version != 2) {
    report("log_header_version", 0, fmt::format("expected log format version 2, found {}", header.version));
    return std::nullopt;
  }
  if (expected_file_id && header.file_id != *expected_file_id)
    report("log_file_id_mismatch", 4,
           fmt::format("expected file id {} (from the file name), found {}", *expected_file_id, header.file_id));
  const std::int64_t position = header.checkpoint_position;
  if (position != 0 &&
      (position < static_cast<std::int64_t>(kV2LogHeaderSize) || static_cast<std::uint64_t>(position) > file.size()))
    report(
        "log_checkpoint_position", 8,
        fmt::format("expected a checkpoint position of 0 or within records 24..{}, found {}", file.size(), position));
  return header;
}

LogReader::LogReader(ByteSpan file, int version, std::uint64_t start, AesCtr* decryptor)
    : file_(file),
      window_(file),
      size_(file.size()),
      version_(version),
      start_(start),
      position_(start <= file.size() ? static_cast<std::size_t>(start) : file.size()),
      decryptor_(decryptor),
      tally_(file, position_) {}

// The window counts the bytes read; the tally, over no span, the records.
LogReader::LogReader(const InputFile& file, int version, std::uint64_t start, AesCtr* decryptor,
                     std::size_t window_capacity)
    : file_(file.bytes()),
      window_(file, window_capacity),
      size_(file_.size()),
      version_(version),
      start_(start),
      position_(start <= size_ ? static_cast<std::size_t>(start) : size_),
      decryptor_(decryptor),
      tally_(ByteSpan(), position_) {}

bool LogReader::next(LogRecord* record) {
  if (done_) return false;
  decode_next(record);
  tally_.after_next(done_, done_ ? record->offset : position_);
  return true;
}

void LogReader::seek(std::uint64_t offset) {
  start_ = offset;
  position_ = offset <= size_ ? static_cast<std::size_t>(offset) : size_;
  started_ = false;
  done_ = false;
  fill_start_.reset();
}

bool LogReader::decode_next(LogRecord* record) {
  // Field by field rather than `*record = LogRecord{}`: that would free the
  // reused header vector and error string once per record.
  record->type = LogRecordType::kEndOfData;
  record->offset = position_;
  record->size = 0;
  record->transaction_id = 0;
  record->write_order_id = 0;
  record->headers.clear();
  record->body = ByteSpan();
  record->body_offset = 0;
  record->null_body = false;
  record->stored_crc.reset();
  record->computed_crc = 0;
  record->crc_ok = true;
  record->taken = EventPointer{};
  record->commit_type = 0;
  record->trailing_bytes = 0;
  record->error.clear();
  if (!started_) {
    started_ = true;
    if (version_ != 2 && version_ != 3)
      return broken(record, fmt::format("expected log format version 2 or 3, found {}", version_));
    if (start_ > size_)
      return broken(record, fmt::format("expected a start offset within the file's {} bytes, found {}", size_, start_));
  }
  if (position_ >= size_) return end_of_data(record);  // the physical end
  const std::uint8_t op = byte_at(position_);
  switch (op) {
    case kOpRecord:
      return version_ == 3 ? read_v3(record) : read_v2(record);
    case kOpEof:
      fill_start_ = position_;
      return end_of_data(record);
    case kOpNoop:
      return skip_noop(record);
    default:
      return broken(record, fmt::format("expected an OP byte 0x7F, 0x80 or 0x00, found 0x{:02X}", op));
  }
}

bool LogReader::end_of_data(LogRecord* record) {
  record->type = LogRecordType::kEndOfData;
  done_ = true;
  return true;
}

bool LogReader::broken(LogRecord* record, std::string message) {
  record->type = LogRecordType::kBroken;
  record->error = std::move(message);
  done_ = true;
  return true;
}

// Flume's skipRecord: the int32 length after the 0x00 says how many bytes
// to skip. Flume would skip nothing for a negative length and stop at the
// end for an overlong one; either means the framing is lost, so both are
// broken here.
bool LogReader::skip_noop(LogRecord* record) {
  std::size_t length = 0;
  if (!read_length(record, "NOOP", &length)) return true;
  record->type = LogRecordType::kNoop;
  record->size = kV3Framing + length;
  record->error = fmt::format("skipped {} bytes", length);
  position_ += record->size;
  return true;
}

// The int32 BE length after the OP byte of a record or a NOOP, checked
// against the bytes that remain; false (and *record broken) when it is cut
// short, negative or runs past the end.
bool LogReader::read_length(LogRecord* record, const char* what, std::size_t* length) {
  const std::size_t remaining = size_ - position_;
  if (remaining < kV3Framing) {
    broken(record, fmt::format("expected a 4-byte {} length after the OP byte, found {} bytes", what, remaining - 1));
    return false;
  }
  const auto value = static_cast<std::int32_t>(load_u32_be(window_.view(position_, kV3Framing).data() + 1));
  if (value < 0) {
    broken(record, fmt::format("expected a {} length >= 0, found {}", what, value));
    return false;
  }
  if (static_cast<std::size_t>(value) > remaining - kV3Framing) {
    broken(record, fmt::format("expected a {} payload of {} bytes, found {}", what, value, remaining - kV3Framing));
    return false;
  }
  *length = static_cast<std::size_t>(value);
  return true;
}

bool LogReader::read_v3(LogRecord* record) {
  std::size_t length = 0;
  if (!read_length(record, "record", &length)) return true;
  const std::size_t size = kV3Framing + length;
  // The whole record in one view, so that the window holds it whole.
  ByteSpan payload = window_.view(position_, size).subspan(kV3Framing);
  if (decryptor_ != nullptr) {
    if (!decrypt(&payload)) {
      record->size = size;
      return broken(record, "expected a payload AES/CTR can decrypt, found OpenSSL failing");
    }
  }
  V3PayloadDecoder decoder(payload, position_ + kV3Framing, verify_checksums_, record);
  if (!decoder.decode()) {
    record->size = size;
    record->type = LogRecordType::kBroken;
    done_ = true;
    return true;
  }
  record->size = size;
  position_ += size;
  return true;
}

bool LogReader::decrypt(ByteSpan* payload) {
  if (plaintext_.size() < payload->size()) plaintext_.resize(payload->size());
  if (!decryptor_->apply(payload->data(), payload->size(), plaintext_.data())) return false;
  *payload = ByteSpan(plaintext_.data(), payload->size());
  return true;
}

bool LogReader::read_v2(LogRecord* record) {
  // A V2 record says its length only by its fields: decoded in a window's
  // worth of bytes, and again in all of them when that was not enough.
  const std::size_t remaining = size_ - position_;
  std::size_t viewed = std::min(remaining, ReadWindow::kDefaultCapacity);
  std::size_t size = 0;
  bool ok = V2RecordDecoder(window_.view(position_, viewed), 0, record).decode(&size);
  if (!ok && viewed < remaining) {
    viewed = remaining;
    record->headers.clear();
    record->error.clear();
    record->body_offset = 0;
    ok = V2RecordDecoder(window_.view(position_, viewed), 0, record).decode(&size);
  }
  if (record->body_offset != 0) record->body_offset += position_;  // counted from the OP byte
  if (!ok) {
    record->type = LogRecordType::kBroken;
    done_ = true;
    return true;
  }
  record->size = size;
  position_ += size;
  return true;
}

std::optional<std::size_t> find_decodable_record(ByteSpan file, std::size_t from, AesCtr* decryptor) {
  LogRecord r;
  for (std::size_t at = from; at < file.size(); ++at) {
    if (file[at] != kOpRecord) continue;
    LogReader reader(file, 3, at, decryptor);
    if (reader.next(&r) && r.type != LogRecordType::kBroken && r.crc_ok) return at;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> LogReader::data_after_end_fill() const {
  if (!fill_start_) return std::nullopt;
  return find_first_non_fill(file_, *fill_start_ + 1);
}

}  // namespace qjt::flume
