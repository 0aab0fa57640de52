// qjt repair: plan, then (--apply) carry out the plan with backups, atomic
// replacement and a verify of the result; by the driver of each PATH's
// family (a Flume channel by its directories).
#include "command_support.h"
#include "command_table.h"
#include "dispatch.h"
#include "registry.h"

namespace qjt::cli {

void add_repair_command(CLI::App* app, std::string_view name, ExitCode* status) {
  auto request = std::make_shared<WriteRequest>(WriteRequest{.command = name});
  auto* command = app->add_subcommand(std::string(name),
                                      "Plan, then cut or salvage broken Kestrel journals, or repair a "
                                      "Flume channel or a Canal meta.dat");
  add_journal_selection(command, &request->paths, &request->queue, false);
  command->add_flag("--apply", request->apply, "Carry out the plan (without it, only print the plan)");
  add_write_guard_options(command, &request->guard);
  command->add_flag("--json", request->json, "One JSON report object");
  auto families = std::make_shared<FamilyOptions>(command, name, Inputs::kWrite, registry());
  command->callback([request, families, status] { *status = run_write_command(*request, *families); });
}

}  // namespace qjt::cli
