// dump, verify, replay, stats, compact and convert for libkestrel (Kestrel 3)
// queues: what the libkestrel driver runs. The work is done by formats/libkestrel;
// these only choose files and print.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "command_support.h"
#include "driver.h"
#include "exit_code.h"
#include "read_filter.h"
#include "stats_model.h"
#include "write_guard.h"

namespace qjt::cli {

struct LibkestrelRun {
  std::vector<std::string> paths{};
  std::string queue{};
  bool json = false;
  std::string data{};                    // --data, empty when not given
  std::optional<std::uint64_t> limit{};  // dump --limit
  ReadFilter filter{};                   // dump's filters; replay's --since/--until
  bool strict = false, quiet = false;    // verify
  std::uint64_t* printed = nullptr;      // dump: adds the records printed (ReadRequest::printed)
  // compact: a plan unless `apply`
  bool apply = false, rewrite_bookmarks = false;
  std::optional<std::uint64_t> if_reclaimable{};  // --if-reclaimable: a quiet no-op when less would be freed
  WriteGuardOptions guard{};
};

ExitCode run_libkestrel_dump(const LibkestrelRun& run);
// What verify reports.
VerifyTally check_libkestrel(const LibkestrelRun& run);
ExitCode run_libkestrel_replay(const LibkestrelRun& run);
ExitCode run_libkestrel_compact(const LibkestrelRun& run);
// qjt stats: each queue's entities added to `model` (libkestrel_stats.h),
// replay's findings to `findings`.
ExitCode run_libkestrel_stats(const LibkestrelRun& run, StatsModel* model, Reporter* findings);
// qjt convert --to libkestrel (a classic journal into a new libkestrel
// queue in the directory `output`), --to classic (one reader's queue of
// a libkestrel queue into the classic journal `output`; queue_converter.h)
// and --to jsonl (what dump --json prints of a libkestrel INPUT).
struct LibkestrelConvert {
  std::string to;  // "libkestrel", "classic" or "jsonl"
  std::string input, output, queue, reader;
  std::string data;          // --data for jsonl, empty when not given
  std::string input_family;  // the family whose claim on INPUT is positive; "" for none
  std::int64_t legacy_add_time_ms = 0;
  WriteGuardOptions guard{};  // an existing output file (named_output.h)
  Registry drivers{};
};
ExitCode run_libkestrel_convert(const LibkestrelConvert& run);

}  // namespace qjt::cli
