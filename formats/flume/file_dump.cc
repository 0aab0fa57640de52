#include "flume/file_dump.h"

#include <filesystem>
#include <iterator>
#include <memory>
#include <string_view>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "flume/aes_ctr.h"
#include "flume/channel_layout.h"
#include "flume/checkpoint_file.h"
#include "flume/checkpoint_meta.h"
#include "flume/event_json.h"
#include "flume/inflight_file.h"
#include "flume/log_json.h"
#include "flume/log_metadata.h"
#include "flume/log_reader.h"
#include "flume/log_record.h"
#include "flume/snappy_stream.h"
#include "input_file.h"
#include "json_line.h"
#include "path_name.h"
#include "record_format.h"

namespace qjt::flume {
namespace {

namespace fs = std::filesystem;

// The largest checkpoint Flume can write: capacity up to a Java int, plus the
// header, in longs. A snappy stream claiming more is damaged.
constexpr std::size_t kMaxCheckpointBytes = (std::size_t{2147483647} + kCheckpointHeaderSlots) * 8;

// ---------------------------------------------------------------- context

// What every dumper shares: where lines go, how many are left, and where
// findings go.
class Dump {
 public:
  Dump(const std::string& path, const FileDumpOptions& options, std::string* out, const std::function<void()>& sink,
       Reporter* reporter, const InputFile* input)
      : path_(path), options_(options), out_(out), sink_(sink), reporter_(reporter), input_(input) {}

  const std::string& path() const { return path_; }
  const FileDumpOptions& options() const { return options_; }
  bool json() const { return options_.json; }
  std::string* out() const { return out_; }
  std::uint64_t lines() const { return lines_; }
  bool full() const { return options_.limit && lines_ >= *options_.limit; }

  // Counts the line just appended and lets the caller flush it.
  void line_done() {
    ++lines_;
    if (sink_) sink_();
  }

  void report(Severity severity, std::string code, std::string file, std::optional<std::uint64_t> offset,
              std::string message) const {
    if (reporter_ == nullptr) return;
    reporter_->report(Finding{severity, std::move(code), std::move(file), offset, std::move(message)});
  }
  Reporter* reporter() const { return reporter_; }
  // A reader of the log's records from `start`: through a window over the
  // input when there is one, else over `bytes`.
  LogReader log_reader(ByteSpan bytes, int version, std::uint64_t start, AesCtr* cipher) const {
    return input_ != nullptr ? LogReader(*input_, version, start, cipher) : LogReader(bytes, version, start, cipher);
  }

