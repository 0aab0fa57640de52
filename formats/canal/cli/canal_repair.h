// qjt repair on a Canal meta.dat: what the Canal driver runs. The edits are
// formats/canal/meta_repair.h; this file reads the options, guards the file
// (Canal rewrites it every second, so an open meta.dat means a running
// server), backs it up beside itself, replaces it atomically and verifies
// the result.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exit_code.h"
#include "write_guard.h"

namespace qjt::cli {

struct CanalRepairOptions {
  std::vector<std::string> set_positions;  // CLIENT=JOURNAL:POS
  std::vector<std::string> to_timestamps;  // CLIENT=MS
  std::vector<std::string> drops;          // CLIENT
  std::vector<std::string> from_logs;      // meta.log files
  std::string at;                          // with --from-log
  bool reset_tsdb = false;                 // a rewind moves the table-meta store aside
  bool keep_tsdb = false;                  // a rewind keeps it
};

// Adds --set-position, --to-timestamp, --drop-client, --from-log, --at,
// --reset-tsdb and --keep-tsdb.
void add_canal_repair_options(CLI::App* command, CanalRepairOptions* options);

struct CanalRepairRun {
  std::vector<std::string> paths;
  bool names_meta_log = false;  // the PATH is claimed as a meta.log
  CanalRepairOptions canal;
  bool apply = false;
  bool json = false;
  WriteGuardOptions guard;
};

// Where a backup of a Canal file goes: <file>.qjt-backup-<stamp> beside
// it (Canal and H2 open only their exact names: meta.dat, a cursor node's
// file, h2.mv.db), or in --backup-to.
std::string canal_backup_path(const std::string& file, const WriteGuardOptions& guard, std::string_view stamp);

// nullopt when neither the PATH nor the options are Canal's.
ExitCode run_canal_repair(const CanalRepairRun& run);

}  // namespace qjt::cli
