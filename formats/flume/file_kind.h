// FileKind: what a single Flume file channel file is, told from its name
// and its bytes, for commands given one file rather than a channel's
// directories.
//
// Contract: detection reads at most the whole span once (MD5 for inflight
// files), never allocates from the content, and never fails: anything it
// cannot place is kUnknown with a reason. A file carrying one of Flume's
// names is given that name's kind even when its content disagrees (a broken
// checkpoint is still a checkpoint to verify); content_ok then is false
// and the reason says what did not match.
#pragma once

#include <string>
#include <string_view>

#include "byte_span.h"

namespace qjt::flume {

enum class FileKind {
  kCheckpoint,        // checkpoint, checkpoint-backup-<ms> (spec §1)
  kCheckpointMeta,    // checkpoint.meta (§2)
  kInflight,          // inflightputs, inflighttakes (§3)
  kLogV2,             // log-N with the 24-byte V2 header (§5.2)
  kLogV3,             // log-N without a header (§5.3)
  kLogMeta,           // log-N.meta, .meta.tmp, .meta.old (§5.4)
  kSnappyCheckpoint,  // checkpoint.snappy in a backup dir (§4)
  kBackupComplete,    // the empty backupComplete marker (§4)
  kUnknown,
};

// "checkpoint", "checkpoint_meta", "inflight", "log_v2", "log_v3",
// "log_meta", "snappy_checkpoint", "backup_complete", "unknown"
const char* file_kind_name(FileKind kind);

struct DetectedKind {
  FileKind kind = FileKind::kUnknown;
  bool content_ok = false;  // the bytes match the kind (false for kUnknown)
  std::string reason;       // one short sentence, for messages
};

// `path` is used for its last component only.
DetectedKind detect_file_kind(std::string_view path, ByteSpan bytes);

// For a caller that must choose between the Kestrel and the Flume decoders
// for a file: true for Flume's file names and for content only Flume
// writes (checkpoint, snappy and V2 log signatures, an inflight file's
// MD5). Kestrel journals start with an opcode byte 0x00-0x09 or the
// 27 64 26 03 header; none of these signatures can be mistaken for them.
bool looks_like_flume(std::string_view path, ByteSpan bytes);

}  // namespace qjt::flume
