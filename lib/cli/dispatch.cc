#include "dispatch.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <iterator>

#include <fmt/format.h>

#include "input_file.h"
#include "path_family.h"

namespace qjt::cli {
namespace {

bool usage(Command command, const std::string& message) {
  usage_error(command_name(command), message);
  return false;
}

std::string format_names(Registry drivers) {
  std::string names = "auto";
  for (const Driver* d : drivers) {
    names += fmt::format(", {}", d->name());
    for (std::string_view kind : d->kinds()) names += fmt::format(", {}", kind);
  }
  return names;
}

// What a run reads, for messages: its first PATH, or its family.
std::string input_of(const Assignment& run) {
  if (run.paths.empty()) return fmt::format("the input is {}", run.driver->name());
  return fmt::format("{} is a {} input", run.paths.front(), run.driver->name());
}

bool is_write(Command command) { return command == Command::kCompact || command == Command::kRepair; }

// An option of one family with the input of another, checked here once
// for every command.
bool options_match(const std::vector<Assignment>& runs, const FamilyOptions& options) {
  const bool write = is_write(options.command());
  for (const auto& [owner, option] : options.given())
    for (const Assignment& run : runs)
      if (run.driver != owner)
        return usage(options.command(),
                     fmt::format("{}{} is an option for {} ({}), but {}{}", write ? "refused: " : "", option,
                                 owner->name(), owner->title(), input_of(run), write ? "; nothing was changed" : ""));
  return true;
}

bool supported(const std::vector<Assignment>& runs, Command command) {
  for (const Assignment& run : runs) {
    if (!run.driver->does(command).empty()) continue;
    const std::string_view why = run.driver->why_not(command);
    return usage(command,
                 fmt::format("refused: {}, and {} does not take {} inputs{}{}; nothing was changed "
                             "(qjt help formats says which commands take each format)",
                             input_of(run), command_name(command), run.driver->name(), why.empty() ? "" : ": ", why));
  }
  return true;
}

// A filter for a field some run's family lacks.
bool filters_apply(const std::vector<Assignment>& runs, const ReadFilter& filter, Command command) {
  for (const Assignment& run : runs)
    if (const auto refusal = check_filter_fields(filter, run.driver->name(), run.driver->filter_fields()))
      return usage(command, *refusal);
  return true;
}

bool is_directory(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec);
}

// Classic Kestrel journals carry no magic: a write acts only on what a
// family proved its own (a directory never passes on weak evidence).
bool proven(const std::vector<Assignment>& runs, Command command) {
  bool ok = true;
  for (const Assignment& run : runs) {
    for (const auto& [path, evidence] : run.unproven) {
      if (run.driver->takes_unproven_files(command) && !is_directory(path)) continue;
      usage(command, fmt::format("refused: {} is not known to be a {} input ({}); nothing was changed "
                                 "(qjt help formats says which commands take each format)",
                                 path, run.driver->name(), evidence));
      ok = false;
    }
  }
  return ok;
}

// ", or ..." naming the options that name an input of their own.
std::string input_options(const FamilyOptions& options) {
  std::string text;
  for (const Driver* d : options.drivers())
    if (!d->input_options(options.command()).empty())
      text += fmt::format(", or {}", d->input_options(options.command()));
  return text;
}

// The drivers whose options were given and name an input of their own.
std::vector<Assignment> option_inputs(const FamilyOptions& options) {
  std::vector<Assignment> runs;
  for (const auto& given : options.given())
    if (given.first->options_name_input(options.command())) runs.push_back(Assignment{given.first, "", {}, {}});
  return runs;
}

// The directories among `paths`.
std::vector<std::string> directories(const std::vector<std::string>& paths) {
  std::vector<std::string> dirs;
  std::copy_if(paths.begin(), paths.end(), std::back_inserter(dirs), is_directory);
  return dirs;
}

// The directories where no family found anything: the unclaimed errors
// about a directory (the others are about files).
std::vector<std::string> empty_directories(const FindingList& unclaimed) {
  std::vector<std::string> files;
  for (const Finding& f : unclaimed.findings())
    if (f.severity == Severity::kError) files.push_back(f.file);
  return directories(files);
}

// Such directories stop any command before it reads or writes: one line
// each (an error object each with --json), and true. Under --format, the
// line names what that family looked for.
bool refuse_empty(Command command, const std::vector<std::string>& dirs, const FamilyOptions* forced = nullptr) {
  const Driver* family = forced == nullptr ? nullptr : find_driver(forced->drivers(), forced->format());
  for (const std::string& dir : dirs) {
    report_error(command_name(command), ExitCode::kIoError,
                 family == nullptr
                     ? fmt::format("no journal, channel or checkpoint found in {}", dir)
                     : fmt::format("no {} found in {} (--format {})", family->title(), dir, forced->format()));
  }
  return !dirs.empty();
}

// The PATHs that do not exist ("-" always does), as io_error findings.
FindingList missing_paths(const std::vector<std::string>& paths) {
  FindingList missing;
  for (const std::string& path : paths) {
    struct stat st {};
    if (path == "-" || ::stat(path.c_str(), &st) == 0 || errno != ENOENT) continue;
    missing.report(open_failure(path, ENOENT));
  }
  return missing;
}

// A verify of directories that found no file to read (temp files only)
// and no error but about the directories themselves: they are refused as
// empty ones are. Not with --queue or --format, whose family's absence is
// a finding of its own.
bool found_nothing(const ReadRequest& request, const Assignment& run, const VerifyTally& tally) {
  if (tally.files > 0 || !request.queue.empty() || request.format != "auto") return false;
  for (const Finding& f : tally.findings.findings())
    if (f.severity == Severity::kError && !is_directory(f.file)) return false;
  return refuse_empty(request.command, directories(run.paths));
}

}  // namespace

