// Guard rails shared by the commands that change a queue's files: qjt's
// lock on the directory, refusal while another process has the files open,
// and where backups go. The writers reach them through guarded_replace.h,
// which runs them in their order.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "exit_code.h"
#include "in_use.h"

namespace qjt::app {

// The options every writing command takes: --backup-dir, --no-backup, --force.
struct WriteGuardOptions {
  std::string backup_root;
  bool no_backup = false;
  bool force = false;
};

void add_write_guard_options(CLI::App* command, WriteGuardOptions* options);

// Takes qjt's lock on each of `dirs`, then refuses while a process holds
// one of `owner_locks` (the locks the owning system takes, e.g. Flume's
// in_use.lock: Java's tryLock is a POSIX record lock) or has one of `files`
// open. kOk with *locks held,
// else kInUse with *reason naming the process and `owner` (what holding an
// owner lock means). `force` skips the checks.
ExitCode guard_directories(const std::vector<std::string>& dirs, const std::vector<std::string>& owner_locks,
                           std::string_view owner, const std::vector<std::string>& files,
                           const WriteGuardOptions& options, std::vector<std::unique_ptr<DirectoryLock>>* locks,
                           std::string* reason);

// The backup directory for one run on `name`: <root>/<name>.<ms>, with root
// (--backup-to) defaulting to "<dirs[0]>.qjt-backup" beside the first of
// `dirs`. Never inside any of `dirs`, where the owning system would take the
// copies for its own files or delete them: that is refused (false, *error).
// --no-backup gives "".
bool choose_backup_dir(const std::vector<std::string>& dirs, const std::string& name, const WriteGuardOptions& options,
                       std::string* backup, std::string* error);

}  // namespace qjt::app
