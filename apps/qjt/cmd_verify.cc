// qjt verify: decode and replay everything, report every finding, and exit
// 0 (clean), 1 (errors; warnings too with --strict) or 3 (unreadable).
#include <fmt/format.h>

#include "canal_commands.h"
#include "commands.h"
#include "flume_commands.h"
#include "kestrel_input.h"
#include "libkestrel_commands.h"
#include "output.h"

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

ExitCode run_verify(const VerifyOptions& o) {
  FlumeRun flume{o.paths, o.flume, o.json, "", std::nullopt, o.strict, o.quiet, false};
  if (auto status = run_if_canal(CanalRun{o.paths, o.flume.format, o.json, o.strict, o.quiet, o.canal}, run_canal_verify)) return *status;
  if (auto status = run_if_flume(flume, run_flume_verify)) return *status;
  if (auto status = run_if_libkestrel({.paths = o.paths, .queue = o.queue, .json = o.json, .strict = o.strict, .quiet = o.quiet, .classic_only = o.legacy_xids}, run_libkestrel_verify)) return *status;
  FindingList findings;
  JournalSelection selection = open_journals_and_report(o.paths, o.queue, &findings);
  std::uint64_t files = 0, records = 0;
  for (const auto& journal : selection.journals) {
    kestrel::ReplayState state(kestrel::ReplayOptions{o.legacy_xids}, &findings);
    for (std::uint64_t n : replay_journal(journal, &state)) records += n;
    files += journal.files.size();
  }
  Output out;
  const bool ok = write_verify_report(&out, findings, files, records, o.json, o.strict, o.quiet);
  return finish_output(&out, worse(selection.status, ok ? ExitCode::kOk : ExitCode::kProblems));
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
