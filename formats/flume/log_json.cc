#include "flume/log_json.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "flume/log_reader.h"
#include "json_writer.h"
#include "record_format.h"

namespace qjt::flume {
namespace {

// ordered_json keeps the headers in the order the line gives them.
using Json = nlohmann::ordered_json;

constexpr std::size_t kShownChars = 60;

// The "op" of a log record a release before the common fields (qjt-json(5))
// wrote as "type", in lower case; nullopt for any other value.
std::optional<std::string> op_of_older_type(std::string_view type) {
  for (const LogRecordType t :
       {LogRecordType::kPut, LogRecordType::kTake, LogRecordType::kRollback, LogRecordType::kCommit,
        LogRecordType::kNoop, LogRecordType::kEndOfData, LogRecordType::kBroken})
    if (type == log_record_type_name(t)) return std::string(log_record_op_name(t));
  return std::nullopt;
}

std::string show(const Json& value) {
  std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (text.size() > kShownChars) text = text.substr(0, kShownChars) + "...";
  return text;
}

std::string show_field(const Json& object, std::string_view key) {
  const auto it = object.find(key);
  return it == object.end() ? std::string("no such field") : show(*it);
}

// ---------------------------------------------------------------- encoding fields

// The fields one record line shows, as views.
struct RecordFields {
  LogRecordType type = LogRecordType::kPut;
  std::int64_t transaction_id = 0;
  std::int64_t write_order_id = 0;
  std::vector<HeaderToWrite> headers;
  std::string_view body;
  bool checksum = true;
  EventPointer taken;
  std::int16_t commit_type = 0;
};

bool encode_fields(const RecordFields& f, V3RecordWriter* writer, std::string* out) {
  switch (f.type) {
    case LogRecordType::kPut:
      return writer->put(out, f.transaction_id, f.write_order_id, f.headers, f.body,
                         f.checksum ? PutChecksum::kPresent : PutChecksum::kAbsent);
    case LogRecordType::kTake:
      return writer->take(out, f.transaction_id, f.write_order_id, f.taken);
    case LogRecordType::kRollback:
      return writer->rollback(out, f.transaction_id, f.write_order_id);
    case LogRecordType::kCommit:
      return writer->commit(out, f.transaction_id, f.write_order_id, f.commit_type);
    default:
      return false;
  }
}

// Whether JSON can carry the headers as they are: UTF-8, no key twice.
bool headers_fit_json(const LogRecord& record) {
  std::set<std::string_view> keys;
  for (const EventHeader& h : record.headers) {
    if (!is_valid_utf8(h.key.as_chars()) || !is_valid_utf8(h.value.as_chars())) return false;
    if (!keys.insert(h.key.as_chars()).second) return false;
  }
  return true;
}

// Whether the line's fields, encoded again, give the record's bytes.
bool fields_reproduce(const LogRecord& record, ByteSpan bytes, AesCtr* cipher) {
  if (record.type == LogRecordType::kPut && !headers_fit_json(record)) return false;
  RecordFields f;
  f.type = record.type;
  f.transaction_id = record.transaction_id;
  f.write_order_id = record.write_order_id;
  for (const EventHeader& h : record.headers) f.headers.push_back(HeaderToWrite{h.key.as_chars(), h.value.as_chars()});
  f.body = record.body.as_chars();
  f.checksum = record.stored_crc.has_value();
  f.taken = record.taken;
  f.commit_type = record.commit_type;
  V3RecordWriter writer(cipher);
  std::string encoded;
  return encode_fields(f, &writer, &encoded) && encoded == bytes.as_chars();
}

// ---------------------------------------------------------------- parsing

class LineParser {
 public:
  LineParser(Json* object, std::string* error) : object_(object), error_(error) {}

  bool fail(std::string message) {
    *error_ = std::move(message);
    return false;
  }

