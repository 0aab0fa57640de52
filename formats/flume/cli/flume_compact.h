// qjt compact on a Flume file channel: what cmd_compact runs when it is
// given --checkpoint-dir/--data-dir. The work is flume/channel_compaction.h;
// this file reads the options, guards the input, prints the plan (per log:
// its bytes, its queued events, what pins it, what compaction frees), and
// writes the compacted channel out of place, or (--apply) in place under
// guarded_replace, verified before it reports.
#pragma once

#include <string>
#include <vector>

#include "driver.h"
#include "exit_code.h"
#include "flume/cli/flume_input.h"
#include "requests.h"

namespace qjt::cli {

struct FlumeCompactOptions {
  FlumeOptions flume;
  std::string to_checkpoint_dir;
  std::vector<std::string> to_data_dirs;
};

// Adds the channel options, --to-checkpoint-dir and --to-data-dir (compact's
// --apply and --if-reclaimable are every family's: WriteRequest).
void add_flume_compact_options(CLI::App* command, FlumeCompactOptions* options);

ExitCode run_flume_compact(const WriteRequest& request, FlumeCompactOptions options);

}  // namespace qjt::cli
