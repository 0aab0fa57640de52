#include "named_output.h"

#include <unistd.h>

#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "command_support.h"
#include "interrupt.h"
#include "path_family.h"
#include "path_name.h"

namespace qjt::cli {
namespace {

namespace fs = std::filesystem;

bool exists(const std::string& path) {
  std::error_code ec;
  return fs::exists(fs::symlink_status(path, ec));
}

std::string directory_of(const std::string& path) { return fs::absolute(path).parent_path().string(); }

// "a classic Kestrel journal ..." for a file a family positively claims.
std::optional<std::string> claimed_as(const NamedOutput& output, const std::string& path) {
  const auto claim = claim_path(path, output.drivers);
  if (!claim || !claim->positive) return std::nullopt;
  return claim->evidence;
}

// Each of `files` renamed to its path, none of which may exist; on a
// failure the ones already renamed are removed again (they are new).
ExitCode install_new(const NamedOutput& output, const std::vector<std::unique_ptr<ReplacementFile>>& files) {
  CommitSection commit;
  std::string error, written;
  for (std::size_t i = 0; i < files.size(); ++i) {
    bool existed = false;
    if (files[i]->install_new(&existed, &error)) {
      written += (written.empty() ? "" : " and ") + files[i]->path();
      continue;
    }
    // The ones renamed already go again, and this one too when only the
    // fsync after its rename failed.
    for (std::size_t j = 0; j < i + (existed ? 0 : 1); ++j) ::unlink(files[j]->path().c_str());
    if (existed)
      return usage_error(output.command, fmt::format("{} appeared while the output was written; nothing was "
                                                     "written (use --force to replace it)",
                                                     files[i]->path()));
    tell(output.command, error);
    return ExitCode::kIoError;
  }
  note_committed(fmt::format("{} was written", written));
  return ExitCode::kOk;
}

// What guarded_replace needs to replace `existing` by `files`: the guard of
// their directories, a backup of those a family claims.
ReplaceRequest replace_request(const NamedOutput& output, const std::vector<std::unique_ptr<ReplacementFile>>& files,
                               const std::vector<std::string>& existing) {
  ReplaceRequest request;
  for (const auto& file : files) {
    const std::string dir = directory_of(file->path());
    if (std::find(request.lock_dirs.begin(), request.lock_dirs.end(), dir) != request.lock_dirs.end()) continue;
    request.lock_dirs.push_back(dir);
    // Flume's agent holds its directories' in_use.lock while it runs.
    const std::string owner_lock = (fs::path(dir) / "in_use.lock").string();
    if (exists(owner_lock)) request.owner_locks.push_back(owner_lock);
  }
  request.owner = "the queue's owner";
  request.watched = existing;
  for (const std::string& path : existing)
    if (claimed_as(output, path)) request.backup.files.push_back(path);
  if (!request.backup.files.empty()) request.backup.name = base_name(request.backup.files.front());
  for (const auto& file : files) {
    ReplacementFile* f = file.get();
    request.changes.push_back(
        FileChange::by_protocol([f](const std::string&, std::string* error) { return f->install(error); }));
  }
  return request;
}

// guarded_replace's reason for kInUse without its "use --force" advice,
// which does not hold here.
std::string in_use_reason(std::string reason) {
  for (const std::string_view advice : {"; stop it, or use --force", "; use --force to override"}) {
    if (const auto at = reason.find(advice); at != std::string::npos) reason.erase(at);
  }
  return reason + "; an output in use is not replaced, even with --force: stop its owner first";
}

// --force over existing files: guarded_replace, whose step 1 always runs.
ExitCode replace_existing(const NamedOutput& output, const std::vector<std::unique_ptr<ReplacementFile>>& files,
                          const std::vector<std::string>& existing) {
  const ReplaceRequest request = replace_request(output, files, existing);
  WriteGuardOptions guard = output.guard;
  guard.force = false;  // --force let the files be replaced; never while in use
  const ReplaceResult result = guarded_replace(request, guard);
  if (!result.changed()) {
    ReplaceResult told = result;
    if (told.status == ExitCode::kInUse) told.reason = in_use_reason(told.reason);
    report_unchanged(output.command, told);
    return result.status;
  }
  for (const std::string& path : request.backup.files) {
    if (result.backup.empty()) {
      note(output.command, fmt::format("{} was replaced without a backup (--no-backup)", path));
      continue;
    }
    const std::string copy = (fs::path(result.backup) / base_name(path)).string();
    note(output.command,
         fmt::format("the old {} is backed up in {}; to restore it: cp -a {} {}", path, copy, copy, path));
  }
  return result.status;
}

}  // namespace

std::optional<ExitCode> refuse_existing_outputs(const NamedOutput& output, const std::vector<std::string>& paths) {
  for (const std::string& path : paths) {
    if (path == "-" || !exists(path)) continue;
    if (is_directory(path))
      return usage_error(output.command, fmt::format("{} is a directory: give the path of a file", path));
    if (output.guard.force) continue;
    const auto claimed = claimed_as(output, path);
    return usage_error(output.command,
                       fmt::format("{} exists{}: nothing was written; choose a new path, or use --force to replace "
                                   "it{}",
                                   path, claimed ? fmt::format(" ({})", *claimed) : "",
                                   claimed ? " (the old file is backed up first)" : ""));
  }
  return std::nullopt;
}

ExitCode install_outputs(const NamedOutput& output, std::vector<std::unique_ptr<ReplacementFile>> files) {
  std::vector<std::string> existing;
  for (const auto& file : files)
    if (exists(file->path())) existing.push_back(file->path());
  if (existing.empty()) return install_new(output, files);
  if (auto refused = refuse_existing_outputs(output, existing)) return *refused;
  return replace_existing(output, files, existing);
}

ExitCode write_named_output(const NamedOutput& output, const std::string& path, const FileContent& content) {
  std::string error;
  if (path == "-") {
    if (write_output_file(path, content, &error)) return ExitCode::kOk;
    tell(output.command, error);
    return ExitCode::kIoError;
  }
  auto file = ReplacementFile::write(path, Ownership::kNewOutput, content, &error);
  if (!file) {
    tell(output.command, error);
    return ExitCode::kIoError;
  }
  std::vector<std::unique_ptr<ReplacementFile>> files;
  files.push_back(std::move(file));
  return install_outputs(output, std::move(files));
}

}  // namespace qjt::cli
