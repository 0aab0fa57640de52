// What the commands hand to a family's driver (capability.h): the parsed
// options every family shares, one request type per kind of command.
#pragma once

#include <any>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "read_filter.h"
#include "write_guard.h"

namespace qjt::cli {

class Driver;
// The drivers a command may choose from, in the order they claim PATHs
// (registry.h has qjt's own list; tests pass their own).
using Registry = std::span<Driver* const>;
// One command line's values of the family's own options (capability.h's
// add_options), for the family's call to read; null when it has none.
using OptionValues = std::shared_ptr<const std::any>;

// The options an installation of a family stands for, found by the shape
// of a directory (Driver::discover): each a long option's name and its
// value, as the user could have given them ("--checkpoint-dir", DIR).
using Settings = std::vector<std::pair<std::string, std::string>>;

// What dump, verify and replay share, whatever the family.
struct ReadRequest {
  std::string_view command{};        // the command's name, for messages
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
  OptionValues options{};              // the family's own options
  // What a discovered installation stands for (path_walk.h); the family's
  // own options given on the command line win over it.
  Settings discovered{};
  // The PATHs were found by a walk or a discovery (path_walk.h), not
  // named: what the command does not take of them is passed over, with a
  // note, rather than refused (replay of a Canal destination's meta.dat).
  bool found = false;
};

// What compact and repair share, whatever the family.
struct WriteRequest {
  std::string_view command{};        // the command's name, for messages
  std::vector<std::string> paths{};  // the PATHs this driver was given, as given
  std::string group{};               // the claim group they share
  std::string queue{};               // --queue
  bool json = false;
  bool dry_run = false;  // compact --dry-run: plan, also with -o
  bool apply = false;    // --apply: change files in place (without it, plan)
  // compact --if-reclaimable SIZE: a quiet no-op when less would be freed.
  std::optional<std::uint64_t> if_reclaimable{};
  WriteGuardOptions guard{};
  Registry drivers{};      // the registry in use, for checks of other PATHs (a channel's directories)
  OptionValues options{};  // the family's own options
  Settings discovered{};   // as ReadRequest::discovered
  bool found = false;      // as ReadRequest::found: a meta.log of a Canal destination is passed over
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
  OptionValues options{};                  // the family's own options
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
  OptionValues options{};                   // the family's own options
};

}  // namespace qjt::cli
