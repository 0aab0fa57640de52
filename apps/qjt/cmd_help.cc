// qjt help [COMMAND|formats]: the help of qjt, of one subcommand, or the
// table of formats and commands the registry prints.
#include <fmt/format.h>

#include "command_support.h"
#include "command_table.h"
#include "dispatch.h"
#include "registry.h"
#include "suggest.h"

namespace qjt::cli {

void add_help_command(CLI::App* app, ExitCode* status) {
  auto* command = app->add_subcommand("help", "Show the help of qjt or of one command");
  auto name = std::make_shared<std::string>();
  command->add_option("command", *name, "A qjt command, or formats: the formats and what each command does with them");
  command->callback([app, name, status] {
    if (name->empty()) {
      fmt::print("{}", app->help());
      return;
    }
    if (*name == "formats") {
      fmt::print("{}", formats_help(registry()));
      return;
    }
    if (const CLI::App* sub = find_command(*app, *name)) {
      fmt::print("{}", sub->help(app->get_name()));  // "Usage: qjt dump", as dump --help
      return;
    }
    std::vector<std::string> topics = command_names(*app);
    topics.emplace_back("formats");
    *status = usage_error("help", unknown("command", *name, topics, "qjt --help"));
  });
}

}  // namespace qjt::cli
