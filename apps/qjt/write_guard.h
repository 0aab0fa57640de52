// The options of every command that changes a queue's files; what they
// govern is guarded_replace.h's.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "guarded_replace.h"

namespace qjt::app {

void add_write_guard_options(CLI::App* command, WriteGuardOptions* options);

}  // namespace qjt::app
