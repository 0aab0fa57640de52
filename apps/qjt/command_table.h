// The subcommands of qjt. Each lives in its own cmd_<name>.cc, registers
// its options on the CLI11 app and stores its exit status in *status when
// it runs. The work itself is done by lib/ and formats/.
#pragma once

#include <CLI/CLI.hpp>

#include "exit_code.h"

namespace qjt::cli {

void add_dump_command(CLI::App* app, ExitCode* status);
void add_verify_command(CLI::App* app, ExitCode* status);
void add_replay_command(CLI::App* app, ExitCode* status);
void add_compact_command(CLI::App* app, ExitCode* status);
void add_convert_command(CLI::App* app, ExitCode* status);
void add_repair_command(CLI::App* app, ExitCode* status);
void add_gen_command(CLI::App* app, ExitCode* status);
void add_help_command(CLI::App* app, ExitCode* status);
void add_completion_command(CLI::App* app, ExitCode* status);

}  // namespace qjt::cli
