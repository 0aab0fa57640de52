// ChannelLayout: which files make up one Flume file channel, found by
// Flume's own naming rules (spec §0, §4, §5.4) in its checkpoint dir, its
// data dirs and its optional backup checkpoint dir. It reads names, sizes
// and at most the first 8 bytes of a file, and never changes anything:
// where Flume's startup would rename or delete a file, qjt reports what it
// would do and describes the layout as if it had.
//
// Findings (stable codes; the file is the path concerned):
//   missing_directory      error    a given directory is missing or not a directory
//   duplicate_directory    error    one directory given twice (or backup == checkpoint dir)
//   duplicate_log_id       error    log-N with one file id in two places
//   bad_log_id             error    ^log-\d+$ but N does not fit a Java int: Flume fails
//   bad_log_name           warning  log-... that Flume does not take for a data log
//   integrity_tool_backup  warning  log-N.bak left by FileChannelIntegrityTool
//   meta_leftover          warning  log-N.meta.tmp / .meta.old; says which file a reader uses
//   orphan_log_meta        warning  log-N.meta(.tmp|.old) with no log-N
//   missing_log_meta       error    non-empty log-N with no meta and no V2 header
//   empty_log_meta         error    empty log-N.meta beside a non-empty log-N
//   no_checkpoint          warning  no checkpoint: Flume starts a new one and replays every log
//   missing_checkpoint     error    checkpoint.meta without a (non-empty) checkpoint
//   missing_checkpoint_meta error   a checkpoint that is not V2 and has no checkpoint.meta
//   missing_inflight       warning  a checkpoint without inflightputs/inflighttakes
//   incomplete_backup      warning  backup dir without backupComplete: Flume will not use it
//   missing_backup_checkpoint error backupComplete but neither checkpoint nor checkpoint.snappy
//   ambiguous_backup_checkpoint warning both checkpoint and checkpoint.snappy in the backup
//   channel_in_use         warning  a process holds in_use.lock (a running Flume agent)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "finding.h"

namespace qjt::flume {

// The lock Flume takes in each of a channel's directories while it runs
// (a POSIX record lock, Java's tryLock); it holds no data.
inline constexpr std::string_view kLockFileName = "in_use.lock";

struct ChannelDirs {
  std::string checkpoint_dir;
  std::vector<std::string> data_dirs;  // in configuration order
  std::optional<std::string> backup_dir;
};

// Which file a V3 reader opens as log-N.meta (spec §5.4): the .meta itself,
// else it renames .meta.tmp, else .meta.old, to .meta first.
enum class MetaSource { kNone, kMeta, kTmp, kOld };
const char* meta_source_name(MetaSource source);  // "none", "meta", "tmp", "old"

enum class LogVersion { kV2, kV3, kUnknown };
const char* log_version_name(LogVersion version);  // "v2", "v3", "unknown"

struct DataLog {
  std::string path;
  std::string dir;  // the data dir, as given
  std::int32_t file_id = 0;
  std::uint64_t size = 0;
  LogVersion version = LogVersion::kUnknown;
  std::string meta_path;  // the file a reader would use as log-N.meta; empty when none
  MetaSource meta_source = MetaSource::kNone;
  std::vector<std::string> meta_leftovers;  // .tmp/.old files a reader deletes
};

struct CheckpointFiles {
  std::string dir;
  bool exists = false;
  std::optional<std::string> checkpoint;
  std::optional<std::string> checkpoint_meta;
  std::optional<std::string> inflight_puts;
  std::optional<std::string> inflight_takes;
  std::optional<std::string> queueset;
  std::optional<std::string> lock;           // in_use.lock
  std::vector<std::string> upgrade_backups;  // checkpoint-backup-<ms>, sorted by name
};

struct BackupFiles {
  std::string dir;
  bool exists = false;
  bool complete = false;  // backupComplete present: Flume may restore from it
  std::optional<std::string> checkpoint;
  std::optional<std::string> checkpoint_snappy;
  std::optional<std::string> checkpoint_meta;
  std::optional<std::string> inflight_puts;
  std::optional<std::string> inflight_takes;
  std::optional<std::string> lock;
};

struct ChannelLayout {
  CheckpointFiles checkpoint;
  std::vector<std::string> data_dirs;  // the existing, distinct ones, in the order given
  std::vector<DataLog> logs;           // sorted by file id (replay order)
  std::optional<BackupFiles> backup;
  std::vector<std::string> lock_files;  // every in_use.lock found
};

// Discovers the channel's files; every problem goes to `reporter`. Never
// fails as a whole: missing directories are findings and contribute
// nothing. Set check_locks false to skip asking which process holds each
// in_use.lock (it reads /proc).
ChannelLayout discover_channel(const ChannelDirs& dirs, Reporter* reporter, bool check_locks = true);

// Whether `name` is a whole data log name, ^log-\d+$ (ASCII digits only, as
// Java's \d). *file_id is set when N also fits a Java int.
bool is_log_name(std::string_view name, std::optional<std::int32_t>* file_id);

}  // namespace qjt::flume
