// CLI11's parse errors in qjt's words. CLI11 speaks of itself ("Could not
// convert: --if-overflow = abc", "At Most 1 required but received 2");
// a user needs the option named, what it takes, and where to read more:
//   --if-overflow takes a number (FLOAT), not 'abc' (see qjt compact --help)
//   --output was given 2 times; it takes one value (see qjt stats --help)
// And CLI11 takes a flag with a value (--json=yes, --json=0) as true or
// false, silently: qjt refuses it, since --json=no would still be read as
// a request for JSON by anything that looks for the word.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace qjt::cli {

// The sentence for a parse error `e` of `command` (null when none was
// being parsed).
std::string parse_error_sentence(const CLI::ParseError& e, const CLI::App* command);

// The usage error of a flag given a value ("--json=yes") among argv's
// words after the command (whose name goes to `command`), "" when there is
// none.
std::string flag_value_error(const CLI::App& app, int argc, char** argv, std::string* command_name);

}  // namespace qjt::cli
