// The Flume side of `qjt convert` (the formats are in formats/flume:
// log_json.h and checkpoint_upgrade.h; this is the command line around them).
//
//   --to jsonl LOG        the log's log_meta line (V3 with a meta), then what
//                         `qjt dump --json LOG` prints
//   --to flume-log JSONL  those lines back to a V3 log -o log-N and its
//                         log-N.meta (a log_meta line's, else synthesized)
//   --to flume-v3 --checkpoint-dir DIR [--apply]
//                         a V2 checkpoint upgraded to V3 as Flume does at start
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "driver.h"
#include "exit_code.h"
#include "flume/cli/flume_input.h"

namespace qjt::cli {

struct FlumeConvertOptions {
  std::string to;
  std::string input;
  std::string output = "-";
  std::string data;  // --data, for --to jsonl
  FlumeOptions flume;
  bool apply = false;       // flume-v3
  bool json = false;        // flume-v3: the plan as one JSON object
  WriteGuardOptions guard;  // an existing OUTPUT (named_output.h); flume-v3: --force skips the in-use checks
  Registry drivers{};       // to check that the named directories hold no other family's files
};

// --apply, --json and the Flume input options (--key,
// --checkpoint-dir, --data-dir, --backup-dir).
void add_flume_convert_options(CLI::App* command, FlumeConvertOptions* options);

ExitCode run_flume_convert(const FlumeConvertOptions& options);

}  // namespace qjt::cli
