// qjt dump: every record of every file, one line each (text or JSON Lines),
// by the driver of each PATH's family.
#include "command_support.h"
#include "command_table.h"
#include "dispatch.h"
#include "registry.h"

namespace qjt::cli {

void add_dump_command(CLI::App* app, std::string_view name, ExitCode* status) {
  auto request = std::make_shared<ReadRequest>(ReadRequest{.command = name});
  auto* command = app->add_subcommand(std::string(name), "Decode every record, one line each");
  add_journal_selection(command, &request->paths, &request->queue, false);
  command->add_flag("--json", request->json, "JSON Lines, one object per record");
  add_data_option(command, &request->data);
  command->add_option("--limit", request->limit, "Print at most this many records");
  add_read_filter_options(command, &request->filter, op_names(registry()));
  auto families = std::make_shared<FamilyOptions>(command, name, Inputs::kRead, registry());
  command->callback([request, families, status] { *status = run_read_command(*request, *families); });
}

}  // namespace qjt::cli
