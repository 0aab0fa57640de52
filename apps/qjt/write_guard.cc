#include "write_guard.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "clock.h"

namespace qjt::app {

namespace fs = std::filesystem;

void add_write_guard_options(CLI::App* command, WriteGuardOptions* options) {
  command->add_option("--backup-to", options->backup_root,
                      "Where backups go (default: <dir>.qjt-backup beside the queue directory)");
  command->add_flag("--no-backup", options->no_backup, "Keep no backup of the replaced files");
  command->add_flag("--force", options->force, "Go ahead although the files are open or locked");
}

namespace {

ExitCode refuse_if_open(const std::vector<std::string>& files, std::string* reason) {
  const auto holders = find_open_holders(files);
  if (holders.empty()) return ExitCode::kOk;
  *reason = describe_holder(holders.front()) + "; stop it, or use --force";
  return ExitCode::kInUse;
}

}  // namespace

ExitCode guard_directories(const std::vector<std::string>& dirs, const std::vector<std::string>& owner_locks,
                           std::string_view owner, const std::vector<std::string>& files,
                           const WriteGuardOptions& options, std::vector<std::unique_ptr<DirectoryLock>>* locks,
                           std::string* reason) {
  if (options.force) return ExitCode::kOk;
  for (const std::string& dir : dirs) {
    auto lock = DirectoryLock::try_acquire(dir, reason);
    if (!lock) {
      *reason += "; use --force to override";
      return ExitCode::kInUse;
    }
    locks->push_back(std::move(lock));
  }
  for (const std::string& lock_file : owner_locks) {
    if (const auto holder = find_lock_holder(lock_file)) {
      *reason = fmt::format("pid {} ({}) holds {}: the files are in use by {}; stop it, or use --force", holder->pid,
                            holder->command, lock_file, owner);
      return ExitCode::kInUse;
    }
  }
  return refuse_if_open(files, reason);
}

bool choose_backup_dir(const std::vector<std::string>& dirs, const std::string& name, const WriteGuardOptions& options,
                       std::string* backup, std::string* error) {
  backup->clear();
  if (options.no_backup) return true;
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
  const auto ms = now_ms();
  *backup = (base / fmt::format("{}.{}", name, ms)).string();
  return true;
}

}  // namespace qjt::app
