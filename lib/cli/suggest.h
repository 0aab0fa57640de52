// Usage errors that name the word qjt did not understand and suggest the
// closest it knows, from the CLI11 app's own subcommand and option names,
// so that the suggestions cannot drift from the commands:
//   unknown command 'dmp'; did you mean 'dump'?
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace qjt::cli {

// The edits that turn `a` into `b`: inserting, deleting or replacing a
// character, or swapping two neighbours (optimal string alignment, the
// Damerau-Levenshtein distance without editing a substring twice), each
// one edit: a swapped pair is the commonest typo (repiar for repair).
std::size_t edit_distance(std::string_view a, std::string_view b);

// The name in `names` closest to `word` by edit distance, or "" when none
// is close enough to be what the user meant.
std::string closest(std::string_view word, const std::vector<std::string>& names);

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
