// A family's part in a command. Each command of qjt (apps/qjt's table)
// names the capability it needs; a driver takes part by providing it
// (Driver::provides), under the command's name. A family that provides
// nothing for a command takes no part: dispatch refuses its inputs for that
// command (exit 2), and `qjt help formats` shows "-". A new command needs
// no edit in a driver that does not take part.
//
// The kinds below are what dispatch.h knows how to run: read (dump,
// replay), verify, stats, write (compact, repair), convert and gen. A capability
// is filled in by its driver: a phrase, its options, and the call.
#pragma once

#include <CLI/CLI.hpp>

#include <any>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "command_support.h"
#include "exit_code.h"
#include "finding.h"
#include "requests.h"
#include "stats_model.h"

namespace qjt::cli {

class Capability {
 public:
  virtual ~Capability() = default;

  // What the command does with this family, one phrase for `qjt help
  // formats` (for gen: what it writes).
  std::string_view does;
  // Adds this family's options of the command to `group` (its own group
  // in --help), bound to values made for this command line (bind_options)
  // that the call then gets in its request (options_in). The driver keeps
  // none: two command lines in one process, or a run and its jobs, never
  // share what they were given.
  std::function<std::shared_ptr<std::any>(CLI::App* group)> add_options;
  // Whether those options, given as in `values`, name an input of their
  // own, so that no PATH is needed (a Flume channel's directories).
  std::function<bool(const OptionValues& values)> options_name_input;
  // Those options, for the message when a command has no input at all
  // ("a Flume channel's --checkpoint-dir and --data-dir"); empty if none.
  std::string_view input_options;
  // Whether the command takes a file this family claims without positive
  // evidence (classic Kestrel's repair, which then refuses to cut it to
  // nothing without --force). Writing commands refuse such files otherwise.
  bool takes_unproven_files = false;
  // Whether the command takes the family's PATHs as one whole (classic
  // Kestrel's repair: one plan over every file, applied together): they
  // are one job, not split into the family's units (Driver::units).
  bool one_plan = false;
};

// dump, replay: what the family prints of its PATHs.
class ReadCapability final : public Capability {
 public:
  std::function<ExitCode(const ReadRequest&)> read;
};

// verify: what the family finds in its PATHs; nullopt on a usage error
// (printed).
class VerifyCapability final : public Capability {
 public:
  std::function<std::optional<VerifyTally>(const ReadRequest&)> verify;
};

// stats: what the family's PATHs hold, added to `model` as entities
// labelled format, path and what names them (stats_model.h), computed in
// the same pass as its replay. What is damaged goes to `findings`, and the
// rest is still added. Returns kIoError when something could not be read,
// else kOk (dispatch makes an error finding exit 1).
class StatsCapability final : public Capability {
 public:
  std::function<ExitCode(const ReadRequest&, StatsModel* model, Reporter* findings)> stats;
};

// compact, repair: called only when every PATH is the family's on positive
// evidence (or takes_unproven_files).
class WriteCapability final : public Capability {
 public:
  std::function<ExitCode(const WriteRequest&)> write;
};

// convert: the --to targets the family writes (jsonl: from its input).
class ConvertCapability final : public Capability {
 public:
  std::vector<std::string_view> targets;
  std::function<ExitCode(const ConvertRequest&)> convert;
};

// gen: the same request (seed included) gives the same bytes. Called with
// the shared options parsed and this family's the only ones given.
class GenCapability final : public Capability {
 public:
  std::vector<std::string_view> corruptions;  // the --corrupt modes, "none" aside
  std::function<ExitCode(const GenRequest&)> gen;
};

// add_options for options held in one O, which add(group, &o) binds.
template <typename O, typename Add>
std::function<std::shared_ptr<std::any>(CLI::App*)> bind_options(Add add) {
  return [add](CLI::App* group) {
    auto values = std::make_shared<std::any>(O{});
    add(group, std::any_cast<O>(values.get()));
    return values;
  };
}

// The options of type O in a request, as bind_options<O> made and CLI11
// filled them; O's defaults for a request made without them.
template <typename O>
O options_in(const OptionValues& values) {
  return values ? std::any_cast<const O&>(*values) : O{};
}

// For a driver's provides(): the capability offered under `command`, null
// when none is.
inline Capability* offered(std::string_view command,
                           std::initializer_list<std::pair<std::string_view, Capability*>> capabilities) {
  for (const auto& [name, capability] : capabilities)
    if (name == command) return capability;
  return nullptr;
}

}  // namespace qjt::cli