Driver* find_driver(Registry drivers, std::string_view name) {
  for (Driver* d : drivers) {
    const auto kinds = d->kinds();
    if (d->name() == name || std::find(kinds.begin(), kinds.end(), name) != kinds.end()) return d;
  }
  return nullptr;
}

std::string_view command_name(Command command) {
  switch (command) {
    case Command::kDump:
      return "dump";
    case Command::kVerify:
      return "verify";
    case Command::kReplay:
      return "replay";
    case Command::kCompact:
      return "compact";
    case Command::kConvert:
      return "convert";
    case Command::kRepair:
      return "repair";
  }
  return "";
}

FamilyOptions::FamilyOptions(CLI::App* command, Command which, Registry drivers) : command_(which), drivers_(drivers) {
  if (!is_write(which))
    command->add_option("--format", format_, fmt::format("How to read PATH: {}", format_names(drivers)));
  for (Driver* d : drivers) {
    const std::size_t before = command->get_options().size();
    d->add_options(which, command);
    std::vector<CLI::Option*> owned = command->get_options();
    owned.erase(owned.begin(), owned.begin() + static_cast<std::ptrdiff_t>(before));
    // Each family's options are a group of their own in --help.
    for (CLI::Option* option : owned) option->group(std::string(d->title()));
    groups_.emplace_back(d, std::move(owned));
  }
}

std::vector<std::pair<Driver*, std::string>> FamilyOptions::given() const {
  std::vector<std::pair<Driver*, std::string>> given;
  for (const auto& [driver, owned] : groups_) {
    for (const CLI::Option* option : owned) {
      if (option->count() == 0) continue;
      given.emplace_back(driver, option->get_name());
      break;
    }
  }
  return given;
}

