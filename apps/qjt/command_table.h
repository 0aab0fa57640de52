// The commands of qjt, one row each (as git's table of builtins), in the
// order qjt --help lists them. Each command lives in its own cmd_NAME.cc:
// its add function registers the command under the row's name, with its
// own options, and stores its exit status in *status when it runs. The work
// itself is done by lib/ and formats/. A command the families answer names
// its capability (lib/cli/capability.h) by that same name; a driver takes
// part by providing it. A new command is its cmd_NAME.cc, a row here and
// its manual page.
#pragma once

#include <CLI/CLI.hpp>

#include <span>
#include <string_view>
#include <vector>

#include "exit_code.h"

namespace qjt::cli {

// What main() adds to a command beside its own options. Every command also
// takes the options of add_global_options (command_support.h).
enum CommandTakes : unsigned {
  kReadsInputs = 1U << 0,  // --max-input, --all-findings
  kShowsValues = 1U << 1,  // --local-time, --json-big-numbers (value_options.h)
  // The families answer it through their capability of the command's name:
  // a column of `qjt help formats`.
  kByFamilies = 1U << 3,
  // -j N: its PATH groups run as jobs, several at once (lib/cli/jobs.h).
  kRunsJobs = 1U << 4,
  // --max-depth N, --exclude GLOB: a directory PATH is walked
  // (lib/cli/path_walk.h).
  kWalksPaths = 1U << 5,
};

using AddCommand = void (*)(CLI::App* app, std::string_view name, ExitCode* status);

struct CommandRow {
  std::string_view name;
  AddCommand add;  // adds the command named `name` and its own options
  unsigned takes;  // CommandTakes
};

void add_dump_command(CLI::App* app, std::string_view name, ExitCode* status);
void add_verify_command(CLI::App* app, std::string_view name, ExitCode* status);
void add_replay_command(CLI::App* app, std::string_view name, ExitCode* status);
void add_stats_command(CLI::App* app, std::string_view name, ExitCode* status);
void add_compact_command(CLI::App* app, std::string_view name, ExitCode* status);
void add_convert_command(CLI::App* app, std::string_view name, ExitCode* status);
void add_repair_command(CLI::App* app, std::string_view name, ExitCode* status);
void add_gen_command(CLI::App* app, std::string_view name, ExitCode* status);
void add_help_command(CLI::App* app, std::string_view name, ExitCode* status);
void add_completion_command(CLI::App* app, std::string_view name, ExitCode* status);

// The table.
std::span<const CommandRow> command_table();

// The names of the commands the families answer, in the table's order.
std::vector<std::string_view> family_commands();

}  // namespace qjt::cli
