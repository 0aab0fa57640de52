#include "flume/cli/flume_input.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <set>
#include <utility>

#include "flume/channel_logs.h"
#include "flume/channel_replay.h"
#include "payload.h"

namespace qjt::cli {
namespace {

using flume::FileKind;

constexpr std::array<std::pair<const char*, FileKind>, 8> kFormats{{
    {"flume-checkpoint", FileKind::kCheckpoint},
    {"flume-checkpoint-meta", FileKind::kCheckpointMeta},
    {"flume-inflight", FileKind::kInflight},
    {"flume-log-v2", FileKind::kLogV2},
    {"flume-log-v3", FileKind::kLogV3},
    {"flume-log-meta", FileKind::kLogMeta},
    {"flume-snappy", FileKind::kSnappyCheckpoint},
    {"flume-backup-complete", FileKind::kBackupComplete},
}};

std::optional<FileKind> forced_kind(const std::string& format) {
  for (const auto& [name, kind] : kFormats)
    if (format == name) return kind;
  return std::nullopt;
}

void add(std::vector<FlumeFile>* files, const std::optional<std::string>& path, FileKind kind) {
  if (path) files->push_back(FlumeFile{*path, nullptr, kind});
}

}  // namespace

void add_channel_options(CLI::App* command, FlumeOptions* o, bool with_capacity) {
  command->add_option("--checkpoint-dir", o->checkpoint_dir, "A Flume file channel's checkpointDir");
  // One value per occurrence, so that a PATH after it is not taken for a dir.
  command->add_option("--data-dir", o->data_dirs, "A Flume file channel's dataDirs, in order (repeatable)")
      ->delimiter(',')
      ->allow_extra_args(false);
  command->add_option("--backup-dir", o->backup_dir, "A Flume file channel's backupCheckpointDir");
  command->add_option("--key", o->keys, "Key for encrypted Flume logs: ALIAS=HEX (repeatable)")
      ->allow_extra_args(false);
  if (with_capacity)
    command->add_option("--capacity", o->capacity, "The Flume channel's configured capacity")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{0x7FFFFFFF}));
}

std::vector<std::string_view> flume_format_names() {
  std::vector<std::string_view> names;
  for (const auto& entry : kFormats) names.push_back(entry.first);
  return names;
}

bool names_channel(const FlumeOptions& o) {
  return !o.checkpoint_dir.empty() || !o.data_dirs.empty() || !o.backup_dir.empty();
}

Settings channel_root_settings(const flume::ChannelDirs& dirs) {
  Settings settings;
  if (!dirs.checkpoint_dir.empty()) settings.emplace_back("--checkpoint-dir", dirs.checkpoint_dir);
  settings.emplace_back("--data-dir", fmt::format("{}", fmt::join(dirs.data_dirs, ",")));
  if (dirs.backup_dir) settings.emplace_back("--backup-dir", *dirs.backup_dir);
  return settings;
}

void adopt_discovered(const Settings& discovered, FlumeOptions* o) {
  for (const auto& [option, value] : discovered) {
    if (option == "--checkpoint-dir" && o->checkpoint_dir.empty()) o->checkpoint_dir = value;
    if (option == "--backup-dir" && o->backup_dir.empty()) o->backup_dir = value;
    if (option == "--data-dir" && o->data_dirs.empty())
      for (std::size_t at = 0; at <= value.size();) {
        const std::size_t comma = std::min(value.find(',', at), value.size());
        o->data_dirs.push_back(value.substr(at, comma - at));
        at = comma + 1;
      }
  }
}

flume::ChannelDirs channel_dirs(const FlumeOptions& o) {
  flume::ChannelDirs dirs{o.checkpoint_dir, o.data_dirs, std::nullopt};
  if (!o.backup_dir.empty()) dirs.backup_dir = o.backup_dir;
  return dirs;
}

std::vector<std::string> named_dirs(const FlumeOptions& o) {
  std::vector<std::string> dirs = o.data_dirs;
  for (const std::string* dir : {&o.checkpoint_dir, &o.backup_dir})
    if (!dir->empty()) dirs.push_back(*dir);
  return dirs;
}

ReplaceRequest channel_request(const flume::ChannelLayout& layout, std::vector<std::string> files) {
  ReplaceRequest request;
  request.lock_dirs = layout.data_dirs;
  request.owner_locks = layout.lock_files;
  request.owner = "a running Flume agent";
  request.watched = std::move(files);
  if (layout.checkpoint.exists) request.lock_dirs.push_back(layout.checkpoint.dir);
  if (layout.backup && layout.backup->exists) request.lock_dirs.push_back(layout.backup->dir);
  return request;
}

