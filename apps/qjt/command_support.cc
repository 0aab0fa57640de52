// Options and output handling shared by the subcommands.
#include <fmt/format.h>

#include "commands.h"

namespace qjt::app {

CLI::Option* add_data_option(CLI::App* command, std::string* mode_name) {
  return command
      ->add_option("--data", *mode_name,
                   "Payload rendering: text (UTF-8 as data, else data_b64), base64, hex, none")
      ->check(CLI::IsMember({"text", "base64", "hex", "none"}));
}

void add_journal_selection(CLI::App* command, std::vector<std::string>* paths, std::string* queue) {
  command->add_option("path", *paths,
                      "Journal file(s) (one stream), a queue directory, - for stdin, or Flume files");
  command->add_option("--queue", *queue, "In a directory, only this queue");
}

ExitCode finish_output(Output* out, ExitCode status) {
  out->flush();
  if (!out->failed()) return status;
  fmt::print(stderr, "qjt: cannot write to standard output\n");
  return worse(status, ExitCode::kIoError);
}

}  // namespace qjt::app
