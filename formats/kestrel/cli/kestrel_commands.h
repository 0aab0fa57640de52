// dump, verify, replay, stats, compact and repair for classic Kestrel journals:
// what the Kestrel driver runs. The work is done by formats/kestrel; these only choose
// files (kestrel/journal_selection.h) and print.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "command_support.h"
#include "driver.h"
#include "exit_code.h"
#include "kestrel/queue_directory.h"
#include "stats_model.h"

namespace qjt::cli {

// The options only classic Kestrel has.
struct KestrelOptions {
  bool legacy_xids = false;  // verify, replay --legacy-xids
};

// compact's options for classic journals only.
struct KestrelCompactOptions {
  std::string output;  // -o
  std::string if_larger_than;
  std::optional<double> if_overflow;
};
void add_kestrel_compact_options(CLI::App* command, KestrelCompactOptions* options);

// Classic Kestrel's claim on a file's bytes: positive when a record decodes
// at offset 0 (or the file is empty), since classic journals carry no magic.
Claim kestrel_claim(ByteSpan bytes);

// What a queue directory's scan leaves to other families (a Kestrel 3
// segment beside classic journals): the files `drivers` gives another.
kestrel::ForeignFile other_families(Registry drivers);

ExitCode run_kestrel_dump(const ReadRequest& request);
VerifyTally check_kestrel(const ReadRequest& request, const KestrelOptions& options);
ExitCode run_kestrel_replay(const ReadRequest& request, const KestrelOptions& options);
// stats: each queue's figures (kestrel/kestrel_stats.h) added to `model`,
// what its replay finds to `findings`.
ExitCode run_kestrel_stats(const ReadRequest& request, const KestrelOptions& options, StatsModel* model,
                           Reporter* findings);
// convert --to jsonl, kestrel (from JSON Lines) or kestrel2 (1.x to 2.x).
ExitCode run_kestrel_convert(const ConvertRequest& request);
ExitCode run_kestrel_compact(const WriteRequest& request, const KestrelCompactOptions& options);
// repair: cut each file at its first broken record, or (salvage) drop only
// the damaged regions.
ExitCode run_kestrel_repair(const WriteRequest& request, bool salvage);

}  // namespace qjt::cli
