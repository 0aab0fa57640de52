#include "overview.h"

namespace qjt::cli {
namespace {

// exit_code.h's statuses, as qjt(1) tells them.
constexpr const char* kFooter = R"(Exit status:
  0  done, and the input is clean
  1  problems were found in the input
  2  the command line is wrong
  3  a file could not be opened, read or written
  4  refused: the files are in use by another process

qjt help COMMAND    a command's arguments and options (as qjt COMMAND --help)
qjt help formats    the formats qjt reads, and what each command does with them
man qjt             the manual)";

}  // namespace

void describe_qjt(CLI::App* app) {
  for (CLI::App* command : app->get_subcommands({}))
    if (!command->get_name().empty()) command->group("Commands");  // CLI11's heading is "Subcommands"
  app->get_formatter()->label("SUBCOMMAND", "COMMAND");
  app->footer(kFooter);
}

std::string overview(const CLI::App& app) {
  // Not app.help(), which gives the help of the command parsed (help's own).
  return app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal);
}

}  // namespace qjt::cli
