// qjt convert: being written (issue 3); registers nothing yet.
#include "commands.h"

namespace qjt::app {

void add_convert_command(CLI::App*, ExitCode*) {}

}  // namespace qjt::app
