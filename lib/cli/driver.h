// The format layer. Each family (classic Kestrel, libkestrel, Flume, Canal)
// is a Driver; registry.h lists them in one place. A driver
//
//   - claims the PATHs that are its family's, saying on what evidence
//     (a magic, the family's own file names, a decodable first record);
//   - takes part in the commands it provides a capability for
//     (capability.h), with its own options, shown as its own group in
//     --help (an option of one family given for another is refused, once,
//     in dispatch.h). A command it takes no part in is refused with exit
//     2, never handed to another family.
//
// The cmd_*.cc files parse what every family shares into a request
// (requests.h) and hand it to dispatch.h, which sniffs each PATH once and
// calls the drivers' capabilities.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "byte_span.h"
#include "capability.h"
#include "finding.h"
#include "read_filter.h"

namespace qjt::cli {

// A driver's claim on one file.
struct Claim {
  bool positive = false;  // magic, the family's own names, or a decodable first record
  std::string evidence;   // one short phrase: what was found, for messages
  std::string group;      // inputs read together: the family's name, or a file kind (canal-meta-dat)
  // Not positive, and not even a sign of the family: the registry's last
  // family's claim on a file where nothing of it was found (for classic
  // Kestrel, no opcode at offset 0). Read commands report such a file as
  // of no known format (path_family.h).
  bool unrecognised = false;
  // Whether the file makes its directory the family's (scan_directory).
  // Classic Kestrel reads a 0-byte notes.txt named alone as an empty
  // journal, but only a journal named as Kestrel names them makes a queue
  // directory, so that a stray file neither makes one nor unmakes one.
  bool makes_directory = true;
};

// An installation of the family that a directory holds, found by its shape
// (a Flume channel root, a Canal deployer's destination): a unit read as
// one, whatever its files' names.
struct Site {
  std::string what;                 // what it is, for messages: "Flume channel", "Canal destination example"
  std::string where;                // its path, when the directory holds several (a Canal deployer's
                                    // conf/example); empty: the directory
  std::vector<std::string> paths;   // the files the family reads as PATHs (Canal's meta.dat and meta.log)
  Settings settings;                // the options it stands for (Flume's directories)
  std::vector<std::string> covers;  // the entries of the directory it accounts for: not walked again
};

class Driver {
 public:
  virtual ~Driver() = default;

  // The --format and JSON "format" name: kestrel, libkestrel, flume, canal.
  virtual std::string_view name() const = 0;
  // What the family is, in a few words; also its options' group in --help.
  virtual std::string_view title() const = 0;
  // File kinds --format may force beside name() (flume-checkpoint, ...).
  virtual std::vector<std::string_view> kinds() const { return {}; }

  // The claim on a file, judged by its name and bytes; nullopt when the
  // family does not recognise it. A claim without positive evidence (a
  // magic cut short; for the registry's last family, anything) loses to
  // any positive claim, and writing commands refuse it.
  virtual std::optional<Claim> claim(const std::string& path, ByteSpan bytes) const = 0;

  // What claim() looks for, one phrase ("a libkestrel segment or bookmark
  // magic"), for the finding on a file that no family recognises.
  virtual std::string_view looks_for() const = 0;

  // This family's part in the command named `command` (capability.h);
  // null when it takes no part, and the command refuses its inputs.
  virtual Capability* provides(std::string_view command) = 0;
  // Why the family takes no part in `command`, for the refusal; may be empty.
  virtual std::string_view why_not(std::string_view /*command*/) const { return ""; }

  // What the family's software does with `file`, which no family reads,
  // where it lies (classic Kestrel's startup reads every file of a queue
  // directory): the finding its reader of the file's directory would
  // report (stray_file), so that a file named alone gets it too; none by
  // default. `drivers`: the registry, to tell the family's files.
  virtual std::vector<Finding> stray(const std::string& /*file*/, Registry /*drivers*/) const { return {}; }

  // Whether a directory given as PATH is read as a whole (a queue
  // directory); when false it stands for its files of the claimed group.
  virtual bool reads_directories() const { return true; }

  // The installations of the family that the directory `dir` holds, by the
  // layout its software writes (path_walk.h), judged by names alone; none
  // by default. A family whose inputs are named by options (Flume's
  // directories) reads a site's settings from ReadRequest::discovered.
  virtual std::vector<Site> discover(const std::string& /*dir*/) const { return {}; }

  // When `dir` has the shape of an installation but does not tell which
  // one (a Flume root with two checkpoint directories): each candidate as
  // the options that name it, for a writer's refusal (exit 2); none when
  // discover() tells, or when `dir` is no installation at all.
  virtual std::vector<Settings> ambiguous_sites(const std::string& /*dir*/) const { return {}; }

  // The units of work among one group's PATHs (path_family.h): sets of
  // PATHs that share nothing the family reads or writes (a queue, a queue
  // directory), in the order one run over all of them would take them.
  // Each unit is a job of its own (lib/cli/jobs.h), under -j 1 too, so
  // what a run prints never depends on -j. By default the group is one.
  virtual std::vector<std::vector<std::string>> units(const std::vector<std::string>& paths) const { return {paths}; }

  // What the family's records offer to the filters of dump and replay
  // (read_filter.h); a filter given for a field it lacks is refused before
  // the family is called.
  virtual FilterFields filter_fields() const { return {}; }
};

// `driver`'s capability of kind C for `command`; null when it provides
// none, or one of another kind.
template <typename C>
C* capability(Driver* driver, std::string_view command) {
  return dynamic_cast<C*>(driver->provides(command));
}

}  // namespace qjt::cli
