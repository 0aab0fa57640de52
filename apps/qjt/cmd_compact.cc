// qjt compact (alias roll): rewrite a queue's journal into its minimal
// equivalent, in place with a crash-safe protocol and a backup, or to -o;
// by the driver of each PATH's family (a Flume channel by its directories).
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
  command->add_flag("--dry-run", request->dry_run, "Report what would change; change nothing");
  add_write_guard_options(command, &request->guard);
  command->add_flag("--json", request->json, "One JSON report object per queue");
  auto families = std::make_shared<FamilyOptions>(command, name, Inputs::kWrite, registry());
  command->callback([request, families, status] { *status = run_write_command(*request, *families); });
}

}  // namespace qjt::cli