namespace {

// A directory beside the checkpoint directory that holds `log`, or "".
std::string dir_holding(const std::string& checkpoint_dir, const std::string& log) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path around = fs::absolute(checkpoint_dir).parent_path();
  for (fs::directory_iterator it(around, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code is_ec;
    if (it->is_directory(is_ec) && fs::is_regular_file(it->path() / log, is_ec)) return it->path().string();
  }
  return "";
}

}  // namespace

std::string missing_for_verify(const FlumeOptions& options, const flume::ChannelLayout& layout,
                               const flume::KeyRing& keys) {
  FindingList findings;
  const flume::ChannelLogs logs(layout.logs, keys, &findings);
  const flume::ChannelReplay replay =
      flume::replay_channel(layout, logs, flume::ChannelReplayOptions{options.capacity}, &findings);
  std::set<std::int32_t> present;
  for (const flume::DataLog& log : layout.logs) present.insert(log.file_id);
  std::vector<std::string> logs_missing, dirs, keys_missing;
  if (replay.queue) {
    for (const auto& [file_id, count] : replay.queue->reference_counts()) {
      if (count <= 0 || present.count(file_id) != 0) continue;
      const std::string log = fmt::format("log-{}", file_id);
      logs_missing.push_back(fmt::format("{} ({} event(s))", log, count));
      const std::string dir = options.checkpoint_dir.empty() ? "" : dir_holding(options.checkpoint_dir, log);
      dirs.push_back(dir.empty() ? "DIR" : dir);
    }
  }
  for (const Finding& f : findings.findings())
    if (f.code == "missing_key") keys_missing.push_back(fmt::format("{}: {}", f.file, f.message));
  std::string text;
  if (!logs_missing.empty())
    text = fmt::format("the channel's queue points into {}, in none of the --data-dir given: add --data-dir {}{}",
                       fmt::join(logs_missing, ", "), fmt::join(dirs, ","),
                       std::find(dirs.begin(), dirs.end(), "DIR") == dirs.end() ? "" : " (DIR: where the log is)");
  for (const std::string& k : keys_missing) text += (text.empty() ? "" : "; ") + k;
  return text;
}

std::optional<flume::KeyRing> parse_keys(const std::vector<std::string>& keys, std::string* error) {
  flume::KeyRing ring;
  for (const std::string& k : keys) {
    const auto eq = k.find('=');
    const std::string hex = eq == std::string::npos ? "" : k.substr(eq + 1);
    std::string bytes, hex_error;
    if (eq == std::string::npos || eq == 0 || hex.empty() || !hex_decode(hex, &bytes, &hex_error)) {
      *error = fmt::format("--key {}: expected ALIAS=HEX (the key's bytes in hexadecimal)", k);
      return std::nullopt;
    }
    ring[k.substr(0, eq)] = bytes;
  }
  return ring;
}

std::vector<FlumeFile> channel_files(const flume::ChannelLayout& layout) {
  std::vector<FlumeFile> files;
  const auto& c = layout.checkpoint;
  add(&files, c.checkpoint, FileKind::kCheckpoint);
  add(&files, c.checkpoint_meta, FileKind::kCheckpointMeta);
  add(&files, c.inflight_puts, FileKind::kInflight);
  add(&files, c.inflight_takes, FileKind::kInflight);
  for (const auto& log : layout.logs) {
    if (!log.meta_path.empty()) files.push_back(FlumeFile{log.meta_path, nullptr, FileKind::kLogMeta});
    files.push_back(
        FlumeFile{log.path, nullptr, log.version == flume::LogVersion::kV2 ? FileKind::kLogV2 : FileKind::kLogV3});
  }
  if (layout.backup) {
    const auto& b = *layout.backup;
    add(&files, b.checkpoint, FileKind::kCheckpoint);
    add(&files, b.checkpoint_snappy, FileKind::kSnappyCheckpoint);
    add(&files, b.checkpoint_meta, FileKind::kCheckpointMeta);
    add(&files, b.inflight_puts, FileKind::kInflight);
    add(&files, b.inflight_takes, FileKind::kInflight);
  }
  return files;
}

std::vector<FlumeFile> named_files(const std::vector<std::string>& paths, const std::string& format) {
  std::vector<FlumeFile> files;
  for (const std::string& path : paths)
    files.push_back(FlumeFile{path, nullptr, forced_kind(format).value_or(FileKind::kUnknown)});
  return files;
}

bool open_files(std::vector<FlumeFile>* files, Reporter* reporter) {
  bool all = true;
  for (FlumeFile& f : *files) {
    if (f.input) continue;
    Finding failure;
    f.input = InputFile::open(f.path, &failure);
    if (!f.input) {
      reporter->report(std::move(failure));
      all = false;
      continue;
    }
    if (f.kind == FileKind::kUnknown) f.kind = flume::detect_file_kind(f.path, f.input->bytes()).kind;
  }
  return all;
}

}  // namespace qjt::cli
