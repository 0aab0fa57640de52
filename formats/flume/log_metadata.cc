#include "flume/log_metadata.h"

#include <fmt/format.h>

#include <utility>

#include "flume/meta_message.h"

namespace qjt::flume {

namespace {

std::string as_string(const WireField& field) { return std::string(field.bytes.as_chars()); }

std::optional<LogFileEncryption> decode_encryption(ByteSpan message, const MetaContext& context) {
  LogFileEncryption encryption;
  bool have_provider = false;
  bool have_alias = false;
  bool types_ok = true;
  WireReader reader(message);
  WireField field;
  while (reader.next(&field)) {
    if (field.number < 1 || field.number > 3) continue;
    static constexpr const char* kNames[] = {"", "cipherProvider", "keyAlias", "parameters"};
    if (!has_type(field, WireType::kLengthDelimited, kNames[field.number], context)) {
      types_ok = false;
      continue;
    }
    if (field.number == 1) {
      encryption.cipher_provider = as_string(field);
      have_provider = true;
    } else if (field.number == 2) {
      encryption.key_alias = as_string(field);
      have_alias = true;
    } else {
      encryption.parameters = as_string(field);
    }
  }
  if (walk_failed(reader, context)) return std::nullopt;
  if (!have_provider) report_missing(context, context.base, "LogFileEncryption", "1 (cipherProvider)");
  if (!have_alias) report_missing(context, context.base, "LogFileEncryption", "2 (keyAlias)");
  if (!types_ok || !have_provider || !have_alias) return std::nullopt;
  return encryption;
}

// Which required LogFileMetaData fields were seen.
struct Seen {
  bool version = false;
  bool log_file_id = false;
  bool checkpoint_position = false;
  bool checkpoint_write_order_id = false;
  std::optional<std::uint64_t> version_offset;
};

bool apply_fixed(const WireField& field, const MetaContext& context, LogMetadata* out, Seen* seen) {
  switch (field.number) {
    case 1:
      if (!has_type(field, WireType::kFixed32, "version", context)) return false;
      out->version = as_sfixed32(field);
      seen->version = true;
      seen->version_offset = context.base + field.offset;
      return true;
    case 2:
      if (!has_type(field, WireType::kFixed32, "logFileID", context)) return false;
      out->log_file_id = as_sfixed32(field);
      seen->log_file_id = true;
      return true;
    case 3:
      if (!has_type(field, WireType::kFixed64, "checkpointPosition", context)) return false;
      out->checkpoint_position = as_sfixed64(field);
      seen->checkpoint_position = true;
      return true;
    case 4:
      if (!has_type(field, WireType::kFixed64, "checkpointWriteOrderID", context)) return false;
      out->checkpoint_write_order_id = as_sfixed64(field);
      seen->checkpoint_write_order_id = true;
      return true;
    case 6:
      if (!has_type(field, WireType::kFixed64, "backupCheckpointPosition", context)) return false;
      out->backup_checkpoint_position = as_sfixed64(field);
      return true;
    case 7:
      if (!has_type(field, WireType::kFixed64, "backupCheckpointWriteOrderID", context)) return false;
      out->backup_checkpoint_write_order_id = as_sfixed64(field);
      return true;
    default:
      return true;  // unknown fields are kept aside by protobuf-java, not refused
  }
}

bool apply_field(ByteSpan message, const WireField& field, const MetaContext& context, LogMetadata* out, Seen* seen) {
  if (field.number != 5) return apply_fixed(field, context, out, seen);
  if (!has_type(field, WireType::kLengthDelimited, "encryption", context)) return false;
  out->encryption = decode_encryption(field.bytes, context.nested(message, field));
  return out->encryption.has_value();
}

bool decode_fields(ByteSpan message, const MetaContext& context, LogMetadata* out, Seen* seen) {
  bool ok = true;
  WireReader reader(message);
  WireField field;
  while (reader.next(&field)) ok &= apply_field(message, field, context, out, seen);
  if (walk_failed(reader, context)) return false;
  const std::pair<bool, const char*> required[] = {{seen->version, "1 (version)"},
                                                   {seen->log_file_id, "2 (logFileID)"},
                                                   {seen->checkpoint_position, "3 (checkpointPosition)"},
                                                   {seen->checkpoint_write_order_id, "4 (checkpointWriteOrderID)"}};
  for (const auto& [present, name] : required) {
    if (present) continue;
    report_missing(context, context.base, "LogFileMetaData", name);
    ok = false;
  }
  return ok;
}

}  // namespace

LogMetadataDecode decode_log_metadata(ByteSpan bytes, std::string_view file, Reporter* reporter) {
  LogMetadataDecode out;
  // Absent optional fields decode as absent, not as Flume's creation-time 0.
  out.metadata.backup_checkpoint_position.reset();
  out.metadata.backup_checkpoint_write_order_id.reset();
  ByteSpan message;
  const auto context = open_meta_message(bytes, file, reporter, "LogFileMetaData", &message);
  if (!context) return out;
  Seen seen;
  out.valid = decode_fields(message, *context, &out.metadata, &seen);
  if (seen.version_offset && out.metadata.version != kLogMetadataVersion)
    context->report("meta_version", *seen.version_offset,
                    fmt::format("expected version {}, found {}", kLogMetadataVersion, out.metadata.version));
  return out;
}

std::string encode_log_metadata(const LogMetadata& metadata) {
  std::string message;
  WireWriter writer(&message);
  writer.fixed32(1, static_cast<std::uint32_t>(metadata.version));
  writer.fixed32(2, static_cast<std::uint32_t>(metadata.log_file_id));
  writer.fixed64(3, static_cast<std::uint64_t>(metadata.checkpoint_position));
  writer.fixed64(4, static_cast<std::uint64_t>(metadata.checkpoint_write_order_id));
  if (metadata.encryption) {
    std::string encryption;
    WireWriter nested(&encryption);
    nested.bytes(1, metadata.encryption->cipher_provider);
    nested.bytes(2, metadata.encryption->key_alias);
    if (metadata.encryption->parameters) nested.bytes(3, *metadata.encryption->parameters);
    writer.bytes(5, encryption);
  }
  if (metadata.backup_checkpoint_position)
    writer.fixed64(6, static_cast<std::uint64_t>(*metadata.backup_checkpoint_position));
  if (metadata.backup_checkpoint_write_order_id)
    writer.fixed64(7, static_cast<std::uint64_t>(*metadata.backup_checkpoint_write_order_id));
  return delimited(message);
}

std::string log_meta_file_name(std::string_view log_name, LogMetaFile which) {
  switch (which) {
    case LogMetaFile::kNone:
      return "";
    case LogMetaFile::kMeta:
      return std::string(log_name) + ".meta";
    case LogMetaFile::kTmp:
      return std::string(log_name) + ".meta.tmp";
    case LogMetaFile::kOld:
      return std::string(log_name) + ".meta.old";
  }
  return "";
}

LogMetaChoice choose_log_meta(bool meta_exists, bool tmp_exists, bool old_exists) {
  LogMetaChoice choice;
  if (meta_exists) {
    choice.read = LogMetaFile::kMeta;
  } else if (tmp_exists) {
    choice.read = LogMetaFile::kTmp;
  } else if (old_exists) {
    choice.read = LogMetaFile::kOld;
  } else {
    return choice;
  }
  choice.renamed_to_meta = choice.read != LogMetaFile::kMeta;
  choice.tmp_is_leftover = tmp_exists && choice.read != LogMetaFile::kTmp;
  choice.old_is_leftover = old_exists && choice.read != LogMetaFile::kOld;
  return choice;
}

}  // namespace qjt::flume
