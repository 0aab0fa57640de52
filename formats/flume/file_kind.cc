#include "flume/file_kind.h"

#include <openssl/evp.h>

#include <array>
#include <cstring>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "flume/channel_layout.h"
#include "flume/protobuf_wire.h"
#include "path_name.h"

namespace qjt::flume {
namespace {

constexpr std::size_t kHeaderLongs = 1029;
constexpr std::uint8_t kSnappyMagic[8] = {0x82, 0x53, 0x4E, 0x41, 0x50, 0x50, 0x59, 0x00};
constexpr std::uint8_t kOpRecord = 0x7F, kOpEof = 0x80, kOpNoop = 0x00;

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

DetectedKind kind(FileKind k, bool content_ok, std::string reason) {
  return DetectedKind{k, content_ok, std::move(reason)};
}

// ---- content signatures ----

bool has_snappy_magic(ByteSpan bytes) {
  return bytes.size() >= sizeof kSnappyMagic && std::memcmp(bytes.data(), kSnappyMagic, sizeof kSnappyMagic) == 0;
}

// Whole 8-byte longs, at least one element slot, long[0] a version.
std::optional<std::string> checkpoint_mismatch(ByteSpan bytes) {
  if (bytes.size() % 8 != 0) return fmt::format("length {} is not a multiple of 8", bytes.size());
  if (bytes.size() <= kHeaderLongs * 8)
    return fmt::format("length {} leaves no element slot after the 1029-long header", bytes.size());
  std::int64_t version = 0;
  ByteReader(bytes).read_i64_be(&version);
  if (version != 2 && version != 3) return fmt::format("long[0] is {}, not version 2 or 3", version);
  return std::nullopt;
}

std::int32_t int32_at(ByteSpan bytes, std::size_t offset) {
  std::int32_t value = 0;
  ByteReader(bytes, offset).read_i32_be(&value);
  return value;
}

// int32 version 2, then the file id (`expected_id` when the name gives one).
bool has_v2_header(ByteSpan bytes, std::optional<std::int32_t> expected_id) {
  if (bytes.size() < 8 || int32_at(bytes, 0) != 2) return false;
  const std::int32_t id = int32_at(bytes, 4);
  return expected_id ? id == *expected_id : id > 0;
}

// Without a name to go by, a V2 header also needs its first record (or the
// end of data) right after the 24 header bytes.
bool has_unnamed_v2_signature(ByteSpan bytes) {
  if (!has_v2_header(bytes, std::nullopt) || bytes.size() < 24) return false;
  return bytes.size() == 24 || bytes[24] == kOpRecord || bytes[24] == kOpEof;
}

bool has_log_name(std::string_view name) {
  std::optional<std::int32_t> ignored;
  return is_log_name(name, &ignored);
}

// Flume's writer always ends an inflight file with 16 zero bytes (spec §3);
// checking them first keeps an MD5 of a large non-inflight file rare.
bool has_inflight_shape(ByteSpan bytes) {
  if (bytes.size() < 32 || bytes.size() % 8 != 0) return false;
  for (std::size_t i = bytes.size() - 16; i < bytes.size(); ++i)
    if (bytes[i] != 0) return false;
  return true;
}

bool md5_matches(ByteSpan bytes) {
  if (bytes.size() < 32) return false;
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(bytes.data() + 16, bytes.size() - 16, digest, &length, EVP_md5(), nullptr) != 1 || length != 16)
    return false;
  return std::memcmp(digest, bytes.data(), 16) == 0;
}

enum class MetaShape { kNone, kCheckpoint, kLog };

// A delimited message whose fields all parse; field 2 tells the two kinds
// apart: Checkpoint.writeOrderID is sfixed64, LogFileMetaData.logFileID
// sfixed32.
MetaShape meta_shape(ByteSpan bytes, std::string* error) {
  ByteSpan message;
  std::size_t consumed = 0;
  if (!read_delimited(bytes, &message, &consumed, error)) return MetaShape::kNone;
  WireReader reader(message);
  WireField field;
  MetaShape shape = MetaShape::kNone;
  while (reader.next(&field)) {
    if (field.number == 2 && field.type == WireType::kFixed64) shape = MetaShape::kCheckpoint;
    if (field.number == 2 && field.type == WireType::kFixed32) shape = MetaShape::kLog;
  }
  if (!reader.error().empty()) {
    *error = reader.error();
    return MetaShape::kNone;
  }
  if (shape == MetaShape::kNone) *error = "no field 2 (writeOrderID or logFileID)";
  return shape;
}

// ---- by name ----

std::optional<DetectedKind> by_meta_name(std::string_view name, ByteSpan bytes) {
  const bool log_meta_name = starts_with(name, "log-");
  if (!ends_with(name, ".meta") && !ends_with(name, ".meta.tmp") && !ends_with(name, ".meta.old")) return std::nullopt;
  const FileKind named = log_meta_name ? FileKind::kLogMeta : FileKind::kCheckpointMeta;
  std::string error;
  switch (meta_shape(bytes, &error)) {
    case MetaShape::kCheckpoint:
      return kind(FileKind::kCheckpointMeta, true, "a .meta name and a delimited Checkpoint message");
    case MetaShape::kLog:
      return kind(FileKind::kLogMeta, true, "a .meta name and a delimited LogFileMetaData message");
    case MetaShape::kNone:
      break;
  }
  return kind(named, false, fmt::format("a .meta name, but the content does not decode: {}", error));
}

std::optional<DetectedKind> by_log_name(std::string_view name, ByteSpan bytes) {
  std::optional<std::int32_t> id;
  if (!is_log_name(name, &id)) return std::nullopt;
  if (has_v2_header(bytes, id))
    return kind(FileKind::kLogV2, true, "a log-N name and a V2 header (version 2, matching file id)");
  if (id && has_v2_header(bytes, std::nullopt))
    return kind(FileKind::kLogV2, false,
                fmt::format("a log-N name and a V2 header, but its file id is {}, not {}", int32_at(bytes, 4), *id));
  if (bytes.empty()) return kind(FileKind::kLogV3, true, "a log-N name and no bytes (an empty V3 log)");
  const std::uint8_t first = bytes[0];
  if (first == kOpRecord || first == kOpEof || first == kOpNoop)
    return kind(FileKind::kLogV3, true, fmt::format("a log-N name and a V3 OP byte 0x{:02X} first", first));
  return kind(FileKind::kLogV3, false,
              fmt::format("a log-N name, but neither a V2 header nor a V3 OP byte: first byte 0x{:02X}", first));
}

std::optional<DetectedKind> by_name(std::string_view name, ByteSpan bytes) {
  if (name == "backupComplete")
    return kind(FileKind::kBackupComplete, bytes.empty(),
                bytes.empty() ? "the backup marker name, empty"
                              : fmt::format("the backup marker name, but {} bytes long", bytes.size()));
  if (name == "checkpoint.snappy")
    return kind(FileKind::kSnappyCheckpoint, false, "the compressed backup name, but no snappy-java magic");
  if (name == "checkpoint" || starts_with(name, "checkpoint-backup-")) {
    const auto mismatch = checkpoint_mismatch(bytes);
    return kind(FileKind::kCheckpoint, false, "a checkpoint name, but " + mismatch.value_or(""));
  }
  if (auto meta = by_meta_name(name, bytes)) return meta;
  if (name == "inflightputs" || name == "inflighttakes") {
    if (bytes.empty()) return kind(FileKind::kInflight, true, "an inflight name, empty (no entries)");
    const bool ok = md5_matches(bytes);
    return kind(FileKind::kInflight, ok,
                ok ? "an inflight name and a matching MD5"
                   : "an inflight name, but the MD5 of bytes 16.. does not match bytes 0..15");
  }
  return by_log_name(name, bytes);
}

constexpr std::array<std::pair<FileKind, const char*>, 9> kFileKindNames = {{
    {FileKind::kCheckpoint, "checkpoint"},
    {FileKind::kCheckpointMeta, "checkpoint_meta"},
    {FileKind::kInflight, "inflight"},
    {FileKind::kLogV2, "log_v2"},
    {FileKind::kLogV3, "log_v3"},
    {FileKind::kLogMeta, "log_meta"},
    {FileKind::kSnappyCheckpoint, "snappy_checkpoint"},
    {FileKind::kBackupComplete, "backup_complete"},
    {FileKind::kUnknown, "unknown"},
}};

}  // namespace

