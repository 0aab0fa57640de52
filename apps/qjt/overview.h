// The overview of qjt, as git's: what `qjt --help` and `qjt help` print,
// and what `qjt` alone prints on standard error after "expected a command".
// Its usage line, the options qjt takes before the command, each command
// with its one-line purpose (from the CLI definition, so that none can be
// left out), the exit statuses, and where to read on.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace qjt::cli {

// Sets up what the overview adds to CLI11's help of `app`: the commands
// under "Commands:", then the exit statuses and the help topics. Call once,
// after every command is added.
void describe_qjt(CLI::App* app);

// The overview of `app` (qjt itself), whatever command was parsed.
std::string overview(const CLI::App& app);

}  // namespace qjt::cli
