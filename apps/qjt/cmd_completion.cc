// qjt completion bash|zsh|fish: the shell completion script, printed on
// standard output. It is written from the CLI11 definition itself (the
// commands, their aliases, every option, and the values of options and
// operands whose check is a fixed set, such as --data, --format, --op,
// --corrupt and help's topics), so it cannot fall behind the CLI;
// the build writes the three scripts into the build tree and `cmake
// --install` puts them where each shell looks.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "command_support.h"
#include "command_table.h"
#include "value_set.h"

namespace qjt::cli {
namespace {

// One option as a shell sees it: its spellings, and what follows it.
struct OptionSpec {
  std::vector<std::string> names{};  // "-q", "--quiet"
  std::string help{};
  bool takes_value = false;
  bool repeats = false;
  std::vector<std::string> values{};  // the fixed set it accepts; empty: any (a file)
};

// One command: its names, options, and what its operands are.
struct CommandSpec {
  std::string name{};
  std::vector<std::string> aliases{};
  std::string help{};
  std::vector<OptionSpec> options{};
  bool operands = false;              // takes PATH or other operands
  std::vector<std::string> values{};  // the fixed set its operand is one of; empty: files
};

// The set of a value_set check (value_set.h), which CLI11 shows in the
// option's type name as "TEXT:{a,b,c}"; empty when there is none.
std::vector<std::string> member_values(const CLI::Option& option) {
  const std::string type = option.get_type_name();
  const auto open = type.find(":{");
  const auto close = type.find('}', open);
  if (open == std::string::npos || close == std::string::npos) return {};
  std::vector<std::string> values;
  std::string list = type.substr(open + 2, close - open - 2);
  for (std::size_t start = 0; start <= list.size();) {
    const auto comma = std::min(list.find(',', start), list.size());
    if (comma > start) values.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return values;
}

// The options of `command` and of its option groups (each family's options
// are a group: an unnamed CLI11 subcommand), into *spec.
void collect_options(const CLI::App& command, CommandSpec* spec) {
  for (const CLI::Option* option : command.get_options()) {
    if (option->get_positional()) {
      spec->operands = true;
      spec->values = member_values(*option);
      continue;
    }
    OptionSpec o{.help = option->get_description(),
                 .takes_value = option->get_expected_max() > 0,  // a flag expects none
                 .repeats = option->get_expected_max() > 1,
                 .values = member_values(*option)};
    for (const std::string& s : option->get_snames()) o.names.push_back("-" + s);
    for (const std::string& l : option->get_lnames()) o.names.push_back("--" + l);
    spec->options.push_back(std::move(o));
  }
  for (const CLI::App* group : command.get_subcommands({}))
    if (group->get_name().empty()) collect_options(*group, spec);
}

CommandSpec describe(const CLI::App& command) {
  CommandSpec spec{.name = command.get_name(), .aliases = command.get_aliases(), .help = command.get_description()};
  collect_options(command, &spec);
  return spec;
}

std::string words(const std::vector<std::string>& list) { return fmt::format("{}", fmt::join(list, " ")); }

std::vector<std::string> command_names(const CommandSpec& c) {
  std::vector<std::string> names{c.name};
  names.insert(names.end(), c.aliases.begin(), c.aliases.end());
  return names;
}

std::vector<std::string> option_names(const CommandSpec& c) {
  std::vector<std::string> names;
  for (const OptionSpec& o : c.options) names.insert(names.end(), o.names.begin(), o.names.end());
  return names;
}

// ---- bash ---------------------------------------------------------------

// The arms of a bash `case` for the options of `c` that take a value, one
// per spelling, each PREFIX followed by the name: their fixed set in
// $values, or `return 0` for a file.
std::string bash_values_case(const CommandSpec& c, std::string_view prefix, std::string_view indent) {
  std::string arms;
  for (const OptionSpec& o : c.options) {
    if (!o.takes_value) continue;
    for (const std::string& name : o.names) {
      arms += o.values.empty() ? fmt::format("{}{}{}) return 0 ;;\n", indent, prefix, name)
                               : fmt::format("{}{}{}) values='{}' ;;\n", indent, prefix, name, words(o.values));
    }
  }
  return arms;
}

// The loop's arm that steps over the value of an option before the
// command (--color never, or --color = never as bash splits it).
std::string bash_skip_values_case(const CommandSpec& top) {
  std::vector<std::string> names;
  for (const OptionSpec& o : top.options)
    if (o.takes_value) names.insert(names.end(), o.names.begin(), o.names.end());
  if (names.empty()) return "";
  return fmt::format("      {}) [[ ${{COMP_WORDS[i+1]}} == '=' ]] && ((i++)); ((i++)) ;;\n", fmt::join(names, "|"));
}

std::string bash_script(const CommandSpec& top, const std::vector<CommandSpec>& commands) {
  std::vector<std::string> first = option_names(top);
  std::string options_case, values_case, operands_case;
  for (const CommandSpec& c : commands) {
    for (const std::string& name : command_names(c)) first.push_back(name);
    options_case +=
        fmt::format("    {}) cmd={}; opts='{}' ;;\n", fmt::join(command_names(c), "|"), c.name, words(option_names(c)));
    values_case += bash_values_case(c, c.name + ":", "    ");
    if (!c.values.empty()) operands_case += fmt::format("      {}) values='{}' ;;\n", c.name, words(c.values));
  }
  return fmt::format(R"(# bash completion for qjt, written by `qjt completion bash`.
# Operands and option values that are not a fixed set complete as file
# names (complete -o default).
_qjt() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}}
  local i cmd='' opts='' values=''
  # bash splits --opt=value into --opt, = and value.
  if [[ $cur == '=' ]]; then
    cur=''
  elif [[ $prev == '=' ]]; then
    prev=${{COMP_WORDS[COMP_CWORD-2]}}
  fi
  for ((i = 1; i < COMP_CWORD; i++)); do
    case ${{COMP_WORDS[i]}} in
{}      -*) ;;
      *) cmd=${{COMP_WORDS[i]}}; break ;;
    esac
  done
  if [[ -z $cmd ]]; then
    case $prev in
{}      *) values='{}' ;;
    esac
    COMPREPLY=($(compgen -W "$values" -- "$cur"))
    return 0
  fi
  case $cmd in
{}    *) return 0 ;;
  esac
  case $cmd:$prev in
{}  esac
  if [[ -z $values && $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    return 0
  fi
  if [[ -z $values ]]; then
    case $cmd in
{}    esac
  fi
  [[ -n $values ]] && COMPREPLY=($(compgen -W "$values" -- "$cur"))
  return 0
}}
complete -o default -F _qjt qjt
)",
                     bash_skip_values_case(top), bash_values_case(top, "", "      "), words(first), options_case,
                     values_case, operands_case);
}