const char* file_kind_name(FileKind kind) {
  for (const auto& [value, text] : kFileKindNames)
    if (value == kind) return text;
  return "unknown";
}

DetectedKind detect_file_kind(std::string_view path, ByteSpan bytes) {
  const std::string name = base_name(path);
  // Content that only one kind has wins over a name, so a renamed copy
  // ("checkpoint.orig") is still found.
  if (has_snappy_magic(bytes))
    return kind(FileKind::kSnappyCheckpoint, true, "snappy-java stream magic 82 53 4E 41 50 50 59 00");
  if (!checkpoint_mismatch(bytes) && !has_log_name(name) && name != "backupComplete")
    return kind(
        FileKind::kCheckpoint, true,
        fmt::format("whole longs, version {}, {} element slots", int32_at(bytes, 4), bytes.size() / 8 - kHeaderLongs));
  if (auto named = by_name(name, bytes)) return *named;
  if (has_inflight_shape(bytes) && md5_matches(bytes))
    return kind(FileKind::kInflight, true, "bytes 0..15 are the MD5 of the rest (an inflight file)");
  if (has_unnamed_v2_signature(bytes))
    return kind(FileKind::kLogV2, true, "a V2 log header (version 2, a file id) and a record at offset 24");
  return kind(FileKind::kUnknown, false, "no Flume file name and no Flume file signature");
}

bool looks_like_flume(std::string_view path, ByteSpan bytes) {
  const DetectedKind detected = detect_file_kind(path, bytes);
  return detected.kind != FileKind::kUnknown;
}

}  // namespace qjt::flume
