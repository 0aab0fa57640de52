// qjt repair on a Flume file channel: what cmd_repair runs when it is given
// --checkpoint-dir/--data-dir. The plan and its application are
// formats/flume/channel_repair.h; this file reads the options, guards the
// channel, prints the plan, refuses it without --force when it would lose
// or revive events (formats/flume/repair_recovery.h) and verifies the
// result.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "driver.h"
#include "exit_code.h"
#include "flume/cli/flume_input.h"
#include "write_guard.h"

namespace qjt::cli {

struct FlumeRepairOptions {
  FlumeOptions flume;
  std::vector<std::string> drop_events;  // FILE_ID:OFFSET
  bool rebuild_checkpoint = false;
  bool restore_backup = false;
  std::optional<std::int64_t> write_order_id;
  bool apply = false;
  bool json = false;
  WriteGuardOptions guard;
  Registry drivers;  // to check that the named directories hold no other family's files
};

// Adds --rebuild-checkpoint, --restore-backup, --drop-event and
// --write-order-id.
void add_flume_repair_options(CLI::App* command, FlumeRepairOptions* options);

ExitCode run_flume_repair(const FlumeRepairOptions& options);

}  // namespace qjt::cli