std::optional<std::vector<Assignment>> assign(const std::vector<std::string>& paths, const FamilyOptions& options,
                                              Reporter* unclaimed) {
  const Command command = options.command();
  std::vector<Assignment> runs;
  Registry claimants = options.drivers();
  const auto given = options.given();
  Driver* owner = given.size() == 1 ? given.front().first : nullptr;
  Driver* forced = nullptr;  // outlives `claimants`, which may view it
  if (options.format() != "auto") {
    forced = find_driver(options.drivers(), options.format());
    if (forced == nullptr) {
      usage(command,
            fmt::format("unknown --format {}: expected {}", options.format(), format_names(options.drivers())));
      return std::nullopt;
    }
    // A kind forced: every PATH is of that kind. A family forced: its own
    // claims still tell the kinds it reads apart.
    if (forced->name() != options.format() || paths.empty()) runs.push_back(Assignment{forced, "", paths, {}});
    claimants = Registry(&forced, 1);
    owner = forced;
  }
  if (runs.empty()) {
    // A read reports the files no family can read; a write refuses them
    // (proven()); a family forced reads what it is given.
    Reporter* unreadable = is_write(command) || forced != nullptr ? nullptr : unclaimed;
    for (const PathGroup& g : group_by_family(paths, unclaimed, claimants, owner, unreadable))
      runs.push_back(Assignment{g.driver, g.key, is_write(command) ? g.paths : g.inputs, g.unproven});
  }
  if (paths.empty()) {
    auto named = option_inputs(options);
    if (named.empty() || (!runs.empty() && runs.front().driver != named.front().driver)) {
      usage(command, "no input: expected a PATH" + input_options(options));
      return std::nullopt;
    }
    runs = std::move(named);
  }
  if (!options_match(runs, options) || !supported(runs, command)) return std::nullopt;
  if (is_write(command) && !proven(runs, command)) return std::nullopt;
  return runs;
}

ExitCode run_read_command(ReadRequest request, const FamilyOptions& options) {
  if (request.command != Command::kVerify) {
    // Nothing on standard output for what is not there.
    const FindingList missing = missing_paths(request.paths);
    print_io_errors(missing.findings());
    if (!missing.findings().empty()) return ExitCode::kIoError;
  }
  VerifyTally total;
  const auto runs = assign(request.paths, options, &total.findings);
  if (!runs || !filters_apply(*runs, request.filter, request.command)) return ExitCode::kUsage;
  if (refuse_empty(request.command, empty_directories(total.findings), &options)) return ExitCode::kIoError;
  if (has_io_error(total.findings.findings())) {
    total.status = ExitCode::kIoError;
  } else if (total.findings.count(Severity::kError) > 0) {
    total.status = ExitCode::kProblems;  // a file no family can read
  }
  if (request.command != Command::kVerify) {
    StderrReporter diagnostics;
    for (const Finding& f : total.findings.findings()) diagnostics.report(f);
  }
  ExitCode status = total.status;
  request.format = options.format();
  request.drivers = options.drivers();
  // dump --limit counts over the whole run, whatever the families.
  const auto limit = request.limit;
  std::uint64_t printed = 0;
  request.printed = &printed;
  for (const Assignment& run : *runs) {
    request.paths = run.paths;
    request.group = run.group;
    switch (request.command) {
      case Command::kVerify: {
        const auto tally = run.driver->verify(request);
        if (!tally) return ExitCode::kUsage;
        if (found_nothing(request, run, *tally)) return ExitCode::kIoError;
        total.add(*tally);
        break;
      }
      case Command::kDump:
        if (limit && printed >= *limit) break;
        if (limit) request.limit = *limit - printed;
        status = worse(status, run.driver->dump(request));
        break;
      default:
        status = worse(status, run.driver->replay(request));
        break;
    }
  }
  if (request.command == Command::kVerify) return finish_verify(total, request.json, request.strict, request.quiet);
  return status;
}

ExitCode run_write_command(WriteRequest request, const FamilyOptions& options) {
  FindingList unclaimed;
  const auto runs = assign(request.paths, options, &unclaimed);
  if (!runs) return ExitCode::kUsage;
  if (refuse_empty(request.command, empty_directories(unclaimed))) return ExitCode::kIoError;
  StderrReporter diagnostics;
  for (const Finding& f : unclaimed.findings()) diagnostics.report(f);
  if (unclaimed.count(Severity::kError) > 0) return ExitCode::kIoError;  // change nothing when a PATH is not understood
  ExitCode status = ExitCode::kOk;
  request.drivers = options.drivers();
  for (const Assignment& run : *runs) {
    request.paths = run.paths;
    request.group = run.group;
    status = worse(status,
                   request.command == Command::kCompact ? run.driver->compact(request) : run.driver->repair(request));
  }
  return status;
}

