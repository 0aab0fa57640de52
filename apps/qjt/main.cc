// qjt: inspect and repair the journals and checkpoints of message queues.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "build_commit.h"
#include "byte_size.h"
#include "command_support.h"
#include "command_table.h"
#include "finding.h"
#include "input_file.h"
#include "interrupt.h"
#include "overview.h"
#include "parse_errors.h"
#include "progress.h"
#include "run_context.h"
#include "suggest.h"
#include "value_options.h"

#ifndef QJT_VERSION
#define QJT_VERSION "unknown"
#endif

namespace {

// What a bare `qjt` is told, before the overview.
constexpr std::string_view kNoCommand = "expected a command";

// qjt --version: the version, then the commit qjt was built from.
std::string version_text() {
  const std::string_view commit = qjt::build_commit();
  std::string text = fmt::format("qjt {}\ncommit {}", QJT_VERSION, commit);
  if (commit == "unknown") return text + " (not built from a git checkout)";
  if (commit.ends_with('+')) return text.substr(0, text.size() - 1) + " with changes not committed";
  return text;
}

// --max-input SIZE on every command that reads inputs: how much of a stream
// (standard input, a FIFO, a device) is read before qjt stops with an
// input_too_large finding. Set as it is parsed, before the command runs.
void add_max_input_option(CLI::App* command) {
  command
      ->add_option_function<std::string>(
          "--max-input",
          [](const std::string& text) {
            const auto bytes = qjt::parse_byte_size(text);
            if (!bytes) throw CLI::ValidationError("--max-input", "expected a size such as 65536, 64K, 1M or 4G");
            qjt::InputFile::set_stream_limit(*bytes);
          },
          "Read at most SIZE bytes of standard input, a FIFO or a device (64K, 1M, 4G; default 4G)")
      ->type_name("SIZE");
}

// --all-findings on every command that reads inputs (and so may list
// findings): each finding as it came, none folded (FindingFolder).
void add_all_findings_option(CLI::App* command) {
  command->add_flag_callback(
      "--all-findings", [] { qjt::set_all_findings(true); },
      "List every finding, not one per cause with a count (nor at most 100 per code)");
}

// An option whose count N is a setting of the run (run_context.h), set as
// it is parsed, before the command runs.
template <typename Setting>
void add_count_option(CLI::App* command, const char* names, Setting qjt::RunSettings::*setting, const char* help) {
  command
      ->add_option_function<unsigned>(
          names, [setting](unsigned n) { qjt::RunContext::process().settings().*setting = n; }, help)
      ->type_name("N");
}

// -j N, --jobs N on every command that runs its inputs as jobs
// (lib/cli/jobs.h): how many at once; 0 is one per core.
void add_jobs_option(CLI::App* command) {
  add_count_option(command, "-j,--jobs", &qjt::RunSettings::jobs,
                   "Run up to N inputs (queues, channels, files) at once, 0 for one per core; the output is the same");
}

// --max-depth N on every command that walks its directory PATHs
// (lib/cli/path_walk.h): how many levels below a PATH the walk enters.
void add_max_depth_option(CLI::App* command) {
  add_count_option(command, "--max-depth", &qjt::RunSettings::max_depth,
                   "Walk at most N directory levels below a directory PATH (0: only the PATH itself)");
}

// --exclude GLOB, repeatable, beside --max-depth: what a walk passes over,
// as ripgrep's -g '!GLOB'.
void add_exclude_option(CLI::App* command) {
  command
      ->add_option_function<std::vector<std::string>>(
          "--exclude",
          [](const std::vector<std::string>& globs) {
            auto& excluded = qjt::RunContext::process().settings().excluded;
            excluded.insert(excluded.end(), globs.begin(), globs.end());
          },
          "Pass over the files and directories a walk finds whose base name, or path below the directory PATH, "
          "matches GLOB (repeatable)")
      ->type_name("GLOB")
      ->allow_extra_args(false);
}

// Adds the command of each row of the command table to `app`, with the
// options its row says it takes and those every command takes.
void add_commands(CLI::App* app, qjt::ExitCode* status) {
  using namespace qjt::cli;
  for (const CommandRow& row : command_table()) {
    row.add(app, row.name, status);
    CLI::App* command = app->get_subcommands({}).back();  // the one row.add added
    if ((row.takes & kReadsInputs) != 0) {
      add_max_input_option(command);
      add_all_findings_option(command);
    }
    if ((row.takes & kShowsValues) != 0) add_value_display_options(command);
    if ((row.takes & kRunsJobs) != 0) add_jobs_option(command);
    if ((row.takes & kWalksPaths) != 0) {
      add_max_depth_option(command);
      add_exclude_option(command);
    }
    add_global_options(command);
  }
}

// Files that shrank while the command read them (InputFile::change), and
// streams read on demand that stopped short of their end: one finding each
// on standard error, and at least exit status 1 (3 for a stream),
// whatever the command and family.
qjt::ExitCode report_changed_files(qjt::ExitCode status) {
  qjt::StderrReporter reporter;
  for (qjt::Finding& change : qjt::InputFile::take_changes()) {
    status = qjt::worse(status, qjt::InputFile::change_status(change));
    reporter.report(std::move(change));
  }
  return status;
}

// The usage error of the words before the command: "" when they are
// options every command takes (add_global_options_before_command), --help
// or --version, followed by a known command; kNoCommand when no command
// follows. Any other option there is refused with the closest one qjt
// knows.
std::string words_before_command_error(const CLI::App& app, int argc, char** argv) {
  const auto options = qjt::cli::option_names(app);
  int i = 1;
  for (; i < argc && std::string_view(argv[i]).starts_with("-"); ++i) {
    const std::string word = argv[i];
    const std::string name = word.substr(0, word.find('='));
    if (std::find(options.begin(), options.end(), name) == options.end())
      return qjt::cli::unknown("option", name, options, "qjt --help; a command's options follow the command");
    const CLI::Option* option = app.get_option(name);
    if (option == app.get_help_ptr() || option == app.get_version_ptr()) return "";
    if (option->get_expected_max() > 0 && name == word) ++i;  // --color never: its value
  }
  if (i >= argc) return std::string(kNoCommand);
  if (qjt::cli::find_command(app, argv[i]) != nullptr) return "";
  return qjt::cli::unknown("command", argv[i], qjt::cli::command_names(app), "qjt --help");
}

// The command whose arguments were being parsed; null before one was.
const CLI::App* parsed_command(const CLI::App& app) {
  for (const CLI::App* sub : app.get_subcommands({}))
    if (sub->parsed()) return sub;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  qjt::install_interrupt_handlers(argc, argv);
  CLI::App app{"qjt: inspect, verify, replay, compact and repair message-queue journals", "qjt"};
  app.set_version_flag("-V,--version", version_text(), "Print the version and the commit qjt was built from, and exit");
  app.require_subcommand(1);
  app.fallthrough(false);

  qjt::ExitCode status = qjt::ExitCode::kOk;
  add_commands(&app, &status);
  qjt::cli::add_global_options_before_command(&app);
  qjt::cli::describe_qjt(&app);

  // --json callers get their errors as JSON too, whatever stops the run.
  const bool json = std::any_of(argv + 1, argv + argc, [](const char* arg) { return std::strcmp(arg, "--json") == 0; });
  qjt::cli::set_json_errors(json);
  if (const std::string unknown = words_before_command_error(app, argc, argv); !unknown.empty()) {
    qjt::cli::usage_error("", unknown);
    if (unknown == kNoCommand) qjt::write_stderr("\n" + qjt::cli::overview(app));  // as git does
    return qjt::to_int(qjt::ExitCode::kUsage);
  }
  std::string flag_command;
  if (const std::string flag = qjt::cli::flag_value_error(app, argc, argv, &flag_command); !flag.empty())
    return qjt::to_int(qjt::cli::usage_error(flag_command, flag));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // prints the help (qjt's: the overview) or version
    const CLI::App* command = parsed_command(app);
    return qjt::to_int(
        qjt::cli::usage_error(command ? command->get_name() : "", qjt::cli::parse_error_sentence(e, command)));
  } catch (const std::exception& e) {
    // The last resort: no exception (std::bad_alloc included) ends qjt
    // with an abort and a core instead of a message and exit status 3.
    std::fflush(stdout);
    return qjt::to_int(qjt::cli::report_error("", qjt::ExitCode::kIoError, fmt::format("stopped: {}", e.what())));
  } catch (...) {
    std::fflush(stdout);
    return qjt::to_int(qjt::cli::report_error("", qjt::ExitCode::kIoError, "stopped: an unknown exception"));
  }
  qjt::Progress::clear();
  status = report_changed_files(status);
  // A command that failed before writing anything (an unreadable input, a
  // refusal told on stderr) still owes a --json caller JSON: one error
  // object, which is also a line of a stream's JSON Lines (dump, replay).
  const CLI::App* command = app.get_subcommands().front();
  if (json && status != qjt::ExitCode::kOk && !qjt::process_stdout_written())
    qjt::cli::write_error_json(command->get_name(), status,
                               "stopped before any output; the diagnostics are on standard error");
  return qjt::to_int(status);
}