 private:
  const std::string& path_;
  const FileDumpOptions& options_;
  std::string* out_;
  const std::function<void()>& sink_;
  Reporter* reporter_;
  const InputFile* input_;  // of the bytes dumped; nullptr for bytes alone
  std::uint64_t lines_ = 0;
};

bool exists(const std::string& path) {
  std::error_code error;  // an unreadable directory counts as absent
  return fs::exists(path, error);
}

// The file `name` in the directory holding `path`.
std::string beside(const std::string& path, std::string_view name) {
  const std::string dir = fs::path(path).parent_path().string();
  return dir.empty() ? std::string(name) : dir + "/" + std::string(name);
}

// Opens a file found beside the one dumped; nullptr (io_error) on failure.
std::unique_ptr<InputFile> open_beside(const Dump& dump, const std::string& path) {
  std::string error;
  auto input = InputFile::open(path, &error);
  if (!input) dump.report(Severity::kError, "io_error", path, std::nullopt, error);
  return input;
}

// ---------------------------------------------------------------- shared JSON and text pieces

void write_pointer_json(JsonWriter* out, EventPointer pointer) {
  out->begin_object().num("file_id", pointer.file_id).num("offset", pointer.offset).end_object();
}

std::string pointer_text(EventPointer pointer) { return fmt::format("log-{} @ {}", pointer.file_id, pointer.offset); }

// ---------------------------------------------------------------- checkpoint

// The queue's position and counts as the checkpoint's version defines them;
// nullopt fields are unknown.
struct QueueState {
  std::optional<std::int64_t> size;
  std::optional<std::int64_t> head;
  std::optional<std::vector<ActiveLogCount>> active_logs;
  std::optional<RingPosition> ring_position;
};

QueueState v2_queue_state(const CheckpointFile& checkpoint, const std::string& path) {
  QueueState state;
  state.size = checkpoint.v2_size();
  state.head = checkpoint.v2_head();
  state.active_logs.emplace();
  for (const auto& slot : checkpoint.v2_active_logs()) state.active_logs->push_back(slot.count);
  state.ring_position = v2_ring_position(checkpoint, path);
  return state;
}

// A V3 checkpoint keeps head, size and counts in checkpoint.meta beside it.
QueueState v3_queue_state(const Dump& dump, const CheckpointFile& checkpoint) {
  QueueState state;
  if (dump.path() == "-") return state;
  const std::string meta_path = beside(dump.path(), "checkpoint.meta");
  if (!exists(meta_path)) {
    dump.report(Severity::kWarning, "missing_checkpoint_meta", meta_path, std::nullopt,
                fmt::format("expected checkpoint.meta beside the version 3 checkpoint {} (it holds the queue's "
                            "head and size), found none: queue elements not listed",
                            dump.path()));
    return state;
  }
  const auto input = open_beside(dump, meta_path);
  if (!input) return state;
  const CheckpointMetaDecode decoded = decode_checkpoint_meta(input->bytes(), meta_path, dump.reporter());
  if (!decoded.valid) return state;
  check_meta_matches_checkpoint(decoded, meta_path, checkpoint, dump.reporter());
  state.size = decoded.meta.queue_size;
  state.head = decoded.meta.queue_head;
  state.active_logs = decoded.meta.active_logs;
  state.ring_position = meta_ring_position(decoded, meta_path);
  return state;
}

void null_or_num(JsonWriter* line, std::string_view key, std::optional<std::int64_t> value) {
  if (value) {
    line->num(key, *value);
  } else {
    line->null(key);
  }
}

std::string marker_text(std::int64_t marker) {
  if (marker == kCheckpointComplete) return "complete";
  if (marker == kCheckpointIncomplete) return "incomplete";
  return fmt::format("marker={}", marker);
}

std::string optional_text(std::optional<std::int64_t> value) {
  return value ? std::to_string(*value) : std::string("?");
}

void append_checkpoint_header(const Dump& dump, const CheckpointFile& checkpoint, const QueueState& state) {
  if (dump.json()) {
    JsonLine line(dump.out(), JsonType::kRecord);
    line.envelope(record_format::kFlume, dump.path()).str("kind", "checkpoint").num("version", checkpoint.version());
    line.num("write_order_id", checkpoint.write_order_id()).unsigned_num("capacity", checkpoint.capacity());
    line.num("marker", checkpoint.marker()).boolean("complete", checkpoint.marker() == kCheckpointComplete);
    null_or_num(&line, "size", state.size);
    null_or_num(&line, "head", state.head);
    if (state.active_logs) {
      write_active_logs_json(&line.key("active_logs"), *state.active_logs);
    } else {
      line.null("active_logs");
    }
    line.finish();
    return;
  }
  fmt::format_to(std::back_inserter(*dump.out()),
                 "checkpoint v{} woid={} capacity={} size={} head={} {} active_logs={}\n", checkpoint.version(),
                 checkpoint.write_order_id(), checkpoint.capacity(), optional_text(state.size),
                 optional_text(state.head), marker_text(checkpoint.marker()),
                 state.active_logs ? active_logs_text(*state.active_logs) : std::string("?"));
}

void append_checkpoint_element(const Dump& dump, std::size_t index, const RingElement& element) {
  if (dump.json()) {
    JsonLine line(dump.out(), JsonType::kRecord);
    line.envelope(record_format::kFlume, dump.path()).str("kind", "checkpoint_element").unsigned_num("index", index);
    line.unsigned_num("slot", element.slot).num("file_id", element.pointer.file_id);
    line.num("offset", element.pointer.offset).finish();
    return;
  }
  fmt::format_to(std::back_inserter(*dump.out()), "  [{}] slot {} -> {}\n", index, element.slot,
                 pointer_text(element.pointer));
}

// The header line, then the queue from its head, as far as the limit allows.
void dump_checkpoint(Dump* dump, ByteSpan bytes) {
  const auto checkpoint = CheckpointFile::decode(bytes, dump->path(), dump->reporter());
  if (!checkpoint || dump->full()) return;
  QueueState state;
  if (checkpoint->version() == 2) state = v2_queue_state(*checkpoint, dump->path());
  if (checkpoint->version() == 3) state = v3_queue_state(*dump, *checkpoint);
  append_checkpoint_header(*dump, *checkpoint, state);
  dump->line_done();
  if (!state.ring_position) return;
  const auto ring = CheckpointRing::make(*checkpoint, *state.ring_position, dump->reporter());
  if (!ring) return;
  check_ring_elements(*ring, dump->path(), dump->reporter());
  for (std::size_t i = 0; i < ring->size() && !dump->full(); ++i) {
    if (!dump->options().records_unprinted) append_checkpoint_element(*dump, i, ring->at(i));
    dump->line_done();
  }
}

void dump_snappy_checkpoint(Dump* dump, ByteSpan bytes) {
  const SnappyStreamDecode decoded =
      decompress_snappy_stream(bytes, kMaxCheckpointBytes, dump->path(), dump->reporter());
  // Offsets in the checkpoint's findings are in the decompressed bytes.
  if (!decoded.data.empty()) dump_checkpoint(dump, ByteSpan(decoded.data));
}

// ---------------------------------------------------------------- checkpoint.meta

void dump_checkpoint_meta(Dump* dump, ByteSpan bytes) {
  const CheckpointMetaDecode decoded = decode_checkpoint_meta(bytes, dump->path(), dump->reporter());
  if (!decoded.valid || dump->full()) return;
  const CheckpointMeta& meta = decoded.meta;
  if (dump->json()) {
    JsonLine line(dump->out(), JsonType::kRecord);
    line.envelope(record_format::kFlume, dump->path()).str("kind", "checkpoint_meta").num("version", meta.version);
    line.num("write_order_id", meta.write_order_id).num("queue_size", meta.queue_size);
    line.num("queue_head", meta.queue_head).key("active_logs");
    write_active_logs_json(&line, meta.active_logs);
    line.finish();
  } else {
    fmt::format_to(std::back_inserter(*dump->out()), "checkpoint_meta v{} woid={} size={} head={} active_logs={}\n",
                   meta.version, meta.write_order_id, meta.queue_size, meta.queue_head,
                   active_logs_text(meta.active_logs));
  }
  dump->line_done();
}

// ---------------------------------------------------------------- inflight files

const char* inflight_kind(std::string_view path) {
  const std::string name = base_name(path);
  if (name.find("inflightputs") != std::string_view::npos) return "inflight_puts";
  if (name.find("inflighttakes") != std::string_view::npos) return "inflight_takes";
  return "inflight";
}

void append_inflight(const Dump& dump, const char* kind, const InflightTransaction& transaction) {
  if (dump.json()) {
    JsonLine line(dump.out(), JsonType::kRecord);
    line.envelope(record_format::kFlume, dump.path()).str("kind", kind).unsigned_num("offset", transaction.offset);
    line.num("transaction_id", transaction.transaction_id).begin_array("pointers");
    for (const EventPointer& pointer : transaction.pointers) write_pointer_json(&line, pointer);
    line.end_array().finish();
    return;
  }
  auto it = std::back_inserter(*dump.out());
  fmt::format_to(it, "{:>10}  {} txid={} ->", transaction.offset, kind, transaction.transaction_id);
  for (std::size_t i = 0; i < transaction.pointers.size(); ++i)
    fmt::format_to(it, "{} {}", i > 0 ? "," : "", pointer_text(transaction.pointers[i]));
  dump.out()->push_back('\n');
}

void dump_inflight(Dump* dump, ByteSpan bytes) {
  const InflightFile file = decode_inflight(bytes, dump->path(), dump->reporter());
  const char* kind = inflight_kind(dump->path());
  for (const InflightTransaction& transaction : file.transactions) {
    if (dump->full()) return;
    append_inflight(*dump, kind, transaction);
    dump->line_done();
  }
}

// ---------------------------------------------------------------- log-N.meta

// The N of a log-N name (the log's or, minus its suffix, its meta file's).
std::optional<std::int32_t> file_id_from_name(std::string_view path) {
  const std::string base = base_name(path);
  std::string_view name = base;
  for (std::string_view suffix : {".meta.tmp", ".meta.old", ".meta"}) {
    if (name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix) {
      name.remove_suffix(suffix.size());
      break;
    }
  }
  std::optional<std::int32_t> id;
  if (!is_log_name(name, &id)) return std::nullopt;
  return id;
}

// Flume files the log's puts under the meta's id; the name only tells where
// the file is, so a difference is worth an error.
void check_meta_file_id(const Dump& dump, const std::string& meta_path, const LogMetadata& metadata) {
  const auto named = file_id_from_name(meta_path);
  if (!named || *named == metadata.log_file_id) return;
  dump.report(Severity::kError, "log_file_id_mismatch", meta_path, std::nullopt,
              fmt::format("expected logFileID {} (from the name {}), found {}; Flume files this log's puts "
                          "under {}",
                          *named, base_name(meta_path), metadata.log_file_id, metadata.log_file_id));
}

// `bytes`: the meta file's, carried as raw bytes when Flume's encoding of
// the fields would differ (log_json.h).
void append_log_meta_json(const Dump& dump, const LogMetadata& m, ByteSpan bytes) {
  JsonLine line(dump.out(), JsonType::kRecord);
  line.envelope(record_format::kFlume, dump.path()).str("kind", "log_meta").num("version", m.version);
  line.num("log_file_id", m.log_file_id).num("checkpoint_position", m.checkpoint_position);
  line.num("checkpoint_write_order_id", m.checkpoint_write_order_id);
  null_or_num(&line, "backup_checkpoint_position", m.backup_checkpoint_position);
  null_or_num(&line, "backup_checkpoint_write_order_id", m.backup_checkpoint_write_order_id);
  if (!log_meta_is_canonical(bytes, m)) add_raw_bytes(&line, "raw", bytes, dump.options().mode);
  if (!m.encryption) {
    line.null("encryption").finish();
    return;
  }
  line.begin_object("encryption").str("cipher_provider", m.encryption->cipher_provider);
  line.str("key_alias", m.encryption->key_alias);
  if (m.encryption->parameters) {
    line.str("parameters_hex", hex_encode(ByteSpan(*m.encryption->parameters)));
  } else {
    line.null("parameters_hex");
  }
  line.end_object().finish();
}

std::string none_or_num(std::optional<std::int64_t> value) {
  return value ? std::to_string(*value) : std::string("none");
}

void append_log_meta_text(const Dump& dump, const LogMetadata& m) {
  auto it = std::back_inserter(*dump.out());
  fmt::format_to(it,
                 "log_meta v{} log_file_id={} checkpoint_position={} checkpoint_woid={} backup_position={} "
                 "backup_woid={} encryption=",
                 m.version, m.log_file_id, m.checkpoint_position, m.checkpoint_write_order_id,
                 none_or_num(m.backup_checkpoint_position), none_or_num(m.backup_checkpoint_write_order_id));
  if (!m.encryption) {
    dump.out()->append("none\n");
    return;
  }
  // Provider and alias are the operator's strings: quoted only when they
  // would break the line's key=value shape.
  const auto word = [](const std::string& s) {
    const bool plain = !s.empty() && is_valid_utf8(s) && s.find_first_of(" \t\r\n\"=") == std::string::npos;
    if (plain) return s;
    std::string quoted;
    append_json_string(&quoted, s);
    return quoted;
  };
  const auto& e = *m.encryption;
  fmt::format_to(it, "{} key_alias={} iv={}\n", word(e.cipher_provider), word(e.key_alias),
                 e.parameters ? hex_encode(ByteSpan(*e.parameters)) : std::string("none"));
}

void dump_log_meta(Dump* dump, ByteSpan bytes) {
  const LogMetadataDecode decoded = decode_log_metadata(bytes, dump->path(), dump->reporter());
  if (!decoded.valid) return;
  check_meta_file_id(*dump, dump->path(), decoded.metadata);
  if (dump->full()) return;
  if (dump->json()) {
    append_log_meta_json(*dump, decoded.metadata, bytes);
  } else {
    append_log_meta_text(*dump, decoded.metadata);
  }
  dump->line_done();
}

// ---------------------------------------------------------------- data log records

bool carries_transaction(LogRecordType type) {
  return type == LogRecordType::kPut || type == LogRecordType::kTake || type == LogRecordType::kRollback ||
         type == LogRecordType::kCommit;
}

// The type of a commit as the text shows it (put, take), or nullptr for a
// number Flume does not write.
const char* commit_type_name(std::int16_t type) {
  if (type == 1) return log_record_type_name(LogRecordType::kPut);
  if (type == 2) return log_record_type_name(LogRecordType::kTake);
  return nullptr;
}

// The same in JSON, upper case as every "op" (PUT, TAKE).
const char* commit_type_json_name(std::int16_t type) {
  if (type == 1) return log_record_op_name(LogRecordType::kPut);
  if (type == 2) return log_record_op_name(LogRecordType::kTake);
  return nullptr;
}

// `file` and `cipher`: the log's bytes and its cipher, for the fields that
// make a V3 line give back its bytes (log_json.h).
void append_record_json(const Dump& dump, const LogRecord& record, int version, ByteSpan file, AesCtr* cipher) {
  JsonLine line(dump.out(), JsonType::kRecord);
  line.envelope(record_format::kFlume, dump.path()).str("kind", "log_record").unsigned_num("offset", record.offset);
  line.str("op", log_record_op_name(record.type)).num("version", version);
  if (carries_transaction(record.type))
    line.num("transaction_id", record.transaction_id).num("write_order_id", record.write_order_id);
  switch (record.type) {
    case LogRecordType::kPut:
      write_headers_json(&line.key("headers"), record);
      write_event_time_json(&line, record);
      line.unsigned_num("size", record.body.size());
      add_payload(&line, record.body, dump.options().mode);
      if (record.stored_crc) {
        line.unsigned_num("crc", *record.stored_crc);
      } else {
        line.null("crc");
      }
      line.boolean("crc_ok", record.crc_ok);
      break;
    case LogRecordType::kTake:
      write_pointer_json(&line.key("taken"), record.taken);
      break;
    case LogRecordType::kCommit:
      if (const char* name = commit_type_json_name(record.commit_type)) {
        line.str("commit_type", name);
      } else {
        line.num("commit_type", record.commit_type);
      }
      break;
    case LogRecordType::kNoop:
      line.unsigned_num("size", record.size);
      break;
    case LogRecordType::kBroken:
      line.str("error", record.error);
      break;
    case LogRecordType::kRollback:
    case LogRecordType::kEndOfData:
      break;
  }
  if (version == 3) add_exact_fields(&line, record, file, cipher, dump.options().mode);
  line.finish();
}

const char* crc_text(const LogRecord& record) {
  if (!record.stored_crc) return "none";
  return record.crc_ok ? "ok" : "mismatch";
}

void append_record_text(const Dump& dump, const LogRecord& record) {
  auto it = std::back_inserter(*dump.out());
  fmt::format_to(it, "{:>10}  {}", record.offset, log_record_type_name(record.type));
  if (carries_transaction(record.type))
    fmt::format_to(it, " txid={} woid={}", record.transaction_id, record.write_order_id);
  switch (record.type) {
    case LogRecordType::kPut:
      fmt::format_to(it, " size={} crc={}", record.body.size(), crc_text(record));
      if (!record.headers.empty()) fmt::format_to(it, " headers={}", headers_text(record));
      break;
    case LogRecordType::kTake:
      fmt::format_to(it, " -> {}", pointer_text(record.taken));
      break;
    case LogRecordType::kCommit:
      if (const char* name = commit_type_name(record.commit_type)) {
        fmt::format_to(it, " type={}", name);
      } else {
        fmt::format_to(it, " type={}", record.commit_type);
      }
      break;
    case LogRecordType::kNoop:
      fmt::format_to(it, " size={}", record.size);
      break;
    case LogRecordType::kBroken:
      fmt::format_to(it, "  {}", record.error);
      break;
    case LogRecordType::kRollback:
    case LogRecordType::kEndOfData:
      break;
  }
  dump.out()->push_back('\n');
  if (record.type == LogRecordType::kPut) append_payload_text(dump.out(), record.body, dump.options().mode);
}

// What the reader met that a dump must also say as a finding.
void report_record(const Dump& dump, const LogRecord& record) {
  if (record.type == LogRecordType::kBroken) {
    dump.report(Severity::kError, "broken_record", dump.path(), record.offset, record.error);
  } else if (record.type == LogRecordType::kPut && !record.crc_ok && record.stored_crc) {
    dump.report(Severity::kError, "crc_mismatch", dump.path(), record.offset, crc_mismatch_message(record));
  }
  if (record.trailing_bytes > 0)
    dump.report(Severity::kError, "trailing_bytes", dump.path(), record.trailing_offset(),
                trailing_bytes_message(record));
}

// Flume stops at the first 0x80, so anything written after the fill is
// never replayed: worth saying, though not an error in the file itself.
void report_data_after_end(const Dump& dump, const LogReader& reader, const LogRecord& end) {
  const auto after = reader.data_after_end_fill();
  if (!after) return;
  dump.report(Severity::kWarning, "data_after_end", dump.path(), *after,
              fmt::format("expected only the 0x80 fill after the end of data at {}, found other bytes from {}: "
                          "Flume stops reading at the fill and never reads them",
                          end.offset, *after));
}

void dump_records(Dump* dump, ByteSpan bytes, int version, std::uint64_t start, AesCtr* cipher) {
  LogReader reader = dump->log_reader(bytes, version, start, cipher);
  LogRecord record;
  while (!dump->full() && reader.next(&record)) {
    report_record(*dump, record);
    if (dump->options().on_log_record) dump->options().on_log_record(record);
    if (dump->options().log_filter && !dump->options().log_filter(record)) continue;
    if (dump->json() && !dump->options().records_unprinted) append_record_json(*dump, record, version, bytes, cipher);
    if (!dump->json() && !dump->options().records_unprinted) append_record_text(*dump, record);
    dump->line_done();
    if (record.type == LogRecordType::kEndOfData) report_data_after_end(*dump, reader, record);
  }
}

// ---------------------------------------------------------------- data logs

// log-N.meta as Flume's reader picks it (.meta, else .meta.tmp, else
// .meta.old); nullopt when there is none or it does not decode.
std::optional<LogMetadata> read_log_meta(const Dump& dump, ByteSpan log) {
  const std::string& path = dump.path();
  const LogMetaChoice choice = choose_log_meta(exists(log_meta_file_name(path, LogMetaFile::kMeta)),
                                               exists(log_meta_file_name(path, LogMetaFile::kTmp)),
                                               exists(log_meta_file_name(path, LogMetaFile::kOld)));
  if (choice.read == LogMetaFile::kNone) {
    if (!log.empty()) {
      dump.report(Severity::kWarning, "missing_log_meta", path, std::nullopt,
                  fmt::format("expected {} beside the V3 log (its file id and encryption), found none: "
                              "dumped as an unencrypted log",
                              log_meta_file_name(base_name(path), LogMetaFile::kMeta)));
    }
    return std::nullopt;
  }
  const std::string meta_path = log_meta_file_name(path, choice.read);
  const auto input = open_beside(dump, meta_path);
  if (!input) return std::nullopt;
  // Flume ignores an empty meta beside an empty log; the decoder reports it
  // otherwise.
  if (input->bytes().empty() && log.empty()) return std::nullopt;
  const LogMetadataDecode decoded = decode_log_metadata(input->bytes(), meta_path, dump.reporter());
  if (!decoded.valid) return std::nullopt;
  check_meta_file_id(dump, meta_path, decoded.metadata);
  return decoded.metadata;
}

// The cipher for an encrypted log, from the operator's keys; nullptr, with
// a finding, when the key is missing or unusable.
std::unique_ptr<AesCtr> make_cipher(const Dump& dump, const LogFileEncryption& encryption) {
  static const KeyRing kNoKeys;
  const KeyRing& keys = dump.options().keys ? *dump.options().keys : kNoKeys;
  const auto key = keys.find(encryption.key_alias);
  if (key == keys.end()) {
    dump.report(Severity::kError, "missing_key", dump.path(), std::nullopt,
                fmt::format("the log is encrypted ({}) with key alias \"{}\": expected --key {}=HEX, found no "
                            "such key; none of its records can be read",
                            encryption.cipher_provider, encryption.key_alias, encryption.key_alias));
    return nullptr;
  }
  std::string error;
  const std::string iv = encryption.parameters.value_or("");
  auto cipher = AesCtr::create(ByteSpan(key->second), ByteSpan(iv), &error);
  if (!cipher) {
    dump.report(
        Severity::kError, "bad_key", dump.path(), std::nullopt,
        fmt::format("key alias \"{}\": {}; none of the log's records can be read", encryption.key_alias, error));
    return nullptr;
  }
  return std::make_unique<AesCtr>(std::move(*cipher));
}

void dump_v3_log(Dump* dump, ByteSpan bytes) {
  const std::optional<LogMetadata> meta = dump->path() == "-" ? std::nullopt : read_log_meta(*dump, bytes);
  std::unique_ptr<AesCtr> cipher;
  if (meta && meta->encryption) {
    cipher = make_cipher(*dump, *meta->encryption);
    if (!cipher) return;
  }
  dump_records(dump, bytes, 3, 0, cipher.get());
}

void dump_v2_log(Dump* dump, ByteSpan bytes) {
  const std::optional<std::int32_t> named = dump->path() == "-" ? std::nullopt : file_id_from_name(dump->path());
  if (!read_v2_log_header(bytes, dump->path(), named, dump->reporter())) return;
  dump_records(dump, bytes, 2, kV2LogHeaderSize, nullptr);
}

// ---------------------------------------------------------------- files with nothing to dump

void report_not_dumpable(const Dump& dump) {
  dump.report(Severity::kWarning, "not_dumpable", dump.path(), std::nullopt,
              "expected a file with records, found the empty backupComplete marker (it says the backup "
              "checkpoint beside it is usable): nothing to dump");
}

void report_unknown(const Dump& dump, ByteSpan bytes) {
  const DetectedKind detected = detect_file_kind(dump.path(), bytes);
  dump.report(Severity::kError, "unknown_file", dump.path(), std::nullopt,
              fmt::format("expected a Flume file channel file (checkpoint, checkpoint.meta, inflightputs, "
                          "inflighttakes, log-N, log-N.meta, checkpoint.snappy), found {}",
                          detected.reason.empty() ? std::string("none of them") : detected.reason));
}

std::uint64_t dump_any(Dump dump, ByteSpan bytes, FileKind kind) {
  switch (kind) {
    case FileKind::kCheckpoint:
      dump_checkpoint(&dump, bytes);
      break;
    case FileKind::kCheckpointMeta:
      dump_checkpoint_meta(&dump, bytes);
      break;
    case FileKind::kInflight:
      dump_inflight(&dump, bytes);
      break;
    case FileKind::kLogV2:
      dump_v2_log(&dump, bytes);
      break;
    case FileKind::kLogV3:
      dump_v3_log(&dump, bytes);
      break;
    case FileKind::kLogMeta:
      dump_log_meta(&dump, bytes);
      break;
    case FileKind::kSnappyCheckpoint:
      dump_snappy_checkpoint(&dump, bytes);
      break;
    case FileKind::kBackupComplete:
      report_not_dumpable(dump);
      break;
    case FileKind::kUnknown:
      report_unknown(dump, bytes);
      break;
  }
  return dump.lines();
}

}  // namespace

std::uint64_t dump_file(const std::string& path, ByteSpan bytes, FileKind kind, const FileDumpOptions& options,
                        std::string* out, const std::function<void()>& sink, Reporter* reporter) {
  return dump_any(Dump(path, options, out, sink, reporter, nullptr), bytes, kind);
}

std::uint64_t dump_file(const std::string& path, const InputFile& input, FileKind kind, const FileDumpOptions& options,
                        std::string* out, const std::function<void()>& sink, Reporter* reporter) {
  return dump_any(Dump(path, options, out, sink, reporter, &input), input.bytes(), kind);
}

std::string active_logs_text(const std::vector<ActiveLogCount>& logs) {
  if (logs.empty()) return "none";
  std::string text;
  for (std::size_t i = 0; i < logs.size(); ++i)
    fmt::format_to(std::back_inserter(text), "{}{}:{}", i > 0 ? "," : "", logs[i].file_id, logs[i].count);
  return text;
}

void write_active_logs_json(JsonWriter* out, const std::vector<ActiveLogCount>& logs) {
  out->begin_array();
  for (const ActiveLogCount& log : logs)
    out->begin_object().num("file_id", log.file_id).num("count", log.count).end_object();
  out->end_array();
}

}  // namespace qjt::flume
