// LogMetadata: the `log-N.meta` file beside each V3 data log (spec §5.4),
// one protobuf `LogFileMetaData` message framed by writeDelimitedTo, and
// choose_log_meta: which of `log-N.meta`, `.meta.tmp` and `.meta.old` a
// Flume reader ends up using after an interrupted rewrite.
//
// Contract: as for checkpoint.meta, the decoder accepts any field order,
// skips unknown fields, keeps the last value of a repeated scalar, and
// reports what protobuf-java or Flume would refuse as findings with offsets
// relative to the start of the file; the encoder writes field-number order,
// the bytes Flume writes. Whether logFileID matches the N in the file name
// is left to the caller, which knows the name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "byte_span.h"
#include "finding.h"

namespace qjt::flume {

inline constexpr std::int32_t kLogMetadataVersion = 3;

struct LogFileEncryption {
  std::string cipher_provider;
  std::string key_alias;
  std::optional<std::string> parameters;  // the AES-CTR IV for Flume's provider
  friend bool operator==(const LogFileEncryption&, const LogFileEncryption&) = default;
};

struct LogMetadata {
  std::int32_t version = kLogMetadataVersion;
  std::int32_t log_file_id = 0;
  std::int64_t checkpoint_position = 0;
  std::int64_t checkpoint_write_order_id = 0;
  std::optional<LogFileEncryption> encryption;
  // Optional in the .proto; Flume sets both (to 0) when it creates a file.
  std::optional<std::int64_t> backup_checkpoint_position = 0;
  std::optional<std::int64_t> backup_checkpoint_write_order_id = 0;
  friend bool operator==(const LogMetadata&, const LogMetadata&) = default;
};

struct LogMetadataDecode {
  LogMetadata metadata;
  // protobuf-java would parse it: framing sound, every required field
  // present with its wire type. Fields decoded before a problem are kept.
  bool valid = false;
};

// Findings: meta_empty, meta_malformed, meta_missing_field, meta_version,
// and the warning meta_trailing_bytes (Flume ignores what follows). An
// empty log-N.meta is an error to Flume only when log-N is not empty; a
// caller that knows log-N is empty need not decode it.
LogMetadataDecode decode_log_metadata(ByteSpan bytes, std::string_view file, Reporter* reporter);

// The file's bytes (47 for an unencrypted meta with both backup fields).
std::string encode_log_metadata(const LogMetadata& metadata);

enum class LogMetaFile { kNone, kMeta, kTmp, kOld };

// ".meta", ".meta.tmp", ".meta.old" appended to the log's name; "" for kNone.
std::string log_meta_file_name(std::string_view log_name, LogMetaFile which);

struct LogMetaChoice {
  LogMetaFile read = LogMetaFile::kNone;  // kNone: no meta, Flume reads log-N as V2
  bool renamed_to_meta = false;           // Flume renames `read` to .meta first
  bool tmp_is_leftover = false;           // Flume deletes these once a meta is found
  bool old_is_leftover = false;
};

// Flume's LogFileFactory.getSequentialReader: .meta if it exists, else
// .meta.tmp, else .meta.old, renamed to .meta; then the other two are
// deleted. Pure logic over which names exist.
LogMetaChoice choose_log_meta(bool meta_exists, bool tmp_exists, bool old_exists);

}  // namespace qjt::flume