// ---- zsh ----------------------------------------------------------------

// Text inside single quotes.
std::string zsh_quoted(const std::string& text) {
  std::string out;
  for (const char ch : text) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out;
}

// Text inside a single-quoted _arguments spec's [description].
std::string zsh_help(const std::string& text) {
  std::string out;
  for (const char ch : text) {
    if (ch == '[' || ch == ']' || ch == ':' || ch == '\\') out += '\\';
    out += ch;
  }
  return zsh_quoted(out);
}

std::string zsh_action(const std::vector<std::string>& values) {
  return values.empty() ? "_files" : fmt::format("({})", words(values));
}

std::string zsh_option_specs(const CommandSpec& c, const char* indent) {
  std::string specs;
  for (const OptionSpec& o : c.options) {
    for (const std::string& name : o.names) {
      const bool is_long = name.starts_with("--");
      specs += fmt::format("{}'{}{}{}[{}]", indent, o.repeats ? "*" : "", name, o.takes_value && is_long ? "=" : "",
                           zsh_help(o.help));
      if (o.takes_value) specs += fmt::format(":{}:{}", name.substr(is_long ? 2 : 1), zsh_action(o.values));
      specs += "' \\\n";
    }
  }
  return specs;
}

std::string zsh_script(const CommandSpec& top, const std::vector<CommandSpec>& commands) {
  std::string described, cases;
  for (const CommandSpec& c : commands) {
    for (const std::string& name : command_names(c))
      described += fmt::format("    '{}:{}'\n", name, zsh_quoted(c.help));
    std::string operands =
        c.operands ? fmt::format("        '*:operand:{}' \\\n", zsh_action(c.values)) : std::string();
    cases += fmt::format("      {})\n        _arguments -s \\\n{}{}        && ret=0 ;;\n",
                         fmt::join(command_names(c), "|"), zsh_option_specs(c, "        "), operands);
  }
  return fmt::format(R"(#compdef qjt
# zsh completion for qjt, written by `qjt completion zsh`.
_qjt() {{
  local curcontext=$curcontext state line ret=1
  local -a commands
  commands=(
{}  )
  _arguments -C \
{}    '1:command:->command' \
    '*::argument:->argument' && ret=0
  case $state in
    command)
      _describe -t commands 'qjt command' commands && ret=0 ;;
    argument)
      curcontext=${{curcontext%:*:*}}:qjt-$words[1]:
      case $words[1] in
{}      esac ;;
  esac
  return ret
}}
_qjt "$@"
)",
                     described, zsh_option_specs(top, "    "), cases);
}

