// The command-line side of Flume inputs, shared by the Flume driver's
// commands: the channel options (the same three settings a Flume
// configuration has: --checkpoint-dir, --data-dir, --backup-dir), --key for
// encrypted logs, --capacity, and the file kinds --format may force.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "finding.h"
#include "flume/channel_layout.h"
#include "flume/channel_logs.h"
#include "flume/file_kind.h"
#include "guarded_replace.h"
#include "input_file.h"
#include "requests.h"

namespace qjt::cli {

struct FlumeOptions {
  std::string checkpoint_dir;
  std::vector<std::string> data_dirs;
  std::string backup_dir;
  std::vector<std::string> keys;  // ALIAS=HEX
  std::optional<std::int64_t> capacity;
  std::string format = "auto";
};

// Adds --checkpoint-dir, --data-dir, --backup-dir, --key and, when
// `with_capacity`, --capacity.
void add_channel_options(CLI::App* command, FlumeOptions* options, bool with_capacity);

bool names_channel(const FlumeOptions& options);

// The options a channel root stands for (flume/channel_root.h), as
// --checkpoint-dir, --data-dir (comma-separated) and --backup-dir.
Settings channel_root_settings(const flume::ChannelDirs& dirs);
// Takes each directory of a discovered channel root that `options` does
// not name: the options given win.
void adopt_discovered(const Settings& discovered, FlumeOptions* options);

// The --format names of Flume's file kinds (flume-checkpoint, ...).
std::vector<std::string_view> flume_format_names();
flume::ChannelDirs channel_dirs(const FlumeOptions& options);
// The same as one list: the checkpoint, data and backup directories named.
std::vector<std::string> named_dirs(const FlumeOptions& options);

// The guard of guarded_replace for a channel: qjt's lock on each of the
// layout's directories that exist (checkpoint, data, backup), and refusal
// while a Flume agent holds an in_use.lock or a process has one of `files`
// open.
ReplaceRequest channel_request(const flume::ChannelLayout& layout, std::vector<std::string> files);

// What the verify after a change to the channel needs and the options
// lack, as one sentence saying what to add: the logs the channel's queue
// points into that are in none of the --data-dir given (with the directory
// beside the checkpoint's that holds one, when there is one), and the keys
// of encrypted logs not given. "" when nothing is missing. A writer calls it
// before its first change and refuses (kUsage) when it says something.
std::string missing_for_verify(const FlumeOptions& options, const flume::ChannelLayout& layout,
                               const flume::KeyRing& keys);

// --key ALIAS=HEX values; a malformed one is a usage error.
std::optional<flume::KeyRing> parse_keys(const std::vector<std::string>& keys, std::string* error);

struct FlumeFile {
  std::string path;
  std::unique_ptr<InputFile> input;  // null when it could not be opened
  flume::FileKind kind = flume::FileKind::kUnknown;
};

// The files of a channel, in the order dump shows them: checkpoint files,
// then each log's meta and the log, then the backup's files. Layout
// findings go to `reporter`.
std::vector<FlumeFile> channel_files(const flume::ChannelLayout& layout);

// PATH arguments as Flume files: the kind from --format, else detected.
std::vector<FlumeFile> named_files(const std::vector<std::string>& paths, const std::string& format);

// Opens each file that is not open yet; failures are io_error findings.
// Returns false when something could not be opened.
bool open_files(std::vector<FlumeFile>* files, Reporter* reporter);

}  // namespace qjt::cli
