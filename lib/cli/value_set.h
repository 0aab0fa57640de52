// The values of an option or operand that takes one of a fixed set of words
// (--color, --data, --format, --op, --to, --corrupt, gen's FORMAT, help's
// COMMAND, ...), checked by one validator, so that each refuses a word out
// of its set alike (exit 2), with the closest word of the set:
//   qjt dump: --format: unknown value 'kestral'; did you mean 'kestrel'?
//   qjt dump: --color: unknown value 'yes' (expected auto, always or never)
// The set shows in --help as CLI11's own IsMember shows it, after the type
// ("TEXT:{auto,always,never}"), which is where the completion scripts
// (cmd_completion.cc) read it: a set given here completes on TAB too.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace qjt::cli {

enum class LetterCase {
  kExact,
  kIgnored,  // --op addx is ADDX
};

// The validator of values in `values`, a function called when the set is
// first needed (help's topics are the commands, known once all are added).
// A word listed twice counts once (with kIgnored, its first spelling).
CLI::Validator value_set(std::function<std::vector<std::string>()> values, LetterCase letters = LetterCase::kExact);
CLI::Validator value_set(std::vector<std::string> values, LetterCase letters = LetterCase::kExact);

// Why `word` is none of `values`, as the validator says it (without the
// option's name, which CLI11 puts first): for a check made after parsing,
// against the set of one family, say.
std::string unknown_value(std::string_view word, const std::vector<std::string>& values,
                          LetterCase letters = LetterCase::kExact);

}  // namespace qjt::cli
