#include "parse_errors.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string_view>

#include "suggest.h"

namespace qjt::cli {
namespace {

// What an option of type `type` (CLI11's type name, or the option text
// qjt gave it) takes, in words.
std::string takes(std::string_view type) {
  if (type == "FLOAT") return "a number";
  if (type == "INT") return "a whole number";
  if (type == "UINT") return "a whole number of 0 or more";
  if (type.empty() || type == "TEXT") return "a value";
  return fmt::format("a {}", type);
}

std::string type_of(const CLI::App* command, const std::string& name) {
  const CLI::Option* option = command ? command->get_option_no_throw(name) : nullptr;
  return option ? option->get_type_name() : "";
}

// The text of `message` between `before` and `after` (to its end when
// `after` is empty); nullopt when `message` is not of that shape.
std::optional<std::string> between(std::string_view message, std::string_view before, std::string_view after) {
  if (!message.starts_with(before)) return std::nullopt;
  message.remove_prefix(before.size());
  if (after.empty()) return std::string(message);
  const std::size_t end = message.find(after);
  if (end == std::string_view::npos) return std::nullopt;
  return std::string(message.substr(0, end));
}

// CLI11's "NAME: REST" messages, split.
bool split_name(std::string_view message, std::string* name, std::string* rest) {
  const std::size_t colon = message.find(": ");
  if (colon == std::string_view::npos || !message.starts_with("-")) return false;
  *name = message.substr(0, colon);
  *rest = message.substr(colon + 2);
  return true;
}

std::string conversion(const std::string& message, const CLI::App* command) {
  if (auto what = between(message, "Could not convert: ", "")) {
    const std::size_t eq = what->find(" = ");
    if (eq != std::string::npos) {
      const std::string name = what->substr(0, eq);
      return fmt::format("{} takes {}, not '{}'", name, takes(type_of(command, name)), what->substr(eq + 3));
    }
  }
  if (auto value = between(message, "The value ", " is not an allowed value for ")) {
    const std::string name = message.substr(message.rfind(' ') + 1);
    return fmt::format("{} takes {}, not '{}'", name, takes(type_of(command, name)), *value);
  }
  std::string name, rest;
  if (split_name(message, &name, &rest)) return fmt::format("{} is a flag and takes no value", name);
  return message;
}

std::string mismatch(const std::string& message) {
  std::string name, rest;
  if (split_name(message, &name, &rest)) {
    if (auto most = between(rest, "At Most ", " required but received ")) {
      const std::string received = rest.substr(rest.rfind(' ') + 1);
      return *most == "1" ? fmt::format("{} was given {} times; it takes one value", name, received)
                          : fmt::format("{} was given {} values; it takes at most {}", name, received, *most);
    }
    if (auto least = between(rest, "At least ", " required but received ")) {
      return fmt::format("{} takes at least {} value(s), got {}", name, *least, rest.substr(rest.rfind(' ') + 1));
    }
    if (rest.ends_with(" missing")) return fmt::format("{} needs a value", name);
  }
  if (auto expected = between(message, "Expected exactly ", " arguments to ")) {
    const std::string tail = message.substr(message.find(" arguments to ") + 14);
    const std::size_t comma = tail.rfind(", got ");
    if (comma != std::string::npos)
      return fmt::format("{} takes {} value(s), got {}", tail.substr(0, comma), *expected, tail.substr(comma + 6));
  }
  return message;
}

// "[--a,--b]" of RequiredError's option groups as "--a or --b".
std::string one_of(std::string list) {
  std::string words;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    if (!words.empty()) words += " or ";
    words += list.substr(start, comma - start);
    start = comma + 1;
  }
  return words;
}

std::string required(const std::string& message) {
  const std::size_t open = message.find('[');
  const std::size_t close = message.rfind(']');
  if (open != std::string::npos && close != std::string::npos && close > open) {
    const std::string options = one_of(message.substr(open + 1, close - open - 1));
    if (message.find("at most") != std::string::npos || message.find("were given") != std::string::npos)
      return fmt::format("give only one of {}", options);
    return fmt::format("give one of {}", options);
  }
  return message;
}

std::string requires_or_excludes(const std::string& message) {
  if (const std::size_t at = message.find(" requires "); at != std::string::npos)
    return fmt::format("{} needs {} as well", message.substr(0, at), message.substr(at + 10));
  if (const std::size_t at = message.find(" excludes "); at != std::string::npos)
    return fmt::format("{} and {} cannot be given together", message.substr(0, at), message.substr(at + 10));
  return message;
}

// An argument the command does not take, named with the closest option it
// has.
std::string extra(const CLI::App& command, const std::string& help) {
  const std::string word = command.remaining().front();
  if (!word.starts_with("-")) return fmt::format("unexpected argument '{}' (see {})", word, help);
  return unknown("option", word.substr(0, word.find('=')), option_names(command), help);
}

}  // namespace

std::string parse_error_sentence(const CLI::ParseError& e, const CLI::App* command) {
  const std::string help = command ? fmt::format("qjt {} --help", command->get_name()) : "qjt --help";
  const std::string message = e.what();
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr && command != nullptr && !command->remaining().empty())
    return extra(*command, help);
  // qjt's own validators speak for themselves ("--limit: expected 0 or
  // more, found -1", "did you mean ...").
  if (dynamic_cast<const CLI::ValidationError*>(&e) != nullptr) return message;
  std::string sentence = message;
  if (dynamic_cast<const CLI::ConversionError*>(&e) != nullptr) {
    sentence = conversion(message, command);
  } else if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr) {
    sentence = mismatch(message);
  } else if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr) {
    sentence = required(message);
  } else if (dynamic_cast<const CLI::RequiresError*>(&e) != nullptr ||
             dynamic_cast<const CLI::ExcludesError*>(&e) != nullptr) {
    sentence = requires_or_excludes(message);
  }
  return fmt::format("{} (see {})", sentence, help);
}

std::string flag_value_error(const CLI::App& app, int argc, char** argv, std::string* command_name) {
  const CLI::App* command = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word == "--") return "";
    if (command == nullptr) {
      if (!word.starts_with("-") && (command = find_command(app, word)) != nullptr) *command_name = command->get_name();
      continue;
    }
    const std::size_t eq = word.find('=');
    if (!word.starts_with("--") || eq == std::string_view::npos) continue;
    const std::string name(word.substr(0, eq));
    const CLI::Option* option = command->get_option_no_throw(name);
    if (option != nullptr && option->get_expected_max() == 0)
      return fmt::format("{} is a flag and takes no value: give {}, not {} (see qjt {} --help)", name, name, word,
                         command->get_name());
  }
  return "";
}

}  // namespace qjt::cli
