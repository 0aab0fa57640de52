#include "flume/cli/flume_input.h"

#include <fmt/format.h>

#include <array>
#include <utility>

#include "payload.h"

namespace qjt::app {
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

}  // namespace qjt::app