  std::optional<std::int64_t> integer(std::string_view key, std::int64_t min, std::int64_t max) {
    const auto it = object_->find(key);
    if (it != object_->end() && it->is_number_integer()) {
      if (it->is_number_unsigned()) {
        const auto u = it->get<std::uint64_t>();
        if (u <= static_cast<std::uint64_t>(max)) return static_cast<std::int64_t>(u);
      } else if (const auto v = it->get<std::int64_t>(); v >= min && v <= max) {
        return v;
      }
    }
    // --json-big-numbers=string wrote it as a decimal string.
    if (it != object_->end() && it->is_string()) {
      const auto v = parse_big_number_string(it->get_ref<const std::string&>());
      if (v && *v >= min && *v <= max) return v;
    }
    fail(
        fmt::format("expected \"{}\" as an integer from {} to {}, found {}", key, min, max, show_field(*object_, key)));
    return std::nullopt;
  }
  std::optional<std::int64_t> int64(std::string_view key) {
    return integer(key, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max());
  }
  std::optional<std::int32_t> int32(std::string_view key) {
    const auto v = integer(key, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max());
    if (!v) return std::nullopt;
    return static_cast<std::int32_t>(*v);
  }
  // A nullable int64: absent or null is nullopt (and not an error).
  bool optional_int64(std::string_view key, std::optional<std::int64_t>* out) {
    const auto it = object_->find(key);
    if (it == object_->end() || it->is_null()) {
      out->reset();
      return true;
    }
    *out = int64(key);
    return out->has_value();
  }
  std::optional<std::string> string(const Json& object, std::string_view key) {
    const auto it = object.find(key);
    if (it != object.end() && it->is_string()) return it->get<std::string>();
    fail(fmt::format("expected \"{}\" as a string, found {}", key, show_field(object, key)));
    return std::nullopt;
  }

  // The one of "<prefix>", "<prefix>_b64", "<prefix>_hex" present (decoded
  // into *out); false when none is, or more than one, or it does not decode.
  // `with_text`: whether the plain "<prefix>" (UTF-8 text) is allowed.
  bool bytes_field(std::string_view prefix, bool with_text, std::string* out, bool* found) {
    *found = false;
    std::string found_key;
    for (const char* suffix : {"", "_b64", "_hex"}) {
      const std::string key = std::string(prefix) + suffix;
      if ((!with_text && *suffix == '\0') || object_->find(key) == object_->end()) continue;
      if (*found) return fail(fmt::format("expected one of \"{}\" and \"{}\", found both", found_key, key));
      const auto text = string(*object_, key);
      if (!text) return false;
      std::string decode_error;
      if (!decode_payload(key, *text, out, &decode_error))
        return fail(fmt::format("expected \"{}\" as {}", key, decode_error));
      *found = true;
      found_key = key;
    }
    return true;
  }

  bool meta(LogJsonLine* line) {
    line->kind = LogJsonKind::kMeta;
    LogMetadata& m = line->meta;
    const auto version = int32("version");
    const auto id = int32("log_file_id");
    const auto position = version && id ? int64("checkpoint_position") : std::nullopt;
    const auto woid = position ? int64("checkpoint_write_order_id") : std::nullopt;
    if (!woid) return false;
    m.version = *version;
    m.log_file_id = *id;
    m.checkpoint_position = *position;
    m.checkpoint_write_order_id = *woid;
    if (!optional_int64("backup_checkpoint_position", &m.backup_checkpoint_position) ||
        !optional_int64("backup_checkpoint_write_order_id", &m.backup_checkpoint_write_order_id) ||
        !encryption(&m.encryption))
      return false;
    return raw("raw", line);
  }