std::vector<std::string> convert_targets(Registry drivers) {
  std::vector<std::string> targets;
  for (const Driver* d : drivers)
    for (std::string_view to : d->converts_to())
      if (std::find(targets.begin(), targets.end(), to) == targets.end()) targets.emplace_back(to);
  return targets;
}

namespace {

bool converts_to(const Driver* d, std::string_view to) {
  const auto targets = d->converts_to();
  return std::find(targets.begin(), targets.end(), to) != targets.end();
}

// The family that reads INPUT for --to jsonl: --format's, else the claim
// on INPUT; stdin and missing files go to the family whose options were
// given, else to the registry's last, whose reader reports them.
Driver* jsonl_source(const ConvertRequest& r, const FamilyOptions& options) {
  if (options.format() != "auto") return find_driver(options.drivers(), options.format());
  if (const auto claim = claim_path(r.input, options.drivers())) return claim->driver;
  const auto given = options.given();
  return given.empty() ? options.drivers().back() : given.front().first;
}

Driver* convert_driver(const ConvertRequest& r, const FamilyOptions& options) {
  if (r.to == "jsonl") return jsonl_source(r, options);
  for (Driver* d : options.drivers())
    if (converts_to(d, r.to)) return d;
  return nullptr;
}

}  // namespace

ExitCode run_convert_command(ConvertRequest request, const FamilyOptions& options) {
  Driver* driver = convert_driver(request, options);
  if (driver == nullptr) {
    usage(Command::kConvert,
          fmt::format("unknown --format {}: expected {}", options.format(), format_names(options.drivers())));
    return ExitCode::kUsage;
  }
  const std::vector<Assignment> runs{Assignment{driver, "", {request.input}, {}}};
  if (!options_match(runs, options) || !supported(runs, Command::kConvert)) return ExitCode::kUsage;
  if (!converts_to(driver, request.to)) {
    usage(Command::kConvert, fmt::format("refused: {} is a {} input, and --to {} does not take {} inputs; "
                                         "nothing was changed (qjt help formats says which commands take each "
                                         "format)",
                                         request.input, driver->name(), request.to, driver->name()));
    return ExitCode::kUsage;
  }
  request.format = options.format();
  request.drivers = options.drivers();
  return driver->convert(request);
}

ExitCode Driver::convert(const ConvertRequest&) {
  usage(Command::kConvert, fmt::format("{} has no conversion", name()));
  return ExitCode::kUsage;
}

// Reached only when a driver says it supports a command it does not
// implement: a bug, answered as a refusal rather than another family's work.
ExitCode Driver::compact(const WriteRequest&) {
  usage(Command::kCompact, fmt::format("{} has no compaction", name()));
  return ExitCode::kUsage;
}

ExitCode Driver::repair(const WriteRequest&) {
  usage(Command::kRepair, fmt::format("{} has no repair", name()));
  return ExitCode::kUsage;
}

std::string formats_help(Registry drivers) {
  auto row = [](std::string_view head, auto cell) {
    std::string line = fmt::format("  {:<12}", head);
    for (Command c : kAllCommands) line += fmt::format("{:<9}", cell(c));
    return line.erase(line.find_last_not_of(' ') + 1) + "\n";
  };
  std::string text = "The formats qjt reads, and the commands each takes (- when it does not):\n\n";
  text += row("", [](Command c) { return command_name(c); });
  for (const Driver* d : drivers) text += row(d->name(), [d](Command c) { return d->does(c).empty() ? "-" : "yes"; });
  for (const Driver* d : drivers) {
    text += fmt::format("\n{}: {}\n", d->name(), d->title());
    for (Command c : kAllCommands)
      text += fmt::format("  {:<9}{}\n", command_name(c), d->does(c).empty() ? "-" : d->does(c));
  }
  text += fmt::format("\n--format names: {}\n", format_names(drivers));
  return text;
}

}  // namespace qjt::cli
