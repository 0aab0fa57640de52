// qjt stats: what each queue, reader, channel or client holds, what pins
// its disk space and where its owner's next start recovers from, as text,
// one JSON object or Prometheus metrics; computed in the same pass as
// replay, by the family of each PATH.
#include "command_support.h"
#include "command_table.h"
#include "dispatch.h"
#include "registry.h"

namespace qjt::cli {

void add_stats_command(CLI::App* app, std::string_view name, ExitCode* status) {
  auto request = std::make_shared<ReadRequest>(ReadRequest{.command = name});
  auto output = std::make_shared<StatsOutput>();
  auto* command = app->add_subcommand(
      std::string(name), "What each queue holds, what pins its disk space, and how its owner would restart");
  add_journal_selection(command, &request->paths, &request->queue, false);
  auto* json = command->add_flag("--json", request->json, "One JSON object");
  command
      ->add_flag_callback(
          "--prometheus", [output] { output->style = StatsStyle::kPrometheus; },
          "Prometheus metrics, for node_exporter's textfile collector")
      ->excludes(json);
  command
      ->add_option("-o,--output", output->path,
                   "Write the report to FILE: written whole, then renamed over it (a report of qjt stats is "
                   "replaced, any other file only with --force)")
      ->option_text("FILE");
  command->add_flag("--force", output->guard.force, "Replace an existing -o FILE that is not a report of qjt stats");
  auto families = std::make_shared<FamilyOptions>(command, name, Inputs::kRead, registry());
  command->callback([request, output, families, status] {
    if (request->json) output->style = StatsStyle::kJson;
    *status = run_stats_command(*request, *output, *families);
  });
}

}  // namespace qjt::cli
