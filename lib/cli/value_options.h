// Options whose values have one form across qjt (issue: "Formats of
// values"): every option that takes a time reads it by lib/time_value.h,
// every byte offset is decimal or 0x hexadecimal, and the display options
// every command shares (--tz, --local-time, --json-big-numbers) set the process-
// wide renderings before the command runs. A value that is none of the
// accepted forms is a usage error (exit 2) naming the option and the forms.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace qjt::cli {

// `name` taking a time (time_value.h), stored in *ms as epoch milliseconds.
CLI::Option* add_time_option(CLI::App* command, const std::string& name, std::optional<std::int64_t>* ms,
                             const std::string& what);

// `name` taking a byte offset, decimal or 0x hexadecimal.
CLI::Option* add_offset_option(CLI::App* command, const std::string& name, std::optional<std::uint64_t>* offset,
                               const std::string& what);

// A byte offset in the forms add_offset_option takes; nullopt otherwise.
std::optional<std::uint64_t> parse_offset(const std::string& text);

// --tz ZONE (the run's local zone, time_value.h set_local_zone), --local-time
// and --json-big-numbers=string|number.
void add_value_display_options(CLI::App* command);

}  // namespace qjt::cli