  bool encryption(std::optional<LogFileEncryption>* out) {
    const auto it = object_->find("encryption");
    if (it == object_->end() || it->is_null()) return true;
    if (!it->is_object()) return fail(fmt::format("expected \"encryption\" as null or an object, found {}", show(*it)));
    const auto provider = string(*it, "cipher_provider");
    const auto alias = provider ? string(*it, "key_alias") : std::nullopt;
    if (!alias) return false;
    LogFileEncryption e{*provider, *alias, std::nullopt};
    const auto iv = it->find("parameters_hex");
    if (iv != it->end() && !iv->is_null()) {
      std::string bytes, decode_error;
      if (!iv->is_string() || !hex_decode(iv->get<std::string>(), &bytes, &decode_error))
        return fail(fmt::format("expected \"parameters_hex\" as null or hex, found {}", show(*iv)));
      e.parameters = std::move(bytes);
    }
    *out = std::move(e);
    return true;
  }

  bool raw(std::string_view prefix, LogJsonLine* line) {
    std::string bytes;
    bool found = false;
    if (!bytes_field(prefix, false, &bytes, &found)) return false;
    if (found) line->raw = std::move(bytes);
    return true;
  }

  bool record(LogJsonLine* line) {
    line->kind = LogJsonKind::kRecord;
    const auto type = string(*object_, "op");
    const auto version = type ? integer("version", 2, 3) : std::nullopt;
    if (!version || !raw("raw", line)) return false;
    line->version = static_cast<int>(*version);
    if (*type == "END_OF_DATA") return end(line);
    if (*type == "NOOP" || *type == "BROKEN") {
      line->type = *type == "NOOP" ? LogRecordType::kNoop : LogRecordType::kBroken;
      if (line->raw) return true;
      return fail(
          fmt::format("expected the {} record's bytes in \"raw_b64\" or \"raw_hex\" (dump --json of a V3 "
                      "log writes them), found neither",
                      *type));
    }
    if (!transaction(line)) return false;
    if (*type == "PUT") return put(line);
    if (*type == "TAKE") return take(line);
    if (*type == "COMMIT") return commit(line);
    if (*type == "ROLLBACK") {
      line->type = LogRecordType::kRollback;
      return true;
    }
    return fail(fmt::format("expected \"op\" PUT, TAKE, ROLLBACK, COMMIT, NOOP, BROKEN or END_OF_DATA, found {}",
                            show_field(*object_, "op")));
  }

  bool transaction(LogJsonLine* line) {
    const auto txid = int64("transaction_id");
    const auto woid = txid ? int64("write_order_id") : std::nullopt;
    if (!woid) return false;
    line->transaction_id = *txid;
    line->write_order_id = *woid;
    return true;
  }

  bool put(LogJsonLine* line) {
    line->type = LogRecordType::kPut;
    const auto headers = object_->find("headers");
    if (headers == object_->end() || !headers->is_object())
      return fail(fmt::format("expected \"headers\" as an object, found {}", show_field(*object_, "headers")));
    for (const auto& [key, value] : headers->items()) {
      if (!value.is_string())
        return fail(fmt::format("expected header \"{}\" as a string, found {}", key, show(value)));
      line->headers.emplace_back(key, value.get<std::string>());
    }
    bool found = false;
    if (!bytes_field("data", true, &line->body, &found)) return false;
    if (!found && !line->raw)
      return fail(
          "expected the body in \"data\", \"data_b64\" or \"data_hex\", found none (a dump made with "
          "--data=none cannot be converted back)");
    if (line->body.size() > 0x7FFFFF00)
      return fail(fmt::format("expected a body that fits a record (below 2 GiB), found {} bytes", line->body.size()));
    const auto crc = object_->find("crc");
    line->checksum = crc != object_->end() && !crc->is_null();
    return true;
  }

  bool take(LogJsonLine* line) {
    line->type = LogRecordType::kTake;
    const auto taken = object_->find("taken");
    if (taken == object_->end() || !taken->is_object())
      return fail(
          fmt::format("expected \"taken\" as {{\"file_id\",\"offset\"}}, found {}", show_field(*object_, "taken")));
    LineParser inner(&*taken, error_);
    const auto file_id = inner.int32("file_id");
    const auto offset = file_id ? inner.int32("offset") : std::nullopt;
    if (!offset) return false;
    line->taken = EventPointer{*file_id, *offset};
    return true;
  }

