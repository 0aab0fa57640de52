#include "guarded_replace.h"

#include <filesystem>

#include <fmt/format.h>

#include "failpoint.h"

namespace qjt::app {
namespace {

namespace fs = std::filesystem;

ReplaceResult failed(ExitCode status, std::string reason) { return ReplaceResult{status, std::move(reason), ""}; }

// Step 1. The locks stay held until guarded_replace returns.
ExitCode guard(const ReplaceRequest& r, const WriteGuardOptions& options,
               std::vector<std::unique_ptr<DirectoryLock>>* locks, std::string* reason) {
  return guard_directories(r.lock_dirs, r.owner_locks, r.owner, r.watched, options, locks, reason);
}

// Step 2: "" for no backup.
bool place_backup(const ReplaceRequest& r, const WriteGuardOptions& options, std::string* place, std::string* error) {
  place->clear();
  if (options.no_backup) return true;
  if (!r.backup.file.empty()) {
    *place = r.backup.file;
    return true;
  }
  if (r.backup.name.empty()) return true;
  return choose_backup_dir(r.keep_out_of.empty() ? r.lock_dirs : r.keep_out_of, r.backup.name, options, place, error);
}

// Step 4: one file at `place`, or each file into the directory `place`.
bool back_up(const BackupRequest& b, const std::string& place, std::string* error) {
  if (place.empty()) return true;
  if (b.copy) return b.copy(place, error);
  if (b.files.empty()) return true;
  if (b.file.empty()) return back_up_files(place, b.files, b.failpoint, error);
  std::error_code ec;
  const fs::path parent = fs::path(place).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  if (!durable_copy(b.files.front(), place, error)) return false;
  if (b.failpoint) failpoint(b.failpoint);
  return true;
}

// Step 5, one change.
bool make_change(const FileChange& c, const std::string& backup, std::string* error) {
  bool done = false;
  switch (c.kind) {
    case FileChange::Kind::kReplace:
      done = write_file_atomically(c.path, c.content, error);
      break;
    case FileChange::Kind::kRemove:
      done = durable_remove(c.path, error);
      break;
    case FileChange::Kind::kProtocol:
      done = c.protocol(backup, error);
      break;
  }
  if (done && c.failpoint) failpoint(c.failpoint);
  return done;
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

ReplaceResult guarded_replace(const ReplaceRequest& request, const WriteGuardOptions& options) {
  std::vector<std::unique_ptr<DirectoryLock>> locks;
  std::string reason;
  if (ExitCode status = guard(request, options, &locks, &reason); status != ExitCode::kOk)
    return failed(status, reason);
  ReplaceResult result;
  if (!place_backup(request, options, &result.backup, &reason)) return failed(ExitCode::kUsage, reason);
  bool done = (!request.check || request.check(&reason)) && back_up(request.backup, result.backup, &reason);
  for (auto change = request.changes.begin(); done && change != request.changes.end(); ++change)
    done = make_change(*change, result.backup, &reason);
  if (!done) {
    result.status = ExitCode::kIoError;  // the backup made stays: it is named
    result.reason = reason;
  }
  return result;
}

}  // namespace qjt::app
