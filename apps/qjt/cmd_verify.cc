// qjt verify: decode and replay everything, report every finding, and exit
// 0 (clean), 1 (errors; warnings too with --strict) or 3 (unreadable). PATHs
// of several families make one report.
#include "command_support.h"
#include "command_table.h"
#include "dispatch.h"
#include "quiet.h"
#include "registry.h"

namespace qjt::cli {

void add_verify_command(CLI::App* app, std::string_view name, ExitCode* status) {
  auto request = std::make_shared<ReadRequest>(ReadRequest{.command = name});
  auto* command = app->add_subcommand(std::string(name), "Find every problem; the exit status tells CI");
  add_journal_selection(command, &request->paths, &request->queue, false);
  command->add_flag("--json", request->json, "One JSON report object");
  command->add_flag("--strict", request->strict, "Warnings fail too");
  auto families = std::make_shared<FamilyOptions>(command, name, Inputs::kRead, registry());
  command->callback([request, families, status] {
    request->quiet = quiet();  // no summary line when everything is clean
    *status = run_verify_command(*request, *families);
  });
}

}  // namespace qjt::cli
