// dump, verify, replay and stats for Apache Flume file channels: what the
// Flume driver runs.
// The work is done by formats/flume; these only choose files and print.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "command_support.h"
#include "exit_code.h"
#include "finding.h"
#include "flume/cli/flume_input.h"
#include "read_filter.h"
#include "stats_model.h"

namespace qjt::cli {

struct FlumeRun {
  std::vector<std::string> paths;
  FlumeOptions flume;
  bool json = false;
  std::string data;                    // --data, empty when not given
  std::optional<std::uint64_t> limit;  // dump --limit
  ReadFilter filter;                   // dump's filters, on log records; replay's --since/--until
  bool strict = false, quiet = false;  // verify
  std::uint64_t* printed = nullptr;    // dump: adds the records printed (ReadRequest::printed)
};

// What verify checks in the channel or the files `run` names: every file
// decoded, the channel replayed, every queued event read. nullopt on a usage
// error (already printed).
std::optional<VerifyTally> check_flume(const FlumeRun& run);

// check_flume's findings for the channel `flume` names: the verify step of
// the writers that change a channel (guarded_replace.h).
FindingList verify_channel(const FlumeOptions& flume);

ExitCode run_flume_dump(const FlumeRun& run);
ExitCode run_flume_replay(const FlumeRun& run);

// stats: the channel options, and --by-header KEY (repeatable).
struct FlumeStatsOptions {
  FlumeOptions flume;
  std::vector<std::string> by_header;
};
void add_flume_stats_options(CLI::App* group, FlumeStatsOptions* options);

// The channel `run` names, replayed, as a "channel" entity of `model`
// (flume/channel_stats.h); the replay's findings to `findings`.
ExitCode run_flume_stats(const FlumeRun& run, const std::vector<std::string>& by_header, StatsModel* model,
                         Reporter* findings);

}  // namespace qjt::cli
