#include "flume/checkpoint_meta.h"

#include <fmt/format.h>

#include <utility>

#include "flume/meta_message.h"

namespace qjt::flume {

namespace {

std::optional<ActiveLogCount> decode_active_log(ByteSpan message, const MetaContext& context) {
  ActiveLogCount count;
  bool have_file_id = false;
  bool have_count = false;
  bool types_ok = true;
  WireReader reader(message);
  WireField field;
  while (reader.next(&field)) {
    if (field.number == 1) {
      types_ok &= has_type(field, WireType::kFixed32, "logFileID", context);
      if (field.type != WireType::kFixed32) continue;
      count.file_id = as_sfixed32(field);
      have_file_id = true;
    } else if (field.number == 2) {
      types_ok &= has_type(field, WireType::kFixed32, "count", context);
      if (field.type != WireType::kFixed32) continue;
      count.count = as_sfixed32(field);
      have_count = true;
    }
  }
  if (walk_failed(reader, context)) return std::nullopt;
  if (!have_file_id) report_missing(context, context.base, "ActiveLog", "1 (logFileID)");
  if (!have_count) report_missing(context, context.base, "ActiveLog", "2 (count)");
  if (!types_ok || !have_file_id || !have_count) return std::nullopt;
  return count;
}

// Applies one Checkpoint field; false when it makes the message unparsable.
bool apply_field(ByteSpan message, const WireField& field, const MetaContext& context, CheckpointMetaDecode* out) {
  const std::uint64_t at = context.base + field.offset;
  switch (field.number) {
    case 1:
      if (!has_type(field, WireType::kFixed32, "version", context)) return false;
      out->meta.version = as_sfixed32(field);
      out->version_offset = at;
      return true;
    case 2:
      if (!has_type(field, WireType::kFixed64, "writeOrderID", context)) return false;
      out->meta.write_order_id = as_sfixed64(field);
      out->write_order_id_offset = at;
      return true;
    case 3:
      if (!has_type(field, WireType::kFixed32, "queueSize", context)) return false;
      out->meta.queue_size = as_sfixed32(field);
      out->queue_size_offset = at;
      return true;
    case 4:
      if (!has_type(field, WireType::kFixed32, "queueHead", context)) return false;
      out->meta.queue_head = as_sfixed32(field);
      out->queue_head_offset = at;
      return true;
    case 5: {
      if (!has_type(field, WireType::kLengthDelimited, "activeLogs", context)) return false;
      const std::optional<ActiveLogCount> count = decode_active_log(field.bytes, context.nested(message, field));
      if (count) out->meta.active_logs.push_back(*count);
      return count.has_value();
    }
    default:
      return true;  // unknown fields are kept aside by protobuf-java, not refused
  }
}

bool decode_fields(ByteSpan message, const MetaContext& context, CheckpointMetaDecode* out) {
  bool ok = true;
  WireReader reader(message);
  WireField field;
  while (reader.next(&field)) ok &= apply_field(message, field, context, out);
  if (walk_failed(reader, context)) return false;
  const std::pair<bool, const char*> required[] = {{out->version_offset.has_value(), "1 (version)"},
                                                   {out->write_order_id_offset.has_value(), "2 (writeOrderID)"},
                                                   {out->queue_size_offset.has_value(), "3 (queueSize)"},
                                                   {out->queue_head_offset.has_value(), "4 (queueHead)"}};
  for (const auto& [present, name] : required) {
    if (present) continue;
    report_missing(context, context.base, "Checkpoint", name);
    ok = false;
  }
  return ok;
}

}  // namespace

CheckpointMetaDecode decode_checkpoint_meta(ByteSpan bytes, std::string_view file, Reporter* reporter) {
  CheckpointMetaDecode out;
  ByteSpan message;
  const auto context = open_meta_message(bytes, file, reporter, "Checkpoint", &message);
  if (!context) return out;
  out.valid = decode_fields(message, *context, &out);
  if (out.version_offset && out.meta.version != kCheckpointMetaVersion)
    context->report("meta_version", *out.version_offset,
                    fmt::format("expected version {}, found {}", kCheckpointMetaVersion, out.meta.version));
  return out;
}

std::string encode_checkpoint_meta(const CheckpointMeta& meta) {
  std::string message;
  WireWriter writer(&message);
  writer.fixed32(1, static_cast<std::uint32_t>(meta.version));
  writer.fixed64(2, static_cast<std::uint64_t>(meta.write_order_id));
  writer.fixed32(3, static_cast<std::uint32_t>(meta.queue_size));
  writer.fixed32(4, static_cast<std::uint32_t>(meta.queue_head));
  for (const ActiveLogCount& count : meta.active_logs) {
    std::string active_log;
    WireWriter nested(&active_log);
    nested.fixed32(1, static_cast<std::uint32_t>(count.file_id));
    nested.fixed32(2, static_cast<std::uint32_t>(count.count));
    writer.bytes(5, active_log);
  }
  return delimited(message);
}

RingPosition meta_ring_position(const CheckpointMetaDecode& decoded, std::string_view file) {
  return RingPosition{decoded.meta.queue_head, decoded.meta.queue_size, std::string(file), decoded.queue_head_offset,
                      decoded.queue_size_offset};
}

void check_meta_matches_checkpoint(const CheckpointMetaDecode& decoded, std::string_view meta_file,
                                   const CheckpointFile& checkpoint, Reporter* reporter) {
  if (reporter == nullptr || !decoded.write_order_id_offset) return;
  if (decoded.meta.write_order_id == checkpoint.write_order_id()) return;
  reporter->report(Finding{Severity::kError, "checkpoint_meta_write_order_id", std::string(meta_file),
                           decoded.write_order_id_offset,
                           fmt::format("expected writeOrderID {} (the checkpoint's long[1]), found {}",
                                       checkpoint.write_order_id(), decoded.meta.write_order_id)});
}

}  // namespace qjt::flume
