// dump, verify and replay for Canal's consumer checkpoints (meta.dat) and
// cursor history (meta.log): what cmd_dump, cmd_verify and cmd_replay run
// when a PATH is one of them, or --format canal-meta-dat|canal-meta-log, or
// (verify) --binlogs or --metrics is given. The work is formats/canal's;
// these only read files and print.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "exit_code.h"

namespace qjt::app {

struct CanalOptions {
  std::string binlogs;  // verify --binlogs: SHOW BINARY LOGS output
  std::string metrics;  // verify --metrics: a Prometheus scrape
  std::int64_t memunit = 1024;  // verify --memunit
  std::string at;       // replay --at
};

struct CanalRun {
  std::vector<std::string> paths;
  std::string format;  // the command's --format
  bool json = false;
  bool strict = false, quiet = false;  // verify
  CanalOptions canal;
};

// verify's --binlogs, --metrics and --memunit.
void add_canal_verify_options(CLI::App* command, CanalOptions* options);
// replay's --at.
void add_canal_replay_options(CLI::App* command, CanalOptions* options);

// Runs `command` when the input is Canal's; nullopt otherwise (the caller
// carries on with Kestrel or Flume).
std::optional<ExitCode> run_if_canal(const CanalRun& run, ExitCode (*command)(const CanalRun&));

ExitCode run_canal_dump(const CanalRun& run);
ExitCode run_canal_verify(const CanalRun& run);
// What run_canal_verify reports, without --metrics; nullopt on a usage
// error (printed).
std::optional<VerifyTally> check_canal(const CanalRun& run);
ExitCode run_canal_replay(const CanalRun& run);

}  // namespace qjt::app
