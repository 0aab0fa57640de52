#include "dispatch.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <functional>
#include <iterator>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "input_file.h"
#include "jobs.h"
#include "path_family.h"
#include "path_name.h"
#include "quiet.h"
#include "run_context.h"
#include "value_set.h"
#include "walk_report.h"

namespace qjt::cli {
namespace {

bool usage(std::string_view command, const std::string& message) {
  usage_error(command, message);
  return false;
}

// What --format takes: auto, then each family's name and its kinds.
std::vector<std::string> format_values(Registry drivers) {
  std::vector<std::string> names{"auto"};
  for (const Driver* d : drivers) {
    names.emplace_back(d->name());
    for (std::string_view kind : d->kinds()) names.emplace_back(kind);
  }
  return names;
}

std::string format_names(Registry drivers) { return fmt::format("{}", fmt::join(format_values(drivers), ", ")); }

// What a run reads, for messages: its first PATH, or its family.
std::string input_of(const Assignment& run) {
  if (run.paths.empty()) return fmt::format("the input is {}", run.driver->name());
  return fmt::format("{} is a {} input", run.paths.front(), run.driver->name());
}

// An option of one family with the input of another, checked here once
// for every command. In a walk (`walked`), an option is for the units of
// its family, and refused only when the walk found none.
bool options_match(const std::vector<Assignment>& runs, const FamilyOptions& options, bool walked) {
  const bool write = options.writes();
  for (const auto& [owner, option] : options.given()) {
    const Driver* family = owner;  // clang before 16 cannot capture a structured binding
    const auto owners = [family](const Assignment& run) { return run.driver == family; };
    if (walked && std::any_of(runs.begin(), runs.end(), owners)) continue;
    for (const Assignment& run : runs)
      if (run.driver != owner)
        return usage(options.command(),
                     fmt::format("{}{} is an option for {} ({}), but {}{}", write ? "refused: " : "", option,
                                 owner->name(), owner->title(), input_of(run), write ? "; nothing was changed" : ""));
  }
  return true;
}

bool supported(const std::vector<Assignment>& runs, std::string_view command) {
  for (const Assignment& run : runs) {
    if (run.driver->provides(command) != nullptr) continue;
    const std::string_view why = run.driver->why_not(command);
    return usage(command, fmt::format("refused: {}, and {} does not take {} inputs{}{}; nothing was changed "
                                      "(qjt help formats says which commands take each format)",
                                      input_of(run), command, run.driver->name(), why.empty() ? "" : ": ", why));
  }
  return true;
}

// A filter for a field some run's family lacks.
bool filters_apply(const std::vector<Assignment>& runs, const ReadFilter& filter, std::string_view command) {
  for (const Assignment& run : runs)
    if (const auto refusal = check_filter_fields(filter, run.driver->name(), run.driver->filter_fields()))
      return usage(command, *refusal);
  return true;
}

// Classic Kestrel journals carry no magic: a write acts only on what a
// family proved its own (a directory never passes on weak evidence).
bool proven(const std::vector<Assignment>& runs, std::string_view command) {
  bool ok = true;
  for (const Assignment& run : runs) {
    for (const auto& [path, evidence] : run.unproven) {
      if (run.driver->provides(command)->takes_unproven_files && !is_directory(path)) continue;
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
  for (Driver* d : options.drivers())
    if (const Capability* c = d->provides(options.command()); c != nullptr && !c->input_options.empty())
      text += fmt::format(", or {}", c->input_options);
  return text;
}

// The drivers whose options were given and name an input of their own.
std::vector<Assignment> option_inputs(const FamilyOptions& options) {
  std::vector<Assignment> runs;
  for (const auto& [driver, option] : options.given()) {
    const Capability* c = driver->provides(options.command());
    if (c->options_name_input && c->options_name_input(options.values(driver)))
      runs.push_back(Assignment{driver, "", {}, {}});
  }
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

// Whether `file` is `path` or lies below it.
bool within(const std::string& file, const std::string& path) {
  return file == path || (file.starts_with(path) && (path.ends_with('/') || file[path.size()] == '/'));
}

// Whether `file` lies below `path`.
bool below(const std::string& file, const std::string& path) { return file != path && within(file, path); }

// What could not be read in `dir`: "" when every file could, else the
// first failure ("cannot open DIR/q: Permission denied") and how many more.
std::string unreadable_in(const std::string& dir, const FindingList* unclaimed) {
  if (unclaimed == nullptr) return "";
  std::vector<const Finding*> failures;
  for (const Finding& f : unclaimed->findings())
    if (f.code == "io_error" && below(f.file, dir) && !is_directory(f.file)) failures.push_back(&f);
  if (failures.empty()) return "";
  const std::size_t more = failures.size() - 1;
  return more == 0 ? failures[0]->message : fmt::format("{} (and {} more file(s))", failures[0]->message, more);
}

// "; skipped N file(s) of no known format (qjt verify --strict names
// them)" when the walk of `dir` found only such files; "" otherwise.
std::string unknown_files_in(const std::string& dir, const Expansion* expansion) {
  if (expansion == nullptr) return "";
  const auto& files = expansion->only_unknown;
  const auto n = std::count_if(files.begin(), files.end(), [&](const std::string& f) { return below(f, dir); });
  return n == 0 ? "" : fmt::format("; skipped {} file(s) of no known format (qjt verify --strict names them)", n);
}

// Such directories stop any command before it reads or writes: one line
// each (an error object each with --json), and true. A directory whose
// files could not be read says why, not that it holds nothing. Under
// --format, the line names what that family looked for.
bool refuse_empty(std::string_view command, const std::vector<std::string>& dirs, const FamilyOptions* forced = nullptr,
                  const FindingList* unclaimed = nullptr, const Expansion* expansion = nullptr) {
  const Driver* family = forced == nullptr ? nullptr : find_driver(forced->drivers(), forced->format());
  for (const std::string& dir : dirs) {
    if (const std::string unreadable = unreadable_in(dir, unclaimed); !unreadable.empty()) {
      report_error(command, ExitCode::kIoError, fmt::format("nothing could be read in {}: {}", dir, unreadable));
      continue;
    }
    const std::string what =
        family == nullptr ? fmt::format("no journal, channel or checkpoint found in {}", dir)
                          : fmt::format("no {} found in {} (--format {})", family->title(), dir, forced->format());
    report_error(command, ExitCode::kIoError, what + (family == nullptr ? unknown_files_in(dir, expansion) : ""));
  }
  return !dirs.empty();
}

// `unclaimed` with the error of each directory whose walk found only files
// of no known format replaced by those files' unknown_format errors: under
// verify --strict they are the findings, as when each is named or walked
// past in a tree (skipped_findings), not "nothing found".
FindingList strict_walk_findings(const Expansion& expansion, const FindingList& unclaimed) {
  const std::vector<Finding>& found = unclaimed.findings();
  FindingList kept;
  for (const Finding& f : found) {
    std::vector<std::string> files;
    if (f.severity == Severity::kError && is_directory(f.file)) {
      for (const std::string& file : expansion.only_unknown)
        if (below(file, f.file)) files.push_back(file);
      for (const Finding& other : found)
        if (below(other.file, f.file)) files.clear();  // something there could not be read: say that
    }
    if (files.empty()) {
      kept.report(f);
      continue;
    }
    const FindingList unknown = skipped_findings(files);
    for (const Finding& skipped : unknown.findings()) kept.report(skipped);
  }
  return kept;
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

// The assignments of units found by a walk (path_walk.h), each unit on
// its own: a site named by its settings alone goes to its family; any other
// unit's PATHs are claimed as the PATHs of a command line are.
std::vector<Assignment> assign_units(const Expansion& expansion, Registry claimants, Driver* owner, Reporter* unclaimed,
                                     Reporter* unreadable) {
  std::vector<Assignment> runs;
  for (std::size_t u = 0; u < expansion.units.size(); ++u) {
    const ReadUnit& unit = expansion.units[u];
    if (unit.site_driver != nullptr && unit.paths.empty()) {
      runs.push_back(Assignment{unit.site_driver, "", {}, {}, unit.settings, u, !unit.given});
      continue;
    }
    for (const PathGroup& g : group_by_family(unit.paths, unclaimed, claimants, owner, unreadable))
      runs.push_back(Assignment{g.driver, g.key, g.inputs, g.unproven, unit.settings, u, !unit.given});
  }
  return runs;
}

}  // namespace

std::vector<std::string> op_names(Registry drivers) {
  std::vector<std::string> names;
  for (const Driver* d : drivers)
    for (std::string_view op : d->filter_fields().ops) names.emplace_back(op);
  return names;
}

Driver* find_driver(Registry drivers, std::string_view name) {
  for (Driver* d : drivers) {
    const auto kinds = d->kinds();
    if (d->name() == name || std::find(kinds.begin(), kinds.end(), name) != kinds.end()) return d;
  }
  return nullptr;
}

FamilyOptions::FamilyOptions(CLI::App* command, std::string_view name, Inputs inputs, Registry drivers)
    : command_(name), inputs_(inputs), drivers_(drivers) {
  if (inputs == Inputs::kRead)
    command
        ->add_option("--format", format_,
                     "How to read PATH: by its content and name (auto, the default), as a family's, or as one kind "
                     "of file of a family")
        ->check(value_set(format_values(drivers)));
  for (Driver* d : drivers) {
    const Capability* part = d->provides(name);
    if (part == nullptr || !part->add_options) continue;
    const std::size_t before = command->get_options().size();
    auto values = part->add_options(command);
    std::vector<CLI::Option*> owned = command->get_options();
    owned.erase(owned.begin(), owned.begin() + static_cast<std::ptrdiff_t>(before));
    // Each family's options are a group of their own in --help.
    for (CLI::Option* option : owned) option->group(std::string(d->title()));
    groups_.push_back(Group{d, std::move(owned), std::move(values)});
  }
}

std::vector<std::pair<Driver*, std::string>> FamilyOptions::given() const {
  std::vector<std::pair<Driver*, std::string>> given;
  for (const auto& [driver, owned, values] : groups_) {
    for (const CLI::Option* option : owned) {
      if (option->count() == 0) continue;
      given.emplace_back(driver, option->get_name());
      break;
    }
  }
  return given;
}

bool FamilyOptions::gave(std::string_view name) const {
  for (const auto& [driver, owned, values] : groups_)
    for (const CLI::Option* option : owned)
      if (option->count() > 0 && option->check_lname(std::string(name.substr(name.find_first_not_of('-')))))
        return true;
  return false;
}

bool FamilyOptions::gave(std::string_view name, std::string_view value) const {
  for (const auto& [driver, owned, values] : groups_)
    for (const CLI::Option* option : owned)
      if (option->count() > 0 && option->check_lname(std::string(name.substr(name.find_first_not_of('-')))))
        for (const std::string& given : option->results())
          if (given == value) return true;
  return false;
}

OptionValues FamilyOptions::values(const Driver* driver) const {
  for (const Group& group : groups_)
    if (group.driver == driver) return group.values;
  return nullptr;
}

std::optional<std::vector<Assignment>> assign(const std::vector<std::string>& paths, const FamilyOptions& options,
                                              Reporter* unclaimed, const Expansion* expansion) {
  const std::string_view command = options.command();
  std::vector<Assignment> runs;
  Registry claimants = options.drivers();
  const auto given = options.given();
  Driver* owner = given.size() == 1 ? given.front().first : nullptr;
  Driver* forced = nullptr;  // outlives `claimants`, which may view it
  if (options.format() != "auto") {
    forced = find_driver(options.drivers(), options.format());  // one, by --format's value_set
    // A kind forced: every PATH is of that kind. A family forced: its own
    // claims still tell the kinds it reads apart.
    if (forced->name() != options.format() || paths.empty()) runs.push_back(Assignment{forced, "", paths, {}});
    claimants = Registry(&forced, 1);
    owner = forced;
  }
  if (runs.empty()) {
    // A read reports the files no family can read; a write refuses them
    // (proven()); a family forced reads what it is given.
    Reporter* unreadable = options.writes() || forced != nullptr ? nullptr : unclaimed;
    if (expansion != nullptr && expansion->found) {
      runs = assign_units(*expansion, claimants, owner, unclaimed, unreadable);
    } else {
      for (const PathGroup& g : group_by_family(paths, unclaimed, claimants, owner, unreadable))
        runs.push_back(Assignment{g.driver, g.key, options.writes() ? g.paths : g.inputs, g.unproven});
    }
  }
  if (paths.empty()) {
    auto named = option_inputs(options);
    if (named.empty() || (!runs.empty() && runs.front().driver != named.front().driver)) {
      usage(command, "no input: expected a PATH" + input_options(options));
      return std::nullopt;
    }
    runs = std::move(named);
  }
  const bool walked = expansion != nullptr && expansion->found;
  if (!options_match(runs, options, walked) || !supported(runs, command)) return std::nullopt;
  if (options.writes() && !proven(runs, command)) return std::nullopt;
  return runs;
}

namespace {

// A bug, not a user's mistake: a driver offers a capability of another
// kind than its command runs. Answered as a refusal, never as another
// family's work.
ExitCode wrong_kind(std::string_view command, const Driver* driver) {
  usage(command, fmt::format("{} offers no {} of the kind this command runs", driver->name(), command));
  return ExitCode::kUsage;
}

// The units of a read's PATHs (path_walk.h): walked with every family, or
// with the family --format names; a file kind forced reads each PATH as
// given.
Expansion expansion_of(const std::vector<std::string>& paths, const FamilyOptions& options) {
  const RunSettings& settings = RunContext::current().settings();
  if (options.format() == "auto") return expand_paths(paths, options.drivers(), settings.max_depth, settings.excluded);
  Driver* forced = find_driver(options.drivers(), options.format());
  if (forced == nullptr || forced->name() != options.format()) return Expansion{};
  return expand_paths(paths, Registry(&forced, 1), settings.max_depth, settings.excluded);
}

// A writer's PATHs whose layout a family cannot tell (Driver::ambiguous_sites):
// one line each naming the options of every candidate, and true.
bool refuse_ambiguous(std::string_view command, const std::vector<std::string>& paths, Registry drivers) {
  bool refused = false;
  for (const std::string& dir : directories(paths)) {
    for (const Driver* d : drivers) {
      std::vector<std::string> choices;
      for (const Settings& site : d->ambiguous_sites(dir)) {
        std::vector<std::string> words;
        for (const auto& [option, value] : site) words.push_back(fmt::format("{} {}", option, shell_word(value)));
        choices.push_back(fmt::format("{}", fmt::join(words, " ")));
      }
      if (choices.empty()) continue;
      usage(command, fmt::format("refused: {} could be {} {} installations; name one, in place of {}: {}; nothing "
                                 "was changed",
                                 dir, choices.size(), d->name(), dir, fmt::join(choices, " | ")));
      refused = true;
    }
  }
  return refused;
}

// Where a writer's report goes under -q (held_unless_failed): standard
// output is held, standard error passes through.
class HeldReport final : public OutputSink {
 public:
  explicit HeldReport(RunContext* outer) : outer_(outer) {}
  bool write(Stream stream, std::string_view bytes) override {
    if (stream == Stream::kStderr) return outer_->write(stream, bytes);
    held_.append(bytes);
    return true;
  }
  bool release() { return held_.empty() || outer_->write(Stream::kStdout, held_); }

 private:
  RunContext* outer_;
  std::string held_;
};

// -q for a writer (compact, repair): what `write` prints on standard output
// is dropped when it ends well, so that cron mails only what went wrong,
// and printed as without -q when it does not.
ExitCode held_unless_failed(const std::function<ExitCode()>& write) {
  RunContext& outer = RunContext::current();
  HeldReport held(&outer);
  RunContext inner(&held, outer.settings());
  ExitCode status = ExitCode::kOk;
  {
    RunContext::Bind bind(&inner);
    status = write();
  }
  for (Finding& change : inner.input_changes()) outer.input_changes().push_back(std::move(change));
  if (status != ExitCode::kOk && !held.release()) status = worse(status, ExitCode::kIoError);
  return status;
}

// What dump, replay and verify share before any driver is called: the
// units of the PATHs and the assignments, or the exit status that ends the
// run. The files no family can read go to `total` (verify reports them;
// the others print them).
std::optional<std::vector<Assignment>> assign_reads(ReadRequest* request, const FamilyOptions& options,
                                                    VerifyTally* total, ExitCode* status, Expansion* expansion) {
  *status = ExitCode::kUsage;
  *expansion = expansion_of(request->paths, options);
  auto runs = assign(request->paths, options, &total->findings, expansion);
  if (!runs || !filters_apply(*runs, request->filter, request->command)) return std::nullopt;
  if (request->strict) total->findings = strict_walk_findings(*expansion, total->findings);
  if (refuse_empty(request->command, empty_directories(total->findings), &options, &total->findings, expansion)) {
    *status = ExitCode::kIoError;
    return std::nullopt;
  }
  if (has_io_error(total->findings.findings())) {
    total->status = ExitCode::kIoError;
  } else if (total->findings.count(Severity::kError) > 0) {
    total->status = ExitCode::kProblems;  // a file no family can read
  }
  request->format = options.format();
  request->drivers = options.drivers();
  *status = total->status;
  return runs;
}

// Each assignment split into its family's units of work (Driver::units):
// the jobs of the run.
std::vector<Assignment> units_of(const std::vector<Assignment>& runs, std::string_view command) {
  std::vector<Assignment> units;
  for (const Assignment& run : runs) {
    // The family's options name its input, or its plan takes every PATH.
    if (run.paths.empty() || run.driver->provides(command)->one_plan) {
      units.push_back(run);
      continue;
    }
    for (auto& paths : run.driver->units(run.paths))
      units.push_back(
          Assignment{run.driver, run.group, std::move(paths), run.unproven, run.settings, run.unit, run.found});
  }
  return units;
}

// How many of a run's jobs may run at once: -j, but one at a time when a
// job reads a stream (standard input, a FIFO: read once, by one reader),
// when dump --limit counts over the whole run, or when an option names an
// output of the whole run (two jobs would write it).
unsigned workers_for(const std::vector<Assignment>& runs, const FamilyOptions& options, bool run_wide_count) {
  if (run_wide_count || options.gave("--output")) return 1;
  for (const Assignment& run : runs)
    for (const std::string& path : run.paths) {
      struct stat st {};
      if (path == "-" || ::stat(path.c_str(), &st) != 0 || !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) return 1;
    }
  return job_workers(RunContext::current().settings().jobs);
}

// Runs each(i, request for assignment i with its family's options, &its
// status) as job i (jobs.h), on the workers workers_for allows; returns
// the worst status of the jobs that count.
template <class Request, class Each>
ExitCode run_assignments(const std::vector<Assignment>& runs, const FamilyOptions& options, bool run_wide_count,
                         const Request& request, Each each) {
  std::vector<ExitCode> statuses(runs.size(), ExitCode::kOk);
  const JobsDone done = run_jobs(runs.size(), workers_for(runs, options, run_wide_count), [&](std::size_t i) {
    Request own = request;
    own.paths = runs[i].paths;
    own.group = runs[i].group;
    own.options = options.values(runs[i].driver);
    own.discovered = runs[i].settings;
    own.found = runs[i].found;
    return each(i, own, &statuses[i]);
  });
  ExitCode status = ExitCode::kOk;
  for (std::size_t i = 0; i < done.kept; ++i) status = worse(status, statuses[i]);
  if (!done.written) {
    write_stderr("qjt: cannot write to standard output\n");
    status = worse(status, ExitCode::kIoError);
  }
  return status;
}

}  // namespace

ExitCode run_read_command(ReadRequest request, const FamilyOptions& options) {
  // Nothing on standard output for what is not there.
  const FindingList missing = missing_paths(request.paths);
  if (!missing.findings().empty()) {
    StderrReporter diagnostics;
    for (const Finding& f : missing.findings()) diagnostics.report(f);
    return ExitCode::kIoError;
  }
  VerifyTally unreadable;
  ExitCode status = ExitCode::kOk;
  Expansion expansion;
  const auto assigned = assign_reads(&request, options, &unreadable, &status, &expansion);
  if (!assigned) return status;
  const auto runs = units_of(*assigned, request.command);
  note_walk(request.command, expansion, false);
  StderrReporter diagnostics;
  for (const Finding& f : unreadable.findings.findings()) diagnostics.report(f);
  for (const Assignment& run : runs)
    if (capability<ReadCapability>(run.driver, request.command) == nullptr)
      return wrong_kind(request.command, run.driver);
  // dump --limit counts over the whole run, whatever the families.
  const auto limit = request.limit;
  std::uint64_t printed = 0;
  request.printed = limit ? &printed : nullptr;  // one job at a time then (workers_for)
  const auto read = [&](std::size_t i, ReadRequest& own, ExitCode* result) {
    if (limit && printed >= *limit) return JobEnd::kStop;
    if (limit) own.limit = *limit - printed;
    if (expansion.found && (i == 0 || runs[i - 1].unit != runs[i].unit))
      Output().write(unit_header(expansion.units[runs[i].unit], own.json));
    *result = capability<ReadCapability>(runs[i].driver, own.command)->read(own);
    return JobEnd::kGoOn;
  };
  return worse(status, run_assignments(runs, options, limit.has_value(), request, read));
}

ExitCode run_verify_command(ReadRequest request, const FamilyOptions& options) {
  VerifyTally total;
  ExitCode status = ExitCode::kOk;
  Expansion expansion;
  const auto assigned = assign_reads(&request, options, &total, &status, &expansion);
  if (!assigned) return status;
  const auto runs = units_of(*assigned, request.command);
  for (const Assignment& run : runs)
    if (capability<VerifyCapability>(run.driver, request.command) == nullptr)
      return wrong_kind(request.command, run.driver);
  // Each job's tally, summed in input order; a job that ends the run
  // (a usage error, a directory with nothing in it) says how.
  std::vector<std::optional<VerifyTally>> tallies(runs.size());
  const auto verify = [&](std::size_t i, ReadRequest& own, ExitCode* result) {
    auto& tally = tallies[i];
    tally = capability<VerifyCapability>(runs[i].driver, own.command)->verify(own);
    if (!tally) {
      *result = ExitCode::kUsage;
    } else if (found_nothing(own, runs[i], *tally)) {
      *result = ExitCode::kIoError;
    } else {
      return JobEnd::kGoOn;
    }
    return JobEnd::kStop;
  };
  status = run_assignments(runs, options, false, request, verify);
  if (status != ExitCode::kOk) return status;
  if (!expansion.found) {
    for (const auto& tally : tallies) total.add(*tally);
    return finish_verify(total, request.json, request.strict, request.quiet);
  }
  // What assign() found unreadable belongs to the unit of its file.
  std::vector<VerifyTally> units(expansion.units.size());
  for (const Finding& f : total.findings.findings()) units[unit_of_file(expansion, f.file)].findings.report(f);
  for (VerifyTally& unit : units)
    if (has_io_error(unit.findings.findings())) unit.status = ExitCode::kIoError;
  for (std::size_t i = 0; i < runs.size(); ++i) units[runs[i].unit].add(*tallies[i]);
  return finish_walk_verify(expansion, units, request.json, request.strict, request.quiet);
}

namespace {

// The name of a stats job's unit: the walk's unit, else the PATHs it
// reads, else (options name its inputs) its family's.
std::string stats_unit_name(const Expansion& expansion, const Assignment& run) {
  if (expansion.found) return expansion.units[run.unit].path;
  if (run.paths.empty()) return std::string(run.driver->name());
  std::string name = run.paths.front();
  for (std::size_t i = 1; i < run.paths.size(); ++i) name += "," + run.paths[i];
  return name;
}

// Whether a stats job could not read its unit: an I/O error on one of its
// own inputs (or, when options name them, on any), not on a file beside
// them (--binlogs), whose figures are left out by the family.
bool unit_unread(const Assignment& run, const std::string& unit, const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(), [&](const Finding& f) {
    if (f.code != "io_error") return false;
    if (run.paths.empty() || within(f.file, unit)) return true;
    return std::any_of(run.paths.begin(), run.paths.end(), [&](const std::string& p) { return within(f.file, p); });
  });
}

}  // namespace

ExitCode run_stats_command(ReadRequest request, const StatsOutput& output, const FamilyOptions& options) {
  if (auto refused = refuse_stats_output(request.command, output)) return *refused;
  VerifyTally unreadable;
  ExitCode status = ExitCode::kOk;
  Expansion expansion;
  const auto assigned = assign_reads(&request, options, &unreadable, &status, &expansion);
  if (!assigned) return status;
  const auto runs = units_of(*assigned, request.command);
  note_walk(request.command, expansion, true);
  for (const Assignment& run : runs)
    if (capability<StatsCapability>(run.driver, request.command) == nullptr)
      return wrong_kind(request.command, run.driver);
  std::vector<StatsModel> models(runs.size());
  std::vector<FindingList> found(runs.size());
  const auto stats = [&](std::size_t i, ReadRequest& own, ExitCode* result) {
    *result = capability<StatsCapability>(runs[i].driver, own.command)->stats(own, &models[i], &found[i]);
    return JobEnd::kGoOn;
  };
  status = worse(status, run_assignments(runs, options, false, request, stats));
  StatsModel model;
  std::vector<Finding> findings = unreadable.findings.findings();
  StatsHealth health;
  for (const Finding& f : findings) health.unit(f.file, false, {f});
  for (std::size_t i = 0; i < runs.size(); ++i) {
    // A unit that could not be read gets no figures: zeros would show an
    // empty, healthy queue.
    const std::string unit = stats_unit_name(expansion, runs[i]);
    const bool read = !unit_unread(runs[i], unit, found[i].findings());
    if (read) model.append(models[i]);
    health.unit(unit, read, found[i].findings());
    for (const Finding& f : found[i].findings()) findings.push_back(f);
    if (found[i].count(Severity::kError) > 0) status = worse(status, ExitCode::kProblems);
    if (has_io_error(found[i].findings())) status = worse(status, ExitCode::kIoError);
  }
  return worse(status, write_stats_report(request.command, model, findings, output, units_json(expansion), &health));
}

ExitCode run_write_command(WriteRequest request, const FamilyOptions& options) {
  if (refuse_ambiguous(request.command, request.paths, options.drivers())) return ExitCode::kUsage;
  // The installations a PATH holds, found as the readers find them; but a
  // write walks no tree: nothing in subdirectories is changed unasked.
  const Expansion expansion = expand_paths(request.paths, options.drivers(), 0);
  FindingList unclaimed;
  const auto assigned = assign(request.paths, options, &unclaimed, &expansion);
  if (!assigned) return ExitCode::kUsage;
  const auto runs = units_of(*assigned, request.command);
  if (refuse_empty(request.command, empty_directories(unclaimed), nullptr, &unclaimed)) return ExitCode::kIoError;
  note_walk(request.command, expansion, true);
  StderrReporter diagnostics;
  for (const Finding& f : unclaimed.findings()) diagnostics.report(f);
  if (unclaimed.count(Severity::kError) > 0) return ExitCode::kIoError;  // change nothing when a PATH is not understood
  for (const Assignment& run : runs)
    if (capability<WriteCapability>(run.driver, request.command) == nullptr)
      return wrong_kind(request.command, run.driver);
  request.drivers = options.drivers();
  // -q: a report is held, never data (-o -: the journal on standard output).
  const bool held = quiet() && !request.json && !options.gave("--output", "-");
  const auto write = [&](std::size_t i, WriteRequest& own, ExitCode* result) {
    const auto& call = capability<WriteCapability>(runs[i].driver, own.command)->write;
    *result = held ? held_unless_failed([&] { return call(own); }) : call(own);
    return JobEnd::kGoOn;
  };
  return run_assignments(runs, options, false, request, write);
}

std::vector<std::string> convert_targets(Registry drivers, std::string_view command) {
  std::vector<std::string> targets;
  for (Driver* d : drivers)
    if (const auto* part = capability<ConvertCapability>(d, command))
      for (std::string_view to : part->targets)
        if (std::find(targets.begin(), targets.end(), to) == targets.end()) targets.emplace_back(to);
  return targets;
}

namespace {

bool converts_to(Driver* d, std::string_view command, std::string_view to) {
  const auto* part = capability<ConvertCapability>(d, command);
  return part != nullptr && std::find(part->targets.begin(), part->targets.end(), to) != part->targets.end();
}

// The family that reads INPUT for --to jsonl: --format's, else the claim
// on INPUT; stdin and missing files go to the family whose options were
// given, else to the registry's last, whose reader reports them.
Driver* jsonl_source(const ConvertRequest& r, const FamilyOptions& options) {
  if (options.format() != "auto") return find_driver(options.drivers(), options.format());
  if (const auto claim = claim_input(r.input, options.drivers())) return claim->driver;
  const auto given = options.given();
  return given.empty() ? options.drivers().back() : given.front().first;
}

Driver* convert_driver(const ConvertRequest& r, const FamilyOptions& options) {
  if (r.to == "jsonl") return jsonl_source(r, options);
  for (Driver* d : options.drivers())
    if (converts_to(d, options.command(), r.to)) return d;
  return nullptr;
}

// What dump and verify find of a file no family can read, when --to
// jsonl is asked of it without --format: the same finding, exit 1.
std::optional<ExitCode> unreadable_source(const ConvertRequest& r, const FamilyOptions& options) {
  if (r.to != "jsonl" || options.format() != "auto") return std::nullopt;
  const auto claim = claim_input(r.input, options.drivers());
  if (!claim) return std::nullopt;
  auto finding = unreadable_file(r.input, *claim, options.drivers());
  if (!finding) return std::nullopt;
  StderrReporter diagnostics;
  diagnostics.report(std::move(*finding));
  return ExitCode::kProblems;
}

}  // namespace

ExitCode run_convert_command(ConvertRequest request, const FamilyOptions& options) {
  const std::string_view command = options.command();
  if (const auto unreadable = unreadable_source(request, options)) return *unreadable;
  Driver* driver = convert_driver(request, options);
  if (driver == nullptr) {
    usage(command, fmt::format("unknown --format {}: expected {}", options.format(), format_names(options.drivers())));
    return ExitCode::kUsage;
  }
  const std::vector<Assignment> runs{Assignment{driver, "", {request.input}, {}}};
  if (!options_match(runs, options, false) || !supported(runs, command)) return ExitCode::kUsage;
  if (!converts_to(driver, command, request.to)) {
    usage(command, fmt::format("refused: {} is a {} input, and --to {} does not take {} inputs; "
                               "nothing was changed (qjt help formats says which commands take each "
                               "format)",
                               request.input, driver->name(), request.to, driver->name()));
    return ExitCode::kUsage;
  }
  request.format = options.format();
  request.drivers = options.drivers();
  request.options = options.values(driver);
  return capability<ConvertCapability>(driver, command)->convert(request);
}

std::vector<Generator> generators(Registry drivers, std::string_view command) {
  std::vector<Generator> found;
  for (Driver* d : drivers)
    if (const auto* part = capability<GenCapability>(d, command))
      found.push_back(Generator{d->name(), part->does, part->corruptions});
  return found;
}

ExitCode run_gen_command(const GenRequest& request, const std::string& format, const FamilyOptions& options) {
  const std::string_view command = options.command();
  Driver* driver = find_driver(options.drivers(), format);
  auto* part = driver == nullptr ? nullptr : capability<GenCapability>(driver, command);
  if (part == nullptr) return usage_error(command, fmt::format("{} has no generator", format));
  for (const auto& [owner, option] : options.given())
    if (owner != driver)
      return usage_error(command, fmt::format("{} is an option for {} ({}), but gen writes {}", option, owner->name(),
                                              owner->title(), driver->name()));
  const auto& modes = part->corruptions;
  if (request.corrupt != "none" && std::find(modes.begin(), modes.end(), request.corrupt) == modes.end())
    return usage_error(command, fmt::format("--corrupt {}: the modes of {} are none, {}", request.corrupt,
                                            driver->name(), fmt::join(modes, ", ")));
  GenRequest own = request;
  own.options = options.values(driver);
  return part->gen(own);
}

std::string formats_help(Registry drivers, std::span<const std::string_view> commands) {
  auto row = [commands](std::string_view head, auto cell) {
    std::string line = fmt::format("  {:<12}", head);
    for (std::string_view c : commands) line += fmt::format("{:<9}", cell(c));
    return line.erase(line.find_last_not_of(' ') + 1) + "\n";
  };
  std::string text = "The formats qjt reads, and the commands each takes (- when it does not):\n\n";
  text += row("", [](std::string_view c) { return c; });
  for (Driver* d : drivers)
    text += row(d->name(), [d](std::string_view c) { return d->provides(c) == nullptr ? "-" : "yes"; });
  for (Driver* d : drivers) {
    text += fmt::format("\n{}: {}\n", d->name(), d->title());
    for (std::string_view c : commands) {
      const Capability* part = d->provides(c);
      text += fmt::format("  {:<9}{}\n", c, part == nullptr ? "-" : part->does);
    }
  }
  text += fmt::format("\n--format names: {}\n", format_names(drivers));
  return text;
}

}  // namespace qjt::cli
