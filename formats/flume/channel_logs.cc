#include "flume/channel_logs.h"

#include <array>
#include <utility>

#include <fmt/format.h>

namespace qjt::flume {
namespace {

void report(Reporter* reporter, Severity severity, std::string code, const std::string& file,
            std::optional<std::uint64_t> offset, std::string message) {
  reporter->report(Finding{severity, std::move(code), file, offset, std::move(message)});
}

}  // namespace

const std::string* planned_content(const FileOverlay* overlay, const std::string& path) {
  if (overlay == nullptr) return nullptr;
  const auto it = overlay->find(path);
  return it == overlay->end() ? nullptr : it->second;
}

namespace {

constexpr std::array<std::pair<PointerTarget, const char*>, 8> kPointerTargetNames = {{
    {PointerTarget::kPut, "put"},
    {PointerTarget::kNoop, "noop"},
    {PointerTarget::kMissingLog, "missing_log"},
    {PointerTarget::kUnreadable, "unreadable_log"},
    {PointerTarget::kPastEnd, "past_end"},
    {PointerTarget::kNotARecord, "not_a_record"},
    {PointerTarget::kNotAPut, "not_a_put"},
    {PointerTarget::kBroken, "broken_record"},
}};

}  // namespace

const char* pointer_target_name(PointerTarget target) {
  for (const auto& [value, text] : kPointerTargetNames)
    if (value == target) return text;
  return "unknown";
}

std::uint64_t ChannelLog::replay_start(std::int64_t checkpoint_write_order_id) const {
  std::int64_t position = 0, woid = 0, backup_position = 0, backup_woid = 0;
  if (metadata_) {
    position = metadata_->checkpoint_position;
    woid = metadata_->checkpoint_write_order_id;
    backup_position = metadata_->backup_checkpoint_position.value_or(0);
    backup_woid = metadata_->backup_checkpoint_write_order_id.value_or(0);
  } else if (v2_header_) {
    position = v2_header_->checkpoint_position;
    woid = v2_header_->checkpoint_write_order_id;
  }
  // Without a mark the reader stays where it opened the file.
  if (position <= 0) return data_start();
  if (woid <= checkpoint_write_order_id) return static_cast<std::uint64_t>(position);
  if (backup_position > 0 && backup_woid <= checkpoint_write_order_id)
    return static_cast<std::uint64_t>(backup_position);
  return 0;  // Flume seeks to 0 even in a V2 file (spec §6.3)
}

ChannelLogs::ChannelLogs(const std::vector<DataLog>& logs, const KeyRing& keys, Reporter* reporter,
                         const FileOverlay* overlay) {
  logs_.reserve(logs.size());
  for (const DataLog& layout : logs) open(layout, keys, reporter, overlay);
}

void ChannelLogs::open(const DataLog& layout, const KeyRing& keys, Reporter* reporter, const FileOverlay* overlay) {
  ChannelLog log;
  log.layout_ = layout;
  log.file_id_ = layout.file_id;
  std::string error;
  log.input_ = InputFile::open(layout.path, &error);
  if (!log.input_) {
    report(reporter, Severity::kError, "io_error", layout.path, std::nullopt, error);
    by_id_.emplace(log.file_id_, logs_.size());
    logs_.push_back(std::move(log));
    return;
  }
  log.readable_ = true;
  if (layout.version == LogVersion::kV2) {
    log.version_ = 2;
    log.v2_header_ = read_v2_log_header(log.input_->bytes(), layout.path, layout.file_id, reporter);
    if (!log.v2_header_) log.readable_ = false;
  } else if (!layout.meta_path.empty()) {
    open_meta(&log, reporter, overlay);
  }
  if (log.readable_ && log.metadata_ && log.metadata_->encryption) set_up_cipher(&log, keys, reporter);
  by_id_.emplace(log.file_id_, logs_.size());
  logs_.push_back(std::move(log));
}

void ChannelLogs::open_meta(ChannelLog* log, Reporter* reporter, const FileOverlay* overlay) {
  const DataLog& layout = log->layout_;
  std::unique_ptr<InputFile> meta;
  ByteSpan bytes;
  if (const std::string* content = planned_content(overlay, layout.meta_path)) {
    bytes = ByteSpan(*content);
  } else {
    std::string error;
    meta = InputFile::open(layout.meta_path, &error);
    if (!meta) {
      report(reporter, Severity::kError, "io_error", layout.meta_path, std::nullopt, error);
      log->readable_ = false;
      return;
    }
    bytes = meta->bytes();
  }
  if (bytes.size() == 0) return;
  const LogMetadataDecode decoded = decode_log_metadata(bytes, layout.meta_path, reporter);
  if (!decoded.valid) {
    log->readable_ = false;
    return;
  }
  log->metadata_ = decoded.metadata;
  if (decoded.metadata.log_file_id != layout.file_id) {
    report(reporter, Severity::kError, "log_file_id_mismatch", layout.meta_path, std::nullopt,
           fmt::format("expected logFileID {} (from the name {}), found {}; Flume files "
                       "this log's puts under {}",
                       layout.file_id, layout.path, decoded.metadata.log_file_id, decoded.metadata.log_file_id));
    log->file_id_ = decoded.metadata.log_file_id;
  }
}

void ChannelLogs::set_up_cipher(ChannelLog* log, const KeyRing& keys, Reporter* reporter) {
  const LogFileEncryption& encryption = *log->metadata_->encryption;
  const std::string& path = log->layout_.path;
  const auto key = keys.find(encryption.key_alias);
  if (key == keys.end()) {
    report(reporter, Severity::kError, "missing_key", path, std::nullopt,
           fmt::format("the log is encrypted ({}) with key alias \"{}\": expected --key {}=HEX, "
                       "found no such key; none of its records can be read",
                       encryption.cipher_provider, encryption.key_alias, encryption.key_alias));
    log->readable_ = false;
    return;
  }
  std::string error;
  const std::string iv = encryption.parameters.value_or("");
  auto cipher = AesCtr::create(ByteSpan(key->second), ByteSpan(iv), &error);
  if (!cipher) {
    report(reporter, Severity::kError, "bad_key", path, std::nullopt,
           fmt::format("key alias \"{}\": {}", encryption.key_alias, error));
    log->readable_ = false;
    return;
  }
  log->cipher_ = std::make_unique<AesCtr>(std::move(*cipher));
}

const ChannelLog* ChannelLogs::find(std::int32_t file_id) const {
  const auto it = by_id_.find(file_id);
  return it == by_id_.end() ? nullptr : &logs_[it->second];
}

PointerTarget ChannelLogs::read_pointer(EventPointer pointer, LogRecord* record, std::string* why) const {
  const ChannelLog* log = find(pointer.file_id);
  if (log == nullptr) {
    *why = fmt::format("expected a data log log-{}, found none in the data directories", pointer.file_id);
    return PointerTarget::kMissingLog;
  }
  if (!log->readable()) {
    *why = fmt::format("log-{} ({}) cannot be read", pointer.file_id, log->layout().path);
    return PointerTarget::kUnreadable;
  }
  const auto offset = static_cast<std::uint64_t>(static_cast<std::uint32_t>(pointer.offset));
  const ByteSpan bytes = log->bytes();
  if (pointer.offset < 0 || offset < log->data_start() || offset >= bytes.size()) {
    *why = fmt::format("expected an offset within the data of {} ({} to {}), found {}", log->layout().path,
                       log->data_start(), bytes.size(), pointer.offset);
    return PointerTarget::kPastEnd;
  }
  if (!log->pointer_reader_) log->pointer_reader_ = std::make_unique<LogReader>(log->reader(log->data_start()));
  LogReader& reader = *log->pointer_reader_;
  const std::uint8_t op = reader.byte(offset);
  if (op == kOpNoop) {
    *why = "the record there was neutralised (OP byte 0x00): Flume's take skips it";
    return PointerTarget::kNoop;
  }
  if (op != kOpRecord) {
    *why = fmt::format("expected an OP_RECORD byte 0x7f at {}:{}, found 0x{:02x}", log->layout().path, offset, op);
    return PointerTarget::kNotARecord;
  }
  // For an encrypted log the record's views point into the reader's
  // decryption buffer: valid until this log's next pointer.
  reader.seek(offset);
  reader.next(record);
  if (record->type == LogRecordType::kBroken || !record->crc_ok) {
    *why = record->type == LogRecordType::kBroken ? record->error : "the put's CRC32 does not match its body";
    return PointerTarget::kBroken;
  }
  if (record->type != LogRecordType::kPut) {
    *why = fmt::format("expected a put at {}:{}, found a {}", log->layout().path, offset,
                       log_record_type_name(record->type));
    return PointerTarget::kNotAPut;
  }
  return PointerTarget::kPut;
}

bool ChannelLogs::preview_write(std::int32_t file_id, std::uint64_t offset, ByteSpan bytes) {
  const auto it = by_id_.find(file_id);
  if (it == by_id_.end()) return false;
  ChannelLog& log = logs_[it->second];
  if (!log.readable_ || !log.input_ || offset > log.input_->bytes().size() ||
      !log.input_->preview_write(static_cast<std::size_t>(offset), bytes))
    return false;
  log.pointer_reader_.reset();  // its window read the file before the preview
  if (log.version_ == 2 && offset < kV2LogHeaderSize) {
    FindingList already_reported;  // the header's findings were given when the log was opened
    log.v2_header_ = read_v2_log_header(log.input_->bytes(), log.layout_.path, std::nullopt, &already_reported);
  }
  return true;
}

}  // namespace qjt::flume
