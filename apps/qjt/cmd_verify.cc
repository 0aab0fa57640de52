// qjt verify: decode and replay everything, report every finding, and exit
// 0 (clean), 1 (errors; warnings too with --strict) or 3 (unreadable).
#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "canal_commands.h"
#include "canal_input.h"
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

// The PATHs of one family (for Canal, of one file kind), in the order given.
struct PathGroup {
  std::string key;
  Family family;
  std::vector<std::string> paths;
};

// Each PATH goes to the family that claims it (path_family.h); what no
// family can open (a missing path, "-") goes to classic Kestrel, whose
// selection reports it. A directory where no family finds a file is an
// I/O error in *unclaimed, not an empty success.
std::vector<PathGroup> group_by_family(const std::vector<std::string>& paths, VerifyTally* unclaimed) {
  std::vector<PathGroup> groups;
  for (const std::string& path : paths) {
    const auto claim = claim_path(path);
    std::error_code ec;
    if (!claim && std::filesystem::is_directory(path, ec)) {
      unclaimed->findings.report(Finding{Severity::kError, "io_error", path, std::nullopt,
                                         "expected a journal, channel or checkpoint file in this directory, found none"});
      unclaimed->status = ExitCode::kIoError;
      continue;
    }
    const Family family = claim ? claim->family : Family::kKestrel;
    std::string key(family_name(family));
    if (family == Family::kCanal && canal_kind({path}, "auto") == canal::FileKind::kMetaLog) key += "-log";
    auto group = std::find_if(groups.begin(), groups.end(), [&](const PathGroup& g) { return g.key == key; });
    if (group == groups.end()) group = groups.insert(groups.end(), PathGroup{key, family, {}});
    group->paths.push_back(path);
  }
  return groups;
}

// A Flume directory named as a PATH stands for its files, each decoded on
// its own: the channel's replay needs its directories named by
// --checkpoint-dir and --data-dir.
std::vector<std::string> files_of(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> entries;
    for (const auto& entry : std::filesystem::directory_iterator(path, ec))
      if (entry.is_regular_file(ec)) entries.push_back(entry.path().string());
    std::sort(entries.begin(), entries.end());
    files.insert(files.end(), entries.begin(), entries.end());
  }
  return files;
}

std::optional<VerifyTally> check_group(const VerifyOptions& o, const PathGroup& g) {
  switch (g.family) {
    case Family::kKestrel: return check_kestrel(o, g.paths);
    case Family::kLibkestrel:
      return check_libkestrel({.paths = g.paths, .queue = o.queue, .strict = o.strict, .quiet = o.quiet});
    case Family::kFlume: {
      FlumeRun run{files_of(g.paths), o.flume, o.json, "", std::nullopt, o.strict, o.quiet, false};
      return check_flume(run);
    }
    case Family::kCanal: return check_canal(CanalRun{g.paths, "auto", o.json, o.strict, o.quiet, {}});
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
  const auto groups = group_by_family(o.paths, &total);
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
  if (auto status = run_if_libkestrel({.paths = o.paths, .queue = o.queue, .json = o.json, .strict = o.strict, .quiet = o.quiet, .classic_only = o.legacy_xids}, run_libkestrel_verify)) return *status;
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
