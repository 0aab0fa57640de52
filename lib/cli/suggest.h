// Usage errors that name the word qjt did not understand and suggest the
// closest it knows, from the CLI11 app's own subcommand and option names,
// so that the suggestions cannot drift from the commands:
//   unknown command 'dmp'; did you mean 'dump'?
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "closest_name.h"

namespace qjt::cli {

// Every name and alias of `app`'s subcommands.
std::vector<std::string> command_names(const CLI::App& app);
// Every long and short option name of `command`, with its dashes.
std::vector<std::string> option_names(const CLI::App& command);

// "unknown WHAT 'WORD'; did you mean 'NAME'?", or without a close name
// "unknown WHAT 'WORD' (see HELP)".
std::string unknown(std::string_view what, std::string_view word, const std::vector<std::string>& names,
                    std::string_view help);

// The subcommand of `app` named `name` or aliased so; null when none is.
const CLI::App* find_command(const CLI::App& app, std::string_view name);

}  // namespace qjt::cli
