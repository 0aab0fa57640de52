// The format layer. Each family (classic Kestrel, libkestrel, Flume, Canal)
// is a Driver; registry.h lists them in one place. A driver
//
//   - claims the PATHs that are its family's, saying on what evidence
//     (a magic, the family's own file names, a decodable first record);
//   - adds its own options to each command, shown as its own group in
//     --help (an option of one family given for another is refused, once,
//     in dispatch.h);
//   - answers the commands it supports. A command it does not support is
//     refused with exit 2, never handed to another family.
//
// The cmd_*.cc files parse what every family shares into a request and
// hand it to dispatch.h, which sniffs each PATH once and calls the drivers.
#pragma once

#include <CLI/CLI.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "byte_span.h"
#include "command_support.h"
#include "exit_code.h"
#include "read_filter.h"
#include "write_guard.h"

namespace qjt::cli {

enum class Command { kDump, kVerify, kReplay, kCompact, kConvert, kRepair };
inline constexpr std::array kAllCommands{Command::kDump,    Command::kVerify,  Command::kReplay,
                                         Command::kCompact, Command::kConvert, Command::kRepair};
std::string_view command_name(Command command);

// A family's options, one set per command: each command's parser binds its
// own, so what one command was given never reaches another.
template <typename Options>
class PerCommand {
 public:
  Options& operator[](Command command) { return all_[static_cast<std::size_t>(command)]; }
  const Options& operator[](Command command) const { return all_[static_cast<std::size_t>(command)]; }

 private:
  std::array<Options, kAllCommands.size()> all_{};
};

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
};

class Driver;
// The drivers a command may choose from, in the order they claim PATHs
// (registry.h has qjt's own list; tests pass their own).
using Registry = std::span<Driver* const>;

// What dump, verify and replay share, whatever the family.
struct ReadRequest {
  Command command = Command::kDump;
  std::vector<std::string> paths{};  // the PATHs this driver was given
  std::string group{};               // the claim group they share; empty when options chose the driver
  std::string format = "auto";       // --format as given (a driver's own name or kind)
  std::string queue{};               // --queue
  bool json = false;
  std::string data{};                    // --data; empty when not given
  std::optional<std::uint64_t> limit{};  // dump --limit: what is left of it for this driver
  // dump: the driver adds the records it printed, so that --limit counts
  // over a run of several families; may be null.
  std::uint64_t* printed = nullptr;
  ReadFilter filter{};                 // dump --op, --xid, --since, --until, --from-offset, --to-offset;
                                       // replay --since, --until
  bool strict = false, quiet = false;  // verify
  Registry drivers{};                  // the registry in use, to tell other families' files
};

// What compact and repair share, whatever the family.
struct WriteRequest {
  Command command = Command::kCompact;
  std::vector<std::string> paths{};  // the PATHs this driver was given, as given
  std::string group{};               // the claim group they share
  std::string queue{};               // --queue
  bool json = false;
  bool dry_run = false;  // compact --dry-run
  bool apply = false;    // repair --apply
  WriteGuardOptions guard{};
  Registry drivers{};  // the registry in use, for checks of other PATHs (a channel's directories)
};

// What convert shares, whatever the family.
struct ConvertRequest {
  std::string to{};                        // --to: a target of the driver's converts_to()
  std::string input{};                     // INPUT; empty when not given
  std::string output = "-";                // -o
  std::string data{};                      // --data, for --to jsonl
  std::string format = "auto";             // --format as given
  std::optional<std::int64_t> add_time{};  // --add-time
  WriteGuardOptions guard{};               // --force, --backup-to, ...: an existing OUTPUT (named_output.h)
  Registry drivers{};                      // the registry in use
};

// What gen shares, whatever the family (man/qjt-gen.1). Unset means the
// family's default; a family that has no use for one refuses it.
struct GenRequest {
  std::string output{};                        // -o: a file, a directory, or - (standard output)
  std::uint64_t seed = 1;                      // --seed
  std::optional<std::uint64_t> records{};      // --records
  std::optional<std::uint64_t> size{};         // --size, in bytes (excludes --records)
  std::optional<std::uint32_t> payload_min{};  // --payload-size MIN-MAX (or N: both)
  std::optional<std::uint32_t> payload_max{};
  std::int64_t add_time = 0;                // --add-time, epoch ms (gen's default when not given)
  std::optional<std::uint32_t> open{};      // --open: transactions left open
  std::optional<std::uint32_t> segments{};  // --segments: files of a queue directory
  std::optional<std::string> queue{};       // --queue: the queue's name
  std::string corrupt = "none";             // --corrupt: a mode of the family's corruptions()
  bool force = false;                       // --force
  bool json = false;                        // --json
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

  // What `command` does with this family, one phrase for `qjt help
  // formats`; empty when the family does not support it.
  virtual std::string_view does(Command command) const = 0;
  // Why the family does not support `command`, for the refusal; may be empty.
  virtual std::string_view why_not(Command /*command*/) const { return ""; }

  // Adds this family's options of `command` to `group`.
  virtual void add_options(Command /*command*/, CLI::App* /*group*/) {}
  // Whether this family's options given to `command` name an input of
  // their own, so that no PATH is needed (a Flume channel's directories).
  virtual bool options_name_input(Command /*command*/) const { return false; }
  // Those options, for the message when a command has no input at all
  // ("a Flume channel's --checkpoint-dir and --data-dir"); empty if none.
  virtual std::string_view input_options(Command /*command*/) const { return ""; }

  // Whether `command` takes a file this family claims without positive
  // evidence (classic Kestrel's repair, which then refuses to cut it to
  // nothing without --force). Writing commands refuse such files otherwise.
  virtual bool takes_unproven_files(Command /*command*/) const { return false; }

  // Whether a directory given as PATH is read as a whole (a queue
  // directory); when false it stands for its files of the claimed group.
  virtual bool reads_directories() const { return true; }

  // What the family's records offer to the filters of dump and replay
  // (read_filter.h); a filter given for a field it lacks is refused before
  // dump() or replay() is called.
  virtual FilterFields filter_fields() const { return {}; }

  // The read commands, called only when does() says they are supported.
  virtual ExitCode dump(const ReadRequest& request) = 0;
  // What verify found; nullopt on a usage error (printed).
  virtual std::optional<VerifyTally> verify(const ReadRequest& request) = 0;
  virtual ExitCode replay(const ReadRequest& request) = 0;

  // The writing commands, called only when does() says they are supported
  // and every PATH is this family's on positive evidence.
  virtual ExitCode compact(const WriteRequest& request);
  virtual ExitCode repair(const WriteRequest& request);

  // The --to targets this family's convert writes (jsonl: from its input).
  virtual std::vector<std::string_view> converts_to() const { return {}; }
  virtual ExitCode convert(const ConvertRequest& request);

  // What `qjt gen NAME` writes, one phrase; empty when the family has no
  // generator. The same request (seed included) gives the same bytes.
  virtual std::string_view generates() const { return ""; }
  // The --corrupt modes gen knows for this family, "none" aside.
  virtual std::vector<std::string_view> corruptions() const { return {}; }
  // Adds this family's gen options to `group` (its --help group).
  virtual void add_gen_options(CLI::App* /*group*/) {}
  // Called only when generates() is not empty, with the shared options
  // parsed and this family's the only ones given.
  virtual ExitCode gen(const GenRequest& /*request*/) { return usage_error("gen", "this format has no generator"); }
};

}  // namespace qjt::cli
