// Which format family a PATH belongs to, told once, by one rule, for every
// command: the start of the format layer (issue 13). The families are tried
// in a fixed order, each on its own evidence:
//
//   libkestrel  a segment or bookmark magic, or a cut one (a 1-3 byte file
//               holding a prefix of a magic)
//   canal       meta.dat / meta.log content or names (canal_file_kind.h)
//   flume       Flume's file names or content only Flume writes
//   kestrel     everything else; positive only when a record decodes at
//               offset 0 (or the file is empty), since classic Kestrel
//               journals carry no magic
//
// A directory belongs to the first family other than classic Kestrel that
// claims one of its regular files, else to classic Kestrel. Only regular
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
#include "exit_code.h"
#include "finding.h"

namespace qjt::app {

enum class Family { kKestrel, kLibkestrel, kFlume, kCanal };

// "kestrel", "libkestrel", "flume", "canal": the JSON and --format names.
std::string_view family_name(Family family);

struct PathClaim {
  Family family = Family::kKestrel;
  bool positive = false;  // magic, the family's own names, or a decodable first record
  std::string evidence;   // one short phrase: what was found, for messages
  std::string group;      // the family's name, or for Canal the file kind (canal-meta-dat, canal-meta-log)
};

// The claim on one file's bytes; `path` is used for its name only.
PathClaim claim_file(const std::string& path, ByteSpan bytes);

// The claim on a PATH (a regular file or a directory). nullopt when the
// PATH is missing, unreadable, "-", not a regular file or directory, or a
// directory that holds no regular file.
std::optional<PathClaim> claim_path(const std::string& path);

// Whether a file that `family` claims without positive evidence may pass
// (classic Kestrel's repair decides about those itself: salvage, --force).
enum class WeakFiles { kRefused, kAccepted };

// For a command that only `family` answers: each PATH claimed by another
// family, or by `family` without positive evidence, is refused (a weak
// claim on a file passes with WeakFiles::kAccepted; on a directory never).
// Prints one line per refused PATH to stderr, naming the PATH, the family
// that claims it and the evidence, and returns kUsage; nothing is opened
// for writing. nullopt when every PATH may go to `family`.
std::optional<ExitCode> refuse_foreign(std::string_view command, Family family,
                                       const std::vector<std::string>& paths,
                                       WeakFiles weak_files = WeakFiles::kRefused);

// The PATHs of one family (for Canal, of one file kind: meta.dat and
// meta.log are read apart), in the order given.
struct PathGroup {
  std::string key;
  Family family;
  std::vector<std::string> paths;
};

// Each PATH goes to the family that claims it; what no family can open (a
// missing path, "-") goes to classic Kestrel, whose selection reports it.
// A directory where no family finds a file is an io_error finding in
// `unclaimed` and in no group.
std::vector<PathGroup> group_by_family(const std::vector<std::string>& paths, Reporter* unclaimed);

// The PATHs a group's family reads: a directory of Flume or Canal files
// stands for its files of the group's kind (Flume's channel replay needs
// its directories named by --checkpoint-dir and --data-dir); other PATHs
// are kept as they are.
std::vector<std::string> group_inputs(const PathGroup& g);

// Runs `run` on the inputs of each family group of `paths` in turn, after
// printing the unclaimed directories to stderr as io_error findings;
// returns the worst status (kIoError for an unclaimed directory).
ExitCode for_each_family(const std::vector<std::string>& paths,
                         const std::function<ExitCode(const std::vector<std::string>&)>& run);

}  // namespace qjt::app
