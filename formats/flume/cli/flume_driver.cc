// The Apache Flume file channel driver: checkpoints, inflight files, logs
// and their metadata, told by Flume's own file names and content; or a
// channel named by --checkpoint-dir, --data-dir and --backup-dir.
#include <filesystem>

#include <fmt/format.h>

#include "driver.h"
#include "flume/channel_layout.h"
#include "flume/cli/flume_commands.h"
#include "flume/cli/flume_convert.h"
#include "flume/cli/flume_gen.h"
#include "flume/cli/flume_hints.h"
#include "flume/cli/flume_repair.h"
#include "flume/file_kind.h"
#include "in_use.h"

namespace qjt::cli {
namespace {

// Flume's in_use.lock given as a PATH: a file without records, told as a
// warning that says what it is and which process holds it.
Finding lock_file_finding(const std::string& path) {
  const std::string dir = std::filesystem::path(path).parent_path().string();
  const auto holder = find_lock_holder(path);
  const std::string held = !holder            ? "no process holds it (Flume leaves it when it stops)"
                           : holder->pid == 0 ? "a process holds it, but none that can be seen has it open"
                                              : fmt::format("held by pid {} ({})", holder->pid, holder->command);
  return Finding{Severity::kWarning, "lock_file", path, std::nullopt,
                 fmt::format("expected a Flume file with records, found Flume's in_use.lock, the lock a Flume "
                             "agent takes on {}: no records; {}",
                             dir.empty() ? "." : dir, held)};
}

class FlumeDriver final : public Driver {
 public:
  std::string_view name() const override { return "flume"; }
  std::string_view title() const override { return "Apache Flume file channel"; }
  std::vector<std::string_view> kinds() const override { return flume_format_names(); }

  std::optional<Claim> claim(const std::string& path, ByteSpan bytes) const override {
    // The lock Flume takes in each of a channel's directories: no file to decode.
    if (std::filesystem::path(path).filename() == flume::kLockFileName)
      return Claim{true, "Flume's in_use.lock", std::string(kLockGroup)};
    if (!flume::looks_like_flume(path, bytes)) return std::nullopt;
    const auto kind = flume::detect_file_kind(path, bytes);
    return Claim{true, fmt::format("a Flume file channel {} file", flume::file_kind_name(kind.kind)), "flume"};
  }

  std::string_view looks_for() const override {
    return "a Flume file channel file (checkpoint, inflight, log-N and their metadata, by name or signature)";
  }

  std::string_view does(Command command) const override {
    switch (command) {
      case Command::kDump:
        return "every record of checkpoints, inflight files and logs (also encrypted)";
      case Command::kVerify:
        return "decodes every file, replays the channel, reads every queued event";
      case Command::kReplay:
        return "the queue Flume recovers at startup (a channel's directories)";
      case Command::kCompact:
        return "";  // Flume's own log cleaner drops the logs no event needs
      case Command::kConvert:
        return "data logs to and from JSON Lines; a V2 checkpoint to V3 (--apply)";
      case Command::kRepair:
        return "rebuilds the checkpoint from the logs, with backups";
    }
    return "";
  }

  // Log records; the other files' lines are not filtered. The time is a
  // put's "timestamp" header (event time): Flume stores no time of its own.
  FilterFields filter_fields() const override {
    return {.ops = {"put", "take", "rollback", "commit", "noop", "end_of_data", "broken"},
            .xid = "transaction id",
            .time = "event time",
            .offsets = true};
  }

  void add_options(Command command, CLI::App* group) override {
    if (command == Command::kDump || command == Command::kVerify || command == Command::kReplay)
      add_channel_options(group, &options_[command], command != Command::kDump);
    if (command == Command::kRepair) add_flume_repair_options(group, &repair_);
    if (command == Command::kConvert) add_flume_convert_options(group, &convert_);
  }
  bool options_name_input(Command command) const override {
    return names_channel(command == Command::kRepair ? repair_.flume : options_[command]);
  }
  std::string_view input_options(Command command) const override {
    return command == Command::kCompact || command == Command::kConvert
               ? ""
               : "a Flume channel's --checkpoint-dir and --data-dir";
  }
  bool reads_directories() const override { return false; }

  ExitCode dump(const ReadRequest& r) override {
    if (r.group == kLockGroup) return tell_locks(r.paths);
    return run_flume_dump(run(r));
  }
  std::optional<VerifyTally> verify(const ReadRequest& r) override {
    if (r.group == kLockGroup) {
      VerifyTally tally;
      for (const std::string& path : r.paths) tally.findings.report(lock_file_finding(path));
      tally.files = r.paths.size();
      return tally;
    }
    const FlumeRun flume = run(r);
    auto tally = check_flume(flume);
    if (tally) tally->findings.add_hints(flume_hints(flume.flume));
    return tally;
  }
  ExitCode replay(const ReadRequest& r) override {
    if (r.group == kLockGroup) return tell_locks(r.paths);
    return run_flume_replay(run(r));
  }

  std::vector<std::string_view> converts_to() const override { return {"jsonl", "flume-log", "flume-v3"}; }
  ExitCode convert(const ConvertRequest& r) override {
    FlumeConvertOptions run = convert_;
    run.to = r.to;
    run.input = r.input;
    run.output = r.output;
    run.data = r.data;
    run.guard = r.guard;
    run.flume.format = r.format == name() ? "auto" : r.format;
    run.drivers = r.drivers;
    return run_flume_convert(run);
  }

  std::string_view generates() const override {
    return "a channel: checkpoint (V2 or V3) and data dirs, transactions in flight, encryption";
  }
  std::vector<std::string_view> corruptions() const override { return flume::channel_corruptions(); }
  void add_gen_options(CLI::App* group) override { add_flume_gen_options(group, &gen_); }
  ExitCode gen(const GenRequest& r) override { return run_flume_gen(r, gen_); }

  // A channel is named by its directories: a PATH could be one file of
  // it, and rewriting part of a channel is how events get lost.
  ExitCode repair(const WriteRequest& r) override {
    if (!r.paths.empty() || !r.queue.empty()) {
      return usage_error("repair",
                         "refused: a Flume channel is repaired by naming its directories "
                         "(--checkpoint-dir, --data-dir), not by PATH or --queue; nothing was changed");
    }
    FlumeRepairOptions run = repair_;
    run.apply = r.apply;
    run.json = r.json;
    run.guard = r.guard;
    run.drivers = r.drivers;
    return run_flume_repair(run);
  }

 private:
  // The claims' group of in_use.lock files, which have nothing to read.
  static constexpr std::string_view kLockGroup = "flume-lock";

  // dump and replay of in_use.lock files: what each is, on standard error.
  static ExitCode tell_locks(const std::vector<std::string>& paths) {
    StderrReporter diagnostics;
    for (const std::string& path : paths) diagnostics.report(lock_file_finding(path));
    return ExitCode::kOk;
  }

  FlumeRun run(const ReadRequest& r) const {
    FlumeOptions options = options_[r.command];
    options.format = r.format == name() ? "auto" : r.format;
    return FlumeRun{r.paths, options, r.json, r.data, r.limit, r.filter, r.strict, r.quiet, r.printed};
  }

  PerCommand<FlumeOptions> options_;
  FlumeRepairOptions repair_;
  FlumeConvertOptions convert_;
  FlumeGenOptions gen_;
};

}  // namespace

Driver& flume_driver() {
  static FlumeDriver driver;
  return driver;
}

}  // namespace qjt::cli
