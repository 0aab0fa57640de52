// qjt help [COMMAND|formats]: the help of qjt, of one subcommand, or the
// table of formats and commands the registry prints.
#include <fmt/format.h>

#include "command_support.h"
#include "command_table.h"
#include "dispatch.h"
#include "registry.h"
#include "suggest.h"

namespace qjt::cli {

void add_help_command(CLI::App* app, std::string_view name, ExitCode* status) {
  auto* command = app->add_subcommand(std::string(name), "Show the help of qjt or of one command");
  auto topic = std::make_shared<std::string>();
  command->add_option("command", *topic, "A qjt command, or formats: the formats and what each command does with them");
  command->callback([app, topic, status] {
    if (topic->empty()) {
      fmt::print("{}", app->help());
      return;
    }
    if (*topic == "formats") {
      fmt::print("{}", formats_help(registry(), family_commands()));
      return;
    }
    if (const CLI::App* sub = find_command(*app, *topic)) {
      fmt::print("{}", sub->help(app->get_name()));  // "Usage: qjt dump", as dump --help
      return;
    }
    std::vector<std::string> topics = command_names(*app);
    topics.emplace_back("formats");
    *status = usage_error("help", unknown("command", *topic, topics, "qjt --help"));
  });
}

}  // namespace qjt::cli
