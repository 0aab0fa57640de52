// qjt help [COMMAND|formats]: the overview of qjt (overview.h), the help of
// one command, or the table of formats and commands the registry prints.
// The topics are a fixed set (value_set.h): an unknown one is refused with
// the closest, and `qjt help <TAB>` completes them.
#include <fmt/format.h>

#include "command_support.h"
#include "command_table.h"
#include "dispatch.h"
#include "overview.h"
#include "registry.h"
#include "suggest.h"
#include "value_set.h"

namespace qjt::cli {

void add_help_command(CLI::App* app, std::string_view name, ExitCode* status) {
  auto* command = app->add_subcommand(std::string(name), "Show the help of qjt or of one command");
  auto topic = std::make_shared<std::string>();
  // The commands are known once all are added: the set is made when asked.
  auto topics = [app] {
    std::vector<std::string> names = command_names(*app);
    names.emplace_back("formats");
    return names;
  };
  command->add_option("command", *topic, "A qjt command, or formats: the formats and what each command does with them")
      ->check(value_set(topics));
  command->callback([app, topic, status] {
    Output out;
    if (topic->empty()) {
      out.write(overview(*app));
    } else if (*topic == "formats") {
      out.write(formats_help(registry(), family_commands()));
    } else {
      out.write(find_command(*app, *topic)->help(app->get_name()));  // "Usage: qjt dump", as dump --help
    }
    *status = finish_output(&out, ExitCode::kOk);
  });
}

}  // namespace qjt::cli