// ---- fish ---------------------------------------------------------------

std::string fish_quote(const std::string& text) {
  std::string out = "'";
  for (const char ch : text) {
    if (ch == '\'' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "'";
}

// "complete -c qjt -n CONDITION" plus -s/-l for each name of `o`, what
// follows it, and its description.
std::string fish_option(const std::string& condition, const OptionSpec& o) {
  std::string line = fmt::format("complete -c qjt -n {}", fish_quote(condition));
  for (const std::string& name : o.names)
    line += name.starts_with("--") ? fmt::format(" -l {}", name.substr(2)) : fmt::format(" -s {}", name.substr(1));
  if (o.takes_value) line += o.values.empty() ? " -r -F" : fmt::format(" -x -a {}", fish_quote(words(o.values)));
  return line + fmt::format(" -d {}\n", fish_quote(o.help));
}

std::string fish_script(const CommandSpec& top, const std::vector<CommandSpec>& commands) {
  std::string script =
      "# fish completion for qjt, written by `qjt completion fish`.\n"
      "complete -c qjt -f\n";
  for (const OptionSpec& o : top.options) script += fish_option("__fish_use_subcommand", o);
  for (const CommandSpec& c : commands) {
    for (const std::string& name : command_names(c)) {
      script += fmt::format("complete -c qjt -n __fish_use_subcommand -a {} -d {}\n", name, fish_quote(c.help));
    }
    const std::string condition = fmt::format("__fish_seen_subcommand_from {}", words(command_names(c)));
    for (const OptionSpec& o : c.options) script += fish_option(condition, o);
    if (c.operands) {
      script += c.values.empty()
                    ? fmt::format("complete -c qjt -n {} -F\n", fish_quote(condition))
                    : fmt::format("complete -c qjt -n {} -a {}\n", fish_quote(condition), fish_quote(words(c.values)));
    }
  }
  return script;
}

}  // namespace

void add_completion_command(CLI::App* app, std::string_view name, ExitCode* status) {
  auto* command = app->add_subcommand(std::string(name), "Print the bash, zsh or fish completion script of qjt");
  auto shell = std::make_shared<std::string>();
  command->add_option("shell", *shell, "The shell: bash, zsh or fish")
      ->required()
      ->check(value_set({"bash", "zsh", "fish"}));
  command->callback([app, shell, status] {
    const CommandSpec top = describe(*app);
    std::vector<CommandSpec> commands;
    for (const CLI::App* sub : app->get_subcommands({}))
      if (!sub->get_name().empty()) commands.push_back(describe(*sub));
    Output out;
    if (*shell == "bash") out.write(bash_script(top, commands));
    if (*shell == "zsh") out.write(zsh_script(top, commands));
    if (*shell == "fish") out.write(fish_script(top, commands));
    *status = finish_output(&out, ExitCode::kOk);
  });
}

}  // namespace qjt::cli
