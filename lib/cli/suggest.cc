#include "suggest.h"

#include <algorithm>

#include <fmt/format.h>

namespace qjt::cli {

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands({})) {
    names.push_back(sub->get_name());
    for (const std::string& alias : sub->get_aliases()) names.push_back(alias);
  }
  return names;
}

std::vector<std::string> option_names(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::Option* option : command.get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    for (const std::string& name : option->get_snames()) names.push_back("-" + name);
  }
  return names;
}

std::string unknown(std::string_view what, std::string_view word, const std::vector<std::string>& names,
                    std::string_view help) {
  const std::string near = closest(word, names);
  if (near.empty()) return fmt::format("unknown {} '{}' (see {})", what, word, help);
  return fmt::format("unknown {} '{}'; did you mean '{}'?", what, word, near);
}

const CLI::App* find_command(const CLI::App& app, std::string_view name) {
  for (const CLI::App* sub : app.get_subcommands({}))
    if (sub->check_name(std::string(name))) return sub;
  return nullptr;
}

}  // namespace qjt::cli
