// From a command's request to the drivers (driver.h): --format and each
// family's option group are added here, and after parsing every PATH is
// sniffed once (path_family.h) and sent to the driver that claims it. The
// rules every command shares live here and nowhere else:
//
//   - --format NAME gives every PATH to the driver that has NAME;
//   - an option of one family given with PATHs of another is a usage
//     error naming the option's family;
//   - a command the family does not support is refused (exit 2), naming
//     the family and pointing to `qjt help formats`.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "driver.h"
#include "exit_code.h"
#include "finding.h"
#include "path_walk.h"
#include "stats_report.h"

namespace qjt::cli {

// What a command does with PATHs, which decides how they are assigned.
enum class Inputs {
  kRead,   // reads them: --format may force a family; files no family reads are findings
  kWrite,  // changes them: no --format (a write needs the family's own evidence), weak claims refused
  kNone,   // takes none (gen): the family is named otherwise
};

// The option groups of every driver that takes part in one command (its
// capability's add_options), one per family in --help, and --format for
// the commands that read.
class FamilyOptions {
 public:
  FamilyOptions(CLI::App* command, std::string_view name, Inputs inputs, Registry drivers);
  FamilyOptions(const FamilyOptions&) = delete;  // CLI11 holds &format_
  FamilyOptions& operator=(const FamilyOptions&) = delete;

  std::string_view command() const { return command_; }
  bool writes() const { return inputs_ == Inputs::kWrite; }
  const std::string& format() const { return format_; }
  Registry drivers() const { return drivers_; }
  // After parsing: the first option given of each driver that has one.
  std::vector<std::pair<Driver*, std::string>> given() const;
  // After parsing: whether some family's option of this long name (such as
  // "--output") was given.
  bool gave(std::string_view name) const;
  // After parsing: whether some family's option of this long name was
  // given this value (-o -: standard output).
  bool gave(std::string_view name, std::string_view value) const;
  // After parsing: the values of `driver`'s options on this command line
  // (Capability::add_options); null when it has none.
  OptionValues values(const Driver* driver) const;

 private:
  std::string_view command_;
  Inputs inputs_;
  Registry drivers_;
  std::string format_ = "auto";
  struct Group {
    Driver* driver;
    std::vector<CLI::Option*> owned;
    std::shared_ptr<std::any> values;
  };
  std::vector<Group> groups_;
};

// One driver's share of a command's PATHs.
struct Assignment {
  Driver* driver = nullptr;
  std::string group;  // the claims' group; empty when --format or options chose the driver
  std::vector<std::string> paths;
  std::vector<std::pair<std::string, std::string>> unproven;  // PATH and evidence of weak claims
  Settings settings{};                                        // what a discovered installation stands for (path_walk.h)
  std::size_t unit = 0;                                       // the unit of the Expansion it was assigned from
  bool found = false;  // the unit was found by a walk or a discovery, not named (ReadRequest::found)
};

// Which driver reads which PATHs. A directory where no family finds
// anything is an io_error finding in `unclaimed`; for a read without
// --format, so is a file no family can read a finding there (cut inside a
// family's magic, or of no known format: group_by_family). With an
// `expansion` whose units were found (path_walk.h), each unit is assigned
// on its own; else the PATHs together. nullopt on a usage error (printed
// to stderr).
std::optional<std::vector<Assignment>> assign(const std::vector<std::string>& paths, const FamilyOptions& options,
                                              Reporter* unclaimed, const Expansion* expansion = nullptr);

// A read command (dump, replay) over `request.paths`: each assignment to
// its driver's ReadCapability, in order; dump's --limit counts over them all.
ExitCode run_read_command(ReadRequest request, const FamilyOptions& options);

// verify over `request.paths`: each assignment to its driver's
// VerifyCapability; their tallies make one report, or, when a walk found
// the units (path_walk.h), one report per unit and a summary.
ExitCode run_verify_command(ReadRequest request, const FamilyOptions& options);

// stats over `request.paths`: each assignment to its driver's
// StatsCapability, which fills a model of its own (one per job); the
// models join in input order and make one report (stats_report.h), whose
// exit status is 1 when some input was damaged (an error finding), 3 when
// some could not be read.
ExitCode run_stats_command(ReadRequest request, const StatsOutput& output, const FamilyOptions& options);

// A writing command (compact, repair) over `request.paths`, each
// assignment to its driver's WriteCapability, once every PATH is known to
// be its family's on positive evidence (else refused, exit 2, nothing
// opened for writing).
ExitCode run_write_command(WriteRequest request, const FamilyOptions& options);

// convert: --to jsonl goes to the family of INPUT (or of --format, or of
// the options given); any other target to the family that writes it.
ExitCode run_convert_command(ConvertRequest request, const FamilyOptions& options);

// Every --to target of the registry's ConvertCapability of `command`, in
// order, without repeats.
std::vector<std::string> convert_targets(Registry drivers, std::string_view command);

// gen: the family named `format` writes; an option of another family, or
// a --corrupt mode the family does not know, is refused.
ExitCode run_gen_command(const GenRequest& request, const std::string& format, const FamilyOptions& options);

// A family whose GenCapability of `command` writes something.
struct Generator {
  std::string_view name;
  std::string_view writes;
  std::vector<std::string_view> corruptions;  // its --corrupt modes, "none" aside
};
// The families' generators, in the registry's order.
std::vector<Generator> generators(Registry drivers, std::string_view command);

// Every name --op takes, of every family (FilterFields::ops), in order.
std::vector<std::string> op_names(Registry drivers);

// The driver named `name`, or the one with the file kind `name`
// (--format); null when none has it.
Driver* find_driver(Registry drivers, std::string_view name);

// The table `qjt help formats` prints: families by `commands` (the
// commands the families take part in), and the --format names.
std::string formats_help(Registry drivers, std::span<const std::string_view> commands);

}  // namespace qjt::cli
