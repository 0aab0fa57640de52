// qjt replay: the queue as its owner rebuilds it at startup, with the
// hazards it would hit; a text summary or one JSON object per queue.
// --since/--until select the items shown, never what is rebuilt.
#include "command_support.h"
#include "command_table.h"
#include "dispatch.h"
#include "registry.h"

namespace qjt::cli {

void add_replay_command(CLI::App* app, std::string_view name, ExitCode* status) {
  auto request = std::make_shared<ReadRequest>(ReadRequest{.command = name});
  auto* command = app->add_subcommand(
      std::string(name),
      "Rebuild the queue as its owner's startup would (Kestrel, Kestrel 3, Flume; a Canal meta.log's history)");
  add_journal_selection(command, &request->paths, &request->queue, false);
  command->add_flag("--json", request->json, "One JSON object per queue");
  add_data_option(command, &request->data);
  add_time_filter_options(command, &request->filter, "items");
  auto families = std::make_shared<FamilyOptions>(command, name, Inputs::kRead, registry());
  command->callback([request, families, status] { *status = run_read_command(*request, *families); });
}

}  // namespace qjt::cli
