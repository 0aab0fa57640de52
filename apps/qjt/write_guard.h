// The options of every command that changes a queue's files; what they
// govern is guarded_replace.h's.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace qjt::app {

// The options every writing command takes: --backup-dir, --no-backup, --force.
struct WriteGuardOptions {
  std::string backup_root;
  bool no_backup = false;
  bool force = false;
};

void add_write_guard_options(CLI::App* command, WriteGuardOptions* options);

}  // namespace qjt::app
