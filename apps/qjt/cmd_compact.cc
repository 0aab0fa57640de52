// qjt compact (alias roll): rewrite a queue's journal into its minimal
// equivalent, in place with a crash-safe protocol and a backup (--apply;
// else a plan), or to -o; by the driver of each PATH's family (a Flume
// channel by its directories).
#include <fmt/format.h>

#include "byte_size.h"
#include "command_support.h"
#include "command_table.h"
#include "dispatch.h"
#include "registry.h"

namespace qjt::cli {

void add_compact_command(CLI::App* app, std::string_view name, ExitCode* status) {
  auto request = std::make_shared<WriteRequest>(WriteRequest{.command = name});
  auto* command =
      app->add_subcommand(std::string(name),
                          "Rewrite a queue's journal into its minimal equivalent, or a Flume channel's queue into "
                          "fresh logs (alias: roll)");
  command->alias("roll");
  add_journal_selection(command, &request->paths, &request->queue, false);
  command->add_flag("--apply", request->apply,
                    "Compact in place (without it, and without -o, only print the plan); the queue's owner stopped");
  command->add_flag("--dry-run", request->dry_run, "Only print the plan (the default in place; with -o too)");
  auto reclaimable = std::make_shared<std::string>();
  command->add_option("--if-reclaimable", *reclaimable,
                      "Do nothing, quietly, unless compaction would free at least SIZE (e.g. 1G)");
  add_write_guard_options(command, &request->guard);
  command->add_flag("--json", request->json, "One JSON report object per queue");
  auto families = std::make_shared<FamilyOptions>(command, name, Inputs::kWrite, registry());
  command->callback([request, reclaimable, families, status, name] {
    if (request->apply && request->dry_run) {
      *status = usage_error(name, "--apply changes the files, --dry-run only plans: give one of them");
      return;
    }
    if (!reclaimable->empty() && !(request->if_reclaimable = parse_byte_size(*reclaimable))) {
      *status =
          usage_error(name, fmt::format("--if-reclaimable {}: expected a size like 4096, 64K, 1M, 2G", *reclaimable));
      return;
    }
    *status = run_write_command(*request, *families);
  });
}

}  // namespace qjt::cli
