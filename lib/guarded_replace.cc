#include "guarded_replace.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "backup_retention.h"
#include "byte_size.h"
#include "clock.h"
#include "failpoint.h"
#include "file_ownership.h"
#include "free_space.h"
#include "in_use.h"
#include "interrupt.h"
#include "path_name.h"
#include "run_context.h"

namespace qjt {
namespace {

namespace fs = std::filesystem;

ReplaceResult failed(ExitCode status, std::string reason) {
  ReplaceResult result;
  result.status = status;
  result.reason = std::move(reason);
  return result;
}

ExitCode refuse_if_open(const std::vector<std::string>& files, std::string* reason) {
  const auto holders = find_open_holders(files);
  if (holders.empty()) return ExitCode::kOk;
  *reason = describe_holder(holders.front()) + "; stop it, or use --force";
  return ExitCode::kInUse;
}

// Step 1: qjt's lock on each directory, then the refusals. The locks stay
// held until guarded_replace returns.
ExitCode guard(const ReplaceRequest& r, const WriteGuardOptions& options,
               std::vector<std::unique_ptr<DirectoryLock>>* locks, std::string* reason) {
  if (options.force) return ExitCode::kOk;
  for (const std::string& dir : r.lock_dirs) {
    auto lock = DirectoryLock::try_acquire(dir, reason);
    if (!lock) {
      *reason += "; use --force to override";
      return ExitCode::kInUse;
    }
    locks->push_back(std::move(lock));
  }
  for (const std::string& lock_file : r.owner_locks) {
    if (const auto holder = find_lock_holder(lock_file)) {
      *reason = fmt::format("pid {} ({}) holds {}: the files are in use by {}; stop it, or use --force", holder->pid,
                            holder->command, lock_file, r.owner);
      return ExitCode::kInUse;
    }
  }
  return refuse_if_open(r.watched, reason);
}

// <root>/<name>.<stamp>, root (--backup-to) defaulting to
// "<dirs[0]>.qjt-backup" beside the first of `dirs`; never inside one of
// `dirs`, where the owner would take the copies for its own files or delete
// them (false, *error).
bool choose_backup_dir(const std::vector<std::string>& dirs, const std::string& name, const WriteGuardOptions& options,
                       std::string_view stamp, std::string* backup, std::string* error) {
  // Absolute and resolved first: "." or a relative --backup-to must not
  // slip inside a queue directory.
  std::error_code ec;
  auto resolved = [&ec](const std::string& path) { return fs::weakly_canonical(fs::absolute(path), ec); };
  const fs::path first = resolved(dirs.front());
  const fs::path base = options.backup_root.empty() ? first.parent_path() / (first.filename().string() + ".qjt-backup")
                                                    : resolved(options.backup_root);
  for (const std::string& dir : dirs) {
    const fs::path dir_real = resolved(dir);
    const auto [dir_end, base_end] = std::mismatch(dir_real.begin(), dir_real.end(), base.begin(), base.end());
    if (dir_end != dir_real.end()) continue;
    *error = fmt::format(
        "the backup directory {} is inside {}, where the queue would read the "
        "copies as its own files; choose another --backup-to",
        base.string(), dir_real.string());
    return false;
  }
  *backup = (base / fmt::format("{}.{}", name, stamp)).string();
  return true;
}

// Whether `place` was not yet taken by a backup of this process, taking it.
// Two jobs of one run (-j) that back up queues of one name into one
// --backup-to in the same millisecond would choose the same directory, and
// the second would be refused (back_up_files never shares one); the second
// takes the next millisecond's name instead, as a backup made a moment
// later would. Process-wide, as the names on disk are.
bool take_backup_name(const std::string& place) {
  static std::mutex taken_mutex;
  static std::set<std::string> taken;
  const std::lock_guard<std::mutex> lock(taken_mutex);
  return taken.insert(place).second;
}

// Step 2: "" for no backup; `stamp` ends a backup directory's name.
bool place_backup(const ReplaceRequest& r, const WriteGuardOptions& options, std::string_view stamp, std::string* place,
                  std::string* error) {
  place->clear();
  if (options.no_backup) return true;
  if (!r.backup.file.empty()) {
    *place = r.backup.file;
    return true;
  }
  if (r.backup.name.empty()) return true;
  return choose_backup_dir(r.keep_out_of.empty() ? r.lock_dirs : r.keep_out_of, r.backup.name, options, stamp, place,
                           error);
}

// The sizes of `files` (those that exist).
std::uint64_t total_size(const std::vector<std::string>& files) {
  std::uint64_t total = 0;
  std::error_code ec;
  for (const std::string& f : files) {
    const auto size = fs::file_size(f, ec);
    if (!ec) total += size;
  }
  return total;
}

// Whether the file system of `path` has `bytes` free; else *error says
// how much is needed.
bool has_room(const std::string& path, std::uint64_t bytes, std::string* error) {
  const auto free = free_bytes(path);
  if (bytes == 0 || !free || *free >= bytes) return true;
  *error = fmt::format(
      "not enough free space: {} needs {} free for the new files, and its file system has {}; "
      "nothing was changed",
      path, format_byte_size(bytes), format_byte_size(*free));
  return false;
}

// Step 3's first check: every file the changes write can keep its owner
// (file_ownership.h), else the refusal names it (kUsage).
bool check_owners(const ReplaceRequest& r, std::string* error) {
  for (const FileChange& c : r.changes)
    if (c.kind == FileChange::Kind::kReplace && !can_keep_ownership(c.path, error)) return false;
  return std::all_of(r.owned.begin(), r.owned.end(),
                     [error](const std::string& path) { return can_keep_ownership(path, error); });
}

// Step 3's room: what the changes write, summed per file system, then the
// backup copies where they cannot be hard links.
bool check_room(const ReplaceRequest& r, const std::string& backup, std::string* error) {
  std::vector<SpaceNeed> per_system;
  for (const SpaceNeed& need : r.room) {
    auto same = std::find_if(per_system.begin(), per_system.end(),
                             [&](const SpaceNeed& s) { return same_file_system(s.path, need.path); });
    if (same == per_system.end()) same = per_system.insert(per_system.end(), SpaceNeed{need.path, 0});
    same->bytes += need.bytes;
  }
  for (const SpaceNeed& need : per_system)
    if (!has_room(need.path, need.bytes, error)) return false;
  if (backup.empty() || r.backup.files.empty() || same_file_system(backup, r.backup.files.front())) return true;
  return has_room(backup, total_size(r.backup.files), error);
}

// Step 4: one file at `place`, or each file into the directory `place`.
bool back_up(const BackupRequest& b, const std::string& place, std::string* error) {
  if (place.empty()) return true;
  if (b.copy) return b.copy(place, error);
  if (b.files.empty()) return true;
  if (b.file.empty()) return back_up_files(place, b.files, b.failpoint, error);
  const fs::path parent = fs::path(place).parent_path();
  if (!parent.empty() && !make_directories(parent.string(), error)) return false;
  if (!durable_copy(b.files.front(), place, error)) return false;
  if (b.failpoint) failpoint(b.failpoint);
  return true;
}

// Step 5, one change; `content` is a kReplace's, written already.
bool make_change(const FileChange& c, ReplacementFile* content, const std::string& backup, std::string* error) {
  bool done = false;
  switch (c.kind) {
    case FileChange::Kind::kReplace:
      done = content->install(error);
      break;
    case FileChange::Kind::kRemove:
      done = durable_remove(c.path, error);
      break;
    case FileChange::Kind::kProtocol:
    case FileChange::Kind::kOwnCommit:
      done = c.protocol(backup, error);
      break;
  }
  if (done && c.failpoint) failpoint(c.failpoint);
  return done;
}

// Step 5: the long part (writing the new contents) while an interrupt
// still changes nothing, then the changes in one CommitSection.
bool make_changes(const std::vector<FileChange>& changes, const std::string& backup, std::string* error) {
  std::vector<std::unique_ptr<ReplacementFile>> contents;
  for (const FileChange& c : changes) {
    contents.push_back(c.kind == FileChange::Kind::kReplace
                           ? ReplacementFile::write(c.path, Ownership::kKept, c.content, error)
                           : nullptr);
    if (c.kind == FileChange::Kind::kReplace && !contents.back()) return false;
  }
  const bool own_commit = changes.size() == 1 && changes.front().kind == FileChange::Kind::kOwnCommit;
  std::optional<CommitSection> section;
  if (!own_commit) section.emplace();
  const std::string kept = backup.empty() ? "" : fmt::format(" (backup in {})", backup);
  for (std::size_t i = 0; i < changes.size(); ++i) {
    if (make_change(changes[i], contents[i].get(), backup, error)) continue;
    if (i > 0) note_committed("some of the changes were made" + kept);
    return false;
  }
  if (!own_commit) note_committed("the changes were made" + kept);
  return true;
}

// Step 6's restore command for the backup made.
std::string restore_command(const ReplaceRequest& request, const std::string& backup) {
  if (request.restore) return request.restore(backup);
  if (backup.empty()) return "";
  return copy_back_command(backup, request.backup.files, !request.backup.file.empty());
}

// Step 6.
void verify(const ReplaceRequest& request, ReplaceResult* result) {
  result->verified = request.verify();
  if (failpoint_error("verify"))
    result->verified->report(Finding{Severity::kError, "injected", "-", std::nullopt,
                                     "an error injected by QJT_FAILPOINT_ERROR=verify, for tests"});
  const std::size_t errors = result->verified->count(Severity::kError);
  if (errors == 0) return;
  result->status = ExitCode::kProblems;
  result->restore = restore_command(request, result->backup);
  result->reason = fmt::format("the verify after the change found {} error(s)", errors);
  if (!result->backup.empty()) result->reason += fmt::format("; the files as they were are in {}", result->backup);
  if (!result->restore.empty()) result->reason += fmt::format("; to restore them: {}", result->restore);
  // The way back, in every writer's report (JSON too), not on stderr only.
  if (!result->restore.empty())
    result->verified->report(Finding{Severity::kWarning, "restore_from_backup", result->backup, std::nullopt,
                                     fmt::format("the files as they were before the change are in {}; the hint "
                                                 "restores them",
                                                 result->backup),
                                     result->restore});
}

}  // namespace

FileChange FileChange::replace(std::string path, FileContent content, const char* failpoint) {
  return FileChange{Kind::kReplace, std::move(path), std::move(content), nullptr, failpoint};
}

FileChange FileChange::remove(std::string path, const char* failpoint) {
  return FileChange{Kind::kRemove, std::move(path), nullptr, nullptr, failpoint};
}

FileChange FileChange::by_protocol(ReplaceProtocol protocol, const char* failpoint) {
  return FileChange{Kind::kProtocol, "", nullptr, std::move(protocol), failpoint};
}

FileChange FileChange::by_own_commit(ReplaceProtocol protocol) {
  return FileChange{Kind::kOwnCommit, "", nullptr, std::move(protocol), nullptr};
}

ReplaceResult guarded_replace(const ReplaceRequest& request, const WriteGuardOptions& options) {
  std::vector<std::unique_ptr<DirectoryLock>> locks;
  std::string reason;
  if (ExitCode status = guard(request, options, &locks, &reason); status != ExitCode::kOk)
    return failed(status, reason);
  ReplaceResult result;
  for (std::int64_t stamp = now_ms();; ++stamp) {
    if (!place_backup(request, options, std::to_string(stamp), &result.backup, &reason))
      return failed(ExitCode::kUsage, reason);
    if (result.backup.empty() || !request.backup.file.empty() || take_backup_name(result.backup)) break;
  }
  if (!check_owners(request, &reason)) return failed(ExitCode::kUsage, reason);
  bool done = (!request.check || request.check(&reason)) && check_room(request, result.backup, &reason) &&
              back_up(request.backup, result.backup, &reason);
  done = done && make_changes(request.changes, result.backup, &reason);
  if (!done) {
    result.status = ExitCode::kIoError;  // the backup made stays: it is named
    result.reason = reason;
    return result;
  }
  if (request.verify) verify(request, &result);
  if (result.status == ExitCode::kOk && options.keep_backups > 0 && !result.backup.empty()) {
    for (const std::string& failure : prune_backups(result.backup, options.keep_backups).failures)
      write_stderr(fmt::format("qjt: warning: {}\n", failure));
  }
  return result;
}

const char* result_action(const ReplaceResult& result, const char* done) {
  if (result.changed()) return done;
  return result.status == ExitCode::kIoError ? "failed" : "refused";
}

void report_unchanged(std::string_view command, const ReplaceResult& result) {
  write_stderr(
      fmt::format("qjt {}: {}{}\n", command, result.status == ExitCode::kInUse ? "refused: " : "", result.reason));
}

void report_outcome(std::string_view command, const ReplaceResult& result) {
  if (!result.changed()) return report_unchanged(command, result);
  if (result.status == ExitCode::kProblems) write_stderr(fmt::format("qjt {}: {}\n", command, result.reason));
}

std::string copy_back_command(const std::string& backup, const std::vector<std::string>& originals, bool one_file) {
  std::string command;
  for (const std::string& original : originals) {
    if (!command.empty()) command += " && ";
    const std::string copy = one_file ? backup : (fs::path(backup) / base_name(original)).string();
    command += fmt::format("cp -a {} {}", shell_word(copy), shell_word(original));
  }
  return command;
}

std::string planned_backup(const ReplaceRequest& request, const WriteGuardOptions& options) {
  std::string place, error;
  if (!place_backup(request, options, "<ms>", &place, &error)) return "";
  return place;
}

}  // namespace qjt
