// Unit tests for lib/cli/suggest.h and value_set.h: the edit distance that
// counts a swap of neighbours as one edit, the closest word, and the one
// check of values from a fixed set, with its message and its set in --help.
#include <doctest/doctest.h>

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "suggest.h"
#include "value_set.h"

using namespace qjt;
using namespace qjt::cli;

namespace {

// The message of parsing `args` (reversed, as CLI11 takes them) with `app`;
// "" when it parses.
std::string parse_error(CLI::App* app, std::vector<std::string> args) {
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app->parse(reversed);
  } catch (const CLI::ParseError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("suggest: edit distance counts a swap of two neighbours as one edit") {
  CHECK(edit_distance("repair", "repair") == 0);
  CHECK(edit_distance("repiar", "repair") == 1);
  CHECK(edit_distance("repiar", "replay") == 2);
  CHECK(edit_distance("", "dump") == 4);
  CHECK(edit_distance("dump", "") == 4);
  CHECK(edit_distance("dmp", "dump") == 1);
  CHECK(edit_distance("kestral", "kestrel") == 1);
  CHECK(edit_distance("ab", "ba") == 1);
  CHECK(edit_distance("abcd", "badc") == 2);
  // Optimal string alignment: no substring is edited twice, so "ca" is
  // three edits from "abc", not the two of unrestricted Damerau.
  CHECK(edit_distance("ca", "abc") == 3);
}

TEST_CASE("suggest: the closest name, only when close enough") {
  const std::vector<std::string> commands{"dump", "verify", "replay", "stats", "compact", "roll", "repair"};
  CHECK(closest("repiar", commands) == "repair");
  CHECK(closest("rpelay", commands) == "replay");
  CHECK(closest("dmp", commands) == "dump");
  CHECK(closest("xyz", commands).empty());
  CHECK(closest("yes", {"auto", "always", "never"}).empty());
  CHECK(closest("json", {"jsonl", "kestrel", "kestrel2"}) == "jsonl");
}

TEST_CASE("value set: a word out of the set is refused with the closest, or the set") {
  CLI::App app;
  std::string colour, format;
  app.add_option("--color", colour)->check(value_set({"auto", "always", "never"}));
  app.add_option("--format", format)->check(value_set({"auto", "kestrel", "flume", "libkestrel", "canal"}));
  CHECK(parse_error(&app, {"--color", "never", "--format", "kestrel"}).empty());
  CHECK(parse_error(&app, {"--format", "kestral"}) == "--format: unknown value 'kestral'; did you mean 'kestrel'?");
  CHECK(parse_error(&app, {"--color", "yes"}) == "--color: unknown value 'yes' (expected auto, always or never)");
  CHECK(unknown_value("flpi", {"truncate", "flip", "garbage"}) == "unknown value 'flpi'; did you mean 'flip'?");
}

TEST_CASE("value set: letter case ignored, and the closest in its own spelling") {
  CLI::App app;
  std::vector<std::string> ops;
  app.add_option("--op", ops)->delimiter(',')->check(value_set({"ADD", "ADDX", "put", "PUT"}, LetterCase::kIgnored));
  CHECK(parse_error(&app, {"--op", "addx,Put"}).empty());
  CHECK(parse_error(&app, {"--op", "ADD,adxx"}) == "--op: unknown value 'adxx'; did you mean 'ADDX'?");
  CHECK(parse_error(&app, {"--op", "zzzzzz"}) == "--op: unknown value 'zzzzzz' (expected ADD, ADDX or put)");
}

TEST_CASE("value set: shown in --help as a set, made when first needed") {
  CLI::App app;
  std::string topic;
  int made = 0;
  CLI::Option* option = app.add_option("topic", topic)->check(value_set([&made] {
    ++made;
    return std::vector<std::string>{"dump", "formats", "dump"};
  }));
  CHECK(made == 0);
  CHECK(option->get_type_name() == "TEXT:{dump,formats}");
  CHECK(parse_error(&app, {"formtas"}) == "topic: unknown value 'formtas'; did you mean 'formats'?");
  CHECK(made == 1);
}