  bool commit(LogJsonLine* line) {
    line->type = LogRecordType::kCommit;
    const auto it = object_->find("commit_type");
    if (it != object_->end() && it->is_string()) {
      const auto& name = it->get_ref<const std::string&>();
      if (name == "PUT" || name == "TAKE") {
        line->commit_type = name == "PUT" ? 1 : 2;
        return true;
      }
    }
    const auto type =
        integer("commit_type", std::numeric_limits<std::int16_t>::min(), std::numeric_limits<std::int16_t>::max());
    if (!type) return fail(*error_ + " (or \"PUT\" or \"TAKE\")");
    line->commit_type = static_cast<std::int16_t>(*type);
    return true;
  }

  bool end(LogJsonLine* line) {
    line->kind = LogJsonKind::kEnd;
    line->type = LogRecordType::kEndOfData;
    if (object_->find("fill") != object_->end()) {
      const auto fill = integer("fill", 0, static_cast<std::int64_t>(kMaxFill));
      if (!fill) return false;
      line->fill = static_cast<std::uint64_t>(*fill);
    }
    bool found = false;
    return bytes_field("after_fill", false, &line->after_fill, &found);
  }

 private:
  Json* object_;
  std::string* error_;
};

}  // namespace

void add_raw_bytes(JsonWriter* line, std::string_view prefix, ByteSpan bytes, DataMode mode) {
  if (mode == DataMode::kHex) {
    line->str(std::string(prefix) + "_hex", hex_encode(bytes));
  } else {
    line->str(std::string(prefix) + "_b64", base64_encode(bytes));
  }
}

void add_exact_fields(JsonWriter* line, const LogRecord& record, ByteSpan file, AesCtr* cipher, DataMode mode) {
  const auto raw = [&](std::string_view prefix, ByteSpan bytes) { add_raw_bytes(line, prefix, bytes, mode); };
  const std::size_t offset = std::min<std::size_t>(record.offset, file.size());
  switch (record.type) {
    case LogRecordType::kEndOfData: {
      const std::size_t end = find_first_non_fill(file, offset).value_or(file.size());
      line->unsigned_num("fill", end - offset);
      if (end < file.size()) raw("after_fill", file.subspan(end));
      return;
    }
    case LogRecordType::kBroken:
      raw("raw", file.subspan(offset));
      return;
    case LogRecordType::kNoop:
      raw("raw", file.subspan(offset, record.size));
      return;
    default: {
      const ByteSpan bytes = file.subspan(offset, record.size);
      if (!fields_reproduce(record, bytes, cipher)) raw("raw", bytes);
    }
  }
}

bool log_meta_is_canonical(ByteSpan bytes, const LogMetadata& decoded) {
  return encode_log_metadata(decoded) == bytes.as_chars();
}

bool parse_log_json_line(std::string_view text, LogJsonLine* line, std::string* error) {
  *line = LogJsonLine{};
  Json object;
  try {
    object = Json::parse(text.begin(), text.end());
  } catch (const Json::exception& e) {
    *error = fmt::format("expected one JSON object, found invalid JSON ({})", e.what());
    return false;
  }
  if (!object.is_object()) {
    *error = fmt::format("expected one JSON object, found {}", show(object));
    return false;
  }
  if (!record_format::check(object, record_format::kFlume, error)) {
    // A line of a release before the common fields (qjt-json(5)) named the
    // record "type", in lower case: say where it went.
    const auto type = object.find("type");
    if (type != object.end() && type->is_string() && !object.contains("op"))
      if (const auto op = op_of_older_type(type->get_ref<const std::string&>()))
        *error += fmt::format(
            " (a line of a release before the common fields, which wrote the record as \"type\" {}: it is now "
            "\"op\" \"{}\" beside \"type\" \"record\")",
            type->dump(), *op);
    return false;
  }
  LineParser parser(&object, error);
  const auto kind = object.find("kind");
  if (kind != object.end() && *kind == "log_meta") return parser.meta(line);
  if (kind != object.end() && *kind == "log_record") return parser.record(line);
  *error = fmt::format("expected \"kind\" log_meta or log_record (what dump --json prints for a data log), found {}",
                       show_field(object, "kind"));
  return false;
}

bool encode_json_record(const LogJsonLine& line, V3RecordWriter* writer, std::string* out) {
  RecordFields f;
  f.type = line.type;
  f.transaction_id = line.transaction_id;
  f.write_order_id = line.write_order_id;
  for (const auto& [key, value] : line.headers) f.headers.push_back(HeaderToWrite{key, value});
  f.body = line.body;
  f.checksum = line.checksum;
  f.taken = line.taken;
  f.commit_type = line.commit_type;
  return encode_fields(f, writer, out);
}

bool LogJsonAssembler::refuse(Refusal why, std::string message, std::string* error) {
  refusal_ = why;
  *error = std::move(message);
  return false;
}

bool LogJsonAssembler::add(const LogJsonLine& line, std::string* error) {
  refusal_ = Refusal::kNone;
  if (ended_)
    return refuse(Refusal::kBadLine,
                  "expected nothing after the end_of_data or broken line (the log ends there), found another line",
                  error);
  const bool first = !seen_any_;
  seen_any_ = true;
  if (line.kind == LogJsonKind::kMeta) {
    if (!first)
      return refuse(Refusal::kBadLine, "expected the log_meta line first (it decides the encryption), found it later",
                    error);
    return add_meta(line, error);
  }
  if (line.kind == LogJsonKind::kEnd) {
    ended_ = true;
    fill_ = line.fill;
    after_fill_ = line.after_fill;
    return true;
  }
  return add_record(line, error);
}

bool LogJsonAssembler::add_meta(const LogJsonLine& line, std::string* error) {
  meta_ = line.meta;
  meta_raw_ = line.raw;
  if (!meta_->encryption) return true;
  const LogFileEncryption& e = *meta_->encryption;
  const auto key = keys_ == nullptr ? KeyRing::const_iterator{} : keys_->find(e.key_alias);
  if (keys_ == nullptr || key == keys_->end())
    return refuse(Refusal::kMissingKey,
                  fmt::format("the log_meta line says the log is encrypted ({}) with key alias \"{}\": expected --key "
                              "{}=HEX to encrypt the records again, found no such key",
                              e.cipher_provider, e.key_alias, e.key_alias),
                  error);
  std::string cipher_error;
  auto cipher = AesCtr::create(ByteSpan(key->second), ByteSpan(e.parameters.value_or("")), &cipher_error);
  if (!cipher)
    return refuse(Refusal::kMissingKey, fmt::format("key alias \"{}\": {}", e.key_alias, cipher_error), error);
  cipher_ = std::make_unique<AesCtr>(std::move(*cipher));
  return true;
}

bool LogJsonAssembler::add_record(const LogJsonLine& line, std::string* error) {
  if (line.type == LogRecordType::kBroken) ended_ = true;  // its raw bytes run to the end of the file
  if (line.raw) {
    if (line.version != 3)
      return refuse(Refusal::kBadLine, "expected raw bytes only on a version 3 line (V2 records are re-encoded as V3)",
                    error);
    records_ += *line.raw;
    return true;
  }
  if (line.version == 2) upgraded_v2_ = true;
  V3RecordWriter writer(cipher_.get());
  if (encode_json_record(line, &writer, &records_)) return true;
  return refuse(Refusal::kBadLine, "expected a record that can be encrypted, found OpenSSL failing", error);
}

std::optional<std::string> LogJsonAssembler::meta_bytes() const {
  if (meta_raw_) return meta_raw_;
  if (meta_) return encode_log_metadata(*meta_);
  return std::nullopt;
}

}  // namespace qjt::flume
