// Which family a PATH belongs to, told once, by one rule, for every
// command: the drivers of the registry (registry.h) are asked in order, and
// the first that claims a file has it. Classic Kestrel, the last, claims
// every file the others leave, on positive evidence only when a record
// decodes at offset 0 (or the file is empty), since its journals carry no
// magic.
//
// A directory belongs to the first family other than the registry's last
// that claims one of its regular files, else to the last. Only regular
// files are opened: a FIFO or a device is never read here.
//
// Writing commands act only on a family's positive claims: a command of
// one family refuses a PATH that another family claims (refuse_foreign).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "byte_span.h"
#include "driver.h"
#include "exit_code.h"
#include "finding.h"

namespace qjt::cli {

struct PathClaim : Claim {
  Driver* driver = nullptr;  // the family that claims the PATH
};

// The claim on one file's bytes; `path` is used for its name only. nullopt
// only when no driver of `drivers` claims it.
std::optional<PathClaim> claim_file(const std::string& path, ByteSpan bytes, Registry drivers);

// The claim on a PATH (a regular file or a directory). nullopt when the
// PATH is missing, unreadable, "-", not a regular file or directory, or a
// directory that holds no regular file.
std::optional<PathClaim> claim_path(const std::string& path, Registry drivers);

// claim_path, and for standard input ("-") the claim on its first bytes
// when a family other than the registry's last has a magic there (a
// libkestrel segment piped in); they stay read for the family that reads
// it (input_file.h: a stream is opened once). For the read commands only:
// a write never reads standard input to tell its family.
std::optional<PathClaim> claim_input(const std::string& path, Registry drivers);

// The finding on a file that no family can read, as the read commands
// report it (group_by_family): cut inside a family's magic, or of no
// known format; nullopt when `claim` lets its family read the file.
std::optional<Finding> unreadable_file(const std::string& path, const PathClaim& claim, Registry drivers);

// A directory's regular files, each claimed once, in name order, and the
// directory's own claim: the weightiest of those that make a directory
// the family's (Claim::makes_directory), the first of equals, naming that
// file (for another family than the registry's last, one of its files is
// enough). No claim when no such file is there.
// Files that cannot be opened are claimed by no one: io_error findings.
struct DirectoryScan {
  std::optional<PathClaim> claim;
  std::vector<std::pair<std::string, PathClaim>> files;
  std::vector<Finding> unreadable;
};
DirectoryScan scan_directory(const std::string& dir, Registry drivers);

// Whether a file is not `family`'s: claimed on positive evidence by a
// driver of `drivers` other than the one named `family`, or of no known
// format (Claim::unrecognised). What a family's directory scan leaves out
// (a Kestrel 3 segment beside classic journals, a notes.json), asked of
// the registry rather than of another family's code; the walk skips and
// counts the files of no known format (path_walk.h).
std::function<bool(const std::string& path)> not_of_family(Registry drivers, std::string_view family);

// Whether a file that `family` claims without positive evidence may pass
// (classic Kestrel's repair decides about those itself: salvage, --force).
enum class WeakFiles { kRefused, kAccepted };

// For a command that only `family` answers: each PATH claimed by another
// family, or by `family` without positive evidence, is refused (a weak
// claim on a file passes with WeakFiles::kAccepted; on a directory never).
// Reports each refused PATH through report_error (a line on stderr naming
// the PATH, the family that claims it and the evidence; under --json, a
// JSON error object on stdout as well), and returns kUsage; nothing is
// opened for writing. nullopt when every PATH may go to `family`.
std::optional<ExitCode> refuse_foreign(std::string_view command, std::string_view family,
                                       const std::vector<std::string>& paths, Registry drivers,
                                       WeakFiles weak_files = WeakFiles::kRefused);

// The PATHs of one family (for Canal, of one file kind: meta.dat and
// meta.log are read apart), in the order given.
struct PathGroup {
  std::string key;  // the claims' group
  Driver* driver;
  std::vector<std::string> paths;
  std::vector<std::pair<std::string, std::string>> unproven;  // PATH and evidence of weak claims
  // What the family reads: the PATHs, except that a directory of a family
  // that does not read directories as a whole (Flume, Canal: a channel's
  // replay needs its directories named by options) stands for its files of
  // the group, found in the same single look at each file.
  std::vector<std::string> inputs;
};

// Each PATH goes to the family that claims it; what no family can open (a
// missing path, "-") goes to `unopened_owner` (the family whose options
// were given, e.g. a meta.dat that repair --from-log creates), else to the
// registry's last driver, whose selection reports it. A directory where no
// family finds a file is an io_error finding in `unclaimed` and in no group.
//
// With `unreadable` (the read commands, when no --format forces a family),
// a file that no family can read is one finding there and in no group: cut
// inside a family's magic (a weak claim of a family other than the
// registry's last), a broken_record at offset 0 naming that family; of no
// known format (Claim::unrecognised), an unknown_format finding naming
// what each family looked for, and what a family's software does with it
// where it lies (Driver::stray). Without it (writes, which refuse weak
// claims themselves) such a file goes to the family that claims it.
std::vector<PathGroup> group_by_family(const std::vector<std::string>& paths, Reporter* unclaimed, Registry drivers,
                                       Driver* unopened_owner = nullptr, Reporter* unreadable = nullptr);

}  // namespace qjt::cli
