// dump, verify, replay and stats for Canal's consumer checkpoints (meta.dat) and
// cursor history (meta.log): what the Canal driver runs. The work is formats/canal's;
// these only read files and print.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "canal/canal_file_kind.h"
#include "command_support.h"
#include "exit_code.h"
#include "read_filter.h"
#include "stats_model.h"

namespace qjt::cli {

struct CanalOptions {
  std::string binlogs;          // verify --binlogs: SHOW BINARY LOGS output
  std::string metrics;          // verify --metrics: a Prometheus scrape
  std::int64_t memunit = 1024;  // verify --memunit
  std::string at;               // replay --at
};

struct CanalRun {
  std::vector<std::string> paths;
  // The kind of every PATH, as the claims or --format told it; nullopt
  // when neither did (a PATH Canal does not recognise under --format canal).
  std::optional<canal::FileKind> kind;
  bool json = false;
  bool strict = false, quiet = false;  // verify
  CanalOptions canal;
  ReadFilter filter{};                   // dump's, on meta.log lines; replay's --since/--until
  std::optional<std::uint64_t> limit{};  // dump --limit: meta.log lines, or meta.dat files
  std::uint64_t* printed = nullptr;      // dump: adds the records printed (ReadRequest::printed)
};

// --binlogs FILE (SHOW BINARY LOGS output), for verify and stats: `use`
// says what the command does with it.
void add_canal_binlogs_option(CLI::App* command, CanalOptions* options, std::string_view use);
// verify's --binlogs, --metrics and --memunit.
void add_canal_verify_options(CLI::App* command, CanalOptions* options);
// replay's --at.
void add_canal_replay_options(CLI::App* command, CanalOptions* options);

ExitCode run_canal_dump(const CanalRun& run);
// What verify reports, --metrics stores included; nullopt on a usage error
// (printed).
std::optional<VerifyTally> check_canal(const CanalRun& run);
ExitCode run_canal_replay(const CanalRun& run);
// stats (canal_stats.h): the entities of the meta.dat files, --binlogs
// applied, or of the meta.log files, each read once, with the findings
// verify and replay report; kIoError when a file could not be read.
ExitCode run_canal_stats(const CanalRun& run, StatsModel* model, Reporter* reporter);

}  // namespace qjt::cli
