// qjt verify: decode and replay everything, report every finding, and exit
// 0 (clean), 1 (errors; warnings too with --strict) or 3 (unreadable).
#include <algorithm>

#include <fmt/format.h>

#include "canal_commands.h"
#include "commands.h"
#include "flume_commands.h"
#include "kestrel_input.h"
#include "libkestrel_commands.h"
#include "output.h"
#include "path_family.h"

namespace qjt::app {
namespace {

struct VerifyOptions {
  std::vector<std::string> paths;
  std::string queue;
  bool json = false;
  bool strict = false;
  bool quiet = false;
  bool legacy_xids = false;
  FlumeOptions flume;
  CanalOptions canal;
};

VerifyTally check_kestrel(const VerifyOptions& o, const std::vector<std::string>& paths) {
  VerifyTally tally;
  JournalSelection selection = open_journals_and_report(paths, o.queue, &tally.findings);
  tally.status = selection.status;
  for (const auto& journal : selection.journals) {
    kestrel::ReplayState state(kestrel::ReplayOptions{o.legacy_xids}, &tally.findings);
    for (std::uint64_t n : replay_journal(journal, &state)) tally.records += n;
    tally.files += journal.files.size();
  }
  return tally;
}

std::optional<VerifyTally> check_group(const VerifyOptions& o, const PathGroup& g) {
  switch (g.family) {
    case Family::kKestrel: return check_kestrel(o, g.paths);
    case Family::kLibkestrel:
      return check_libkestrel({.paths = g.paths, .queue = o.queue, .strict = o.strict, .quiet = o.quiet});
    case Family::kFlume: {
      FlumeRun run{group_inputs(g), o.flume, o.json, "", std::nullopt, o.strict, o.quiet, false};
      return check_flume(run);
    }
    case Family::kCanal: return check_canal(CanalRun{group_inputs(g), "auto", o.json, o.strict, o.quiet, {}});
  }
  return std::nullopt;
}

// Unless an option picks the family, each PATH goes to the family that
// claims it: each group is checked by its own family, into one report and
// one exit status, whatever the order (qjt verify fixtures/*).
std::optional<ExitCode> run_by_family(const VerifyOptions& o) {
  const bool options_pick_family = o.flume.format != "auto" || names_channel(o.flume) || !o.canal.binlogs.empty() ||
                                   !o.canal.metrics.empty() || o.paths.empty();
  if (options_pick_family) return std::nullopt;
  VerifyTally total;
  const auto groups = group_by_family(o.paths, &total.findings);
  if (total.findings.count(Severity::kError) > 0) total.status = ExitCode::kIoError;
  if (o.legacy_xids && groups.size() > 1) {
    fmt::print(stderr, "qjt verify: --legacy-xids applies to classic Kestrel journals only; give them in a run of their own\n");
    return ExitCode::kUsage;
  }
  for (const PathGroup& g : groups) {
    const auto tally = check_group(o, g);
    if (!tally) return ExitCode::kUsage;
    total.add(*tally);
  }
  return finish_verify(total, o.json, o.strict, o.quiet);
}

ExitCode run_verify(const VerifyOptions& o) {
  if (auto status = run_by_family(o)) return *status;
  FlumeRun flume{o.paths, o.flume, o.json, "", std::nullopt, o.strict, o.quiet, false};
  if (auto status = run_if_canal(CanalRun{o.paths, o.flume.format, o.json, o.strict, o.quiet, o.canal}, run_canal_verify)) return *status;
  if (auto status = run_if_flume(flume, run_flume_verify)) return *status;
  if (auto status = run_if_libkestrel({.paths = o.paths, .queue = o.queue, .json = o.json, .strict = o.strict, .quiet = o.quiet, .classic_only = o.legacy_xids, .format = o.flume.format}, run_libkestrel_verify)) return *status;
  return finish_verify(check_kestrel(o, o.paths), o.json, o.strict, o.quiet);
}

}  // namespace

void add_verify_command(CLI::App* app, ExitCode* status) {
  auto o = std::make_shared<VerifyOptions>();
  auto* command = app->add_subcommand("verify", "Find every problem; the exit status tells CI");
  add_journal_selection(command, &o->paths, &o->queue, false);
  command->add_flag("--json", o->json, "One JSON report object");
  command->add_flag("--strict", o->strict, "Warnings fail too");
  command->add_flag("-q,--quiet", o->quiet, "No summary line when everything is clean");
  command->add_flag("--legacy-xids", o->legacy_xids,
                    "Replay legacy REMOVE_TENTATIVE by Kestrel 1.x rules");
  add_flume_options(command, &o->flume, true);
  add_canal_verify_options(command, &o->canal);
  command->callback([o, status] { *status = run_verify(*o); });
}

}  // namespace qjt::app
