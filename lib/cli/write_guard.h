// The options of every command that changes a queue's files; what they
// govern is guarded_replace.h's.
#pragma once

#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "guarded_replace.h"

namespace qjt::cli {

inline constexpr std::string_view kForceInUse =
    "Go ahead although the files are open or locked, or the result would lose or revive items";

// `force_help`: what --force lets the command do.
void add_write_guard_options(CLI::App* command, WriteGuardOptions* options, std::string_view force_help = kForceInUse);

}  // namespace qjt::cli
