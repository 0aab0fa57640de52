#include "flume/compaction_in_place.h"

#include <filesystem>

#include <fmt/format.h>

#include "durable_file.h"
#include "failpoint.h"
#include "file_ownership.h"
#include "flume/log_metadata.h"
#include "interrupt.h"

namespace qjt::flume {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kStaging = ".qjt-compact";

std::string in_dir(const std::string& dir, const std::string& name) { return (fs::path(dir) / name).string(); }

std::string file_name(const std::string& path) { return fs::path(path).filename().string(); }

// Removes `dir` and what is in it (a staging dir: qjt's own; after the
// swap, the old checkpoint set, with an old Flume's queueset dir).
bool remove_staging_dir(const std::string& dir, std::string* error) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return true;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const bool removed = entry.is_directory(ec) && !entry.is_symlink(ec)
                             ? remove_staging_dir(entry.path().string(), error)
                             : durable_remove(entry.path().string(), error);
    if (!removed) return false;
  }
  if (ec || !fs::remove(dir, ec) || ec) {
    *error = fmt::format("cannot remove directory {}: {}", dir, ec ? ec.message() : "not empty");
    return false;
  }
  return sync_directory(fs::path(dir).parent_path().string(), error);
}

bool write_meta(const std::string& path, const LogMetadata& meta, std::string* error) {
  const std::string bytes = encode_log_metadata(meta);
  return write_file_atomically(
      path, Ownership::kKept,
      [&bytes](FileWriter* writer, std::string* e) { return writer->append(ByteSpan(bytes), e); }, error);
}

// The staged `path` given what its `destination` in the channel keeps
// (file_ownership.h): when qjt runs as root for a channel Flume runs as
// its own user, Flume must still be able to write it.
bool own_as(const std::string& path, const std::string& destination, std::string* error) {
  const auto kept = FileOwnership::kept_at(destination, error);
  return kept && kept->apply_to(path, error);
}

}  // namespace

bool own_staged_like_channel(const InPlaceDirs& dirs, const CompactionResult& staged, std::string* error) {
  std::error_code ec;
  if (!own_as(dirs.staged_checkpoint_dir, dirs.checkpoint_dir, error)) return false;
  for (const auto& entry : fs::directory_iterator(dirs.staged_checkpoint_dir, ec)) {
    const std::string name = file_name(entry.path().string());
    const bool directory = entry.is_directory(ec);
    if (!own_as(entry.path().string(), directory ? dirs.checkpoint_dir : in_dir(dirs.checkpoint_dir, name), error))
      return false;
  }
  for (const SinkLog& log : staged.logs) {
    const std::string placed = in_dir(dirs.data_dirs[log.dir], file_name(log.path));
    if (!own_as(log.path, placed, error) || !own_as(log.path + ".meta", placed + ".meta", error)) return false;
  }
  return true;
}

InPlaceDirs in_place_dirs(const ChannelLayout& layout) {
  InPlaceDirs dirs;
  dirs.checkpoint_dir = layout.checkpoint.dir;
  const fs::path checkpoint = fs::path(layout.checkpoint.dir).lexically_normal();
  const fs::path named = checkpoint.filename().empty() ? checkpoint.parent_path() : checkpoint;
  dirs.staged_checkpoint_dir = named.string() + std::string(kStaging);
  for (const std::string& d : layout.data_dirs) {
    dirs.data_dirs.push_back(d);
    dirs.staged_data_dirs.push_back(in_dir(d, std::string(kStaging)));
  }
  if (layout.backup) dirs.backup_checkpoint_dir = layout.backup->dir;
  return dirs;
}

bool clear_leftovers(const InPlaceDirs& dirs, const std::string& backup_dir, std::string* error) {
  for (const std::string& staged : dirs.staged_data_dirs)
    if (!remove_staging_dir(staged, error)) return false;
  std::error_code ec;
  if (fs::exists(dirs.staged_checkpoint_dir, ec)) {
    const bool kept = !backup_dir.empty() &&
                      durable_rename(dirs.staged_checkpoint_dir, in_dir(backup_dir, "leftover-checkpoint"), error);
    if (!kept && (!backup_dir.empty() || !remove_staging_dir(dirs.staged_checkpoint_dir, error))) return false;
  }
  failpoint("flume_compact.leftovers_cleared");
  return true;
}

bool show_new_logs(const InPlaceDirs& dirs, const CompactionResult& staged, std::string* error) {
  for (const SinkLog& log : staged.logs) {
    const std::string& data_dir = dirs.data_dirs[log.dir];
    const std::string name = file_name(log.path);
    // Read to its end as of write order id 0: skipped by every replay.
    const LogMetadata hidden = marked_log_meta(log.id, log.bytes, staged.key_alias, log.iv, true, true, 0);
    const CommitSection section;
    if (!write_meta(in_dir(data_dir, name + ".meta"), hidden, error) ||
        !durable_rename(log.path, in_dir(data_dir, name), error))
      return false;
    failpoint("flume_compact.log_shown");
  }
  return true;
}

bool retire_backup_checkpoint(const InPlaceDirs& dirs, std::string* error) {
  if (!dirs.backup_checkpoint_dir) return true;
  const std::string complete = in_dir(*dirs.backup_checkpoint_dir, "backupComplete");
  std::error_code ec;
  if (fs::exists(complete, ec) && !durable_remove(complete, error)) return false;
  failpoint("flume_compact.backup_retired");
  return true;
}

bool swap_checkpoint(const InPlaceDirs& dirs, std::string* error) {
  if (!durable_exchange(dirs.staged_checkpoint_dir, dirs.checkpoint_dir, error)) return false;
  failpoint("flume_compact.checkpoint_swapped");
  return true;
}

bool mark_new_logs(const InPlaceDirs& dirs, const CompactionResult& staged, std::string* error) {
  for (const SinkLog& log : staged.logs) {
    const std::string meta = file_name(log.path) + ".meta";
    if (!durable_rename(log.path + ".meta", in_dir(dirs.data_dirs[log.dir], meta), error)) return false;
    failpoint("flume_compact.log_marked");
  }
  return true;
}

bool remove_old_files(const InPlaceDirs& dirs, const ChannelLayout& old, std::string* error) {
  // First the staging dirs: empty but for the old checkpoint set, which the
  // swap left in the staged checkpoint dir.
  if (!remove_staging_dir(dirs.staged_checkpoint_dir, error)) return false;
  for (const std::string& staged : dirs.staged_data_dirs)
    if (!remove_staging_dir(staged, error)) return false;
  for (const DataLog& log : old.logs) {
    if (!durable_remove(log.path, error)) return false;
    std::error_code ec;
    if (!log.meta_path.empty() && fs::exists(log.meta_path, ec) && !durable_remove(log.meta_path, error)) return false;
    for (const std::string& leftover : log.meta_leftovers)
      if (fs::exists(leftover, ec) && !durable_remove(leftover, error)) return false;
    failpoint("flume_compact.old_log_removed");
  }
  return true;
}

}  // namespace qjt::flume
