// The Apache Flume file channel driver: checkpoints, inflight files, logs
// and their metadata, told by Flume's own file names and content; or a
// channel named by --checkpoint-dir, --data-dir and --backup-dir.
#include <filesystem>

#include <fmt/format.h>

#include "driver.h"
#include "flume/channel_layout.h"
#include "flume/channel_root.h"
#include "flume/cli/flume_commands.h"
#include "flume/cli/flume_compact.h"
#include "flume/cli/flume_convert.h"
#include "flume/cli/flume_gen.h"
#include "flume/cli/flume_hints.h"
#include "flume/cli/flume_repair.h"
#include "flume/file_kind.h"
#include "in_use.h"
#include "path_name.h"

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
  FlumeDriver() {
    dump_.does = "every record of checkpoints, inflight files and logs (also encrypted)";
    dump_.add_options = channel_options(false);
    dump_.options_name_input = names_channel_in;
    dump_.input_options = kChannelOptions;
    dump_.read = [](const ReadRequest& r) {
      return r.group == kLockGroup ? tell_locks(r.paths) : run_flume_dump(run(r));
    };

    verify_.does = "decodes every file, replays the channel, reads every queued event";
    verify_.add_options = channel_options(true);
    verify_.options_name_input = names_channel_in;
    verify_.input_options = kChannelOptions;
    verify_.verify = verify;

    replay_.does = "the queue Flume recovers at startup (a channel's directories)";
    replay_.add_options = channel_options(true);
    replay_.options_name_input = names_channel_in;
    replay_.input_options = kChannelOptions;
    replay_.read = [](const ReadRequest& r) {
      return r.group == kLockGroup ? tell_locks(r.paths) : run_flume_replay(run(r));
    };

    stats_.does = "queue depth, what pins each data log, where the next start recovers from";
    named_by_channel<FlumeStatsOptions>(&stats_, add_flume_stats_options);
    stats_.stats = [](const ReadRequest& r, StatsModel* model, Reporter* findings) {
      if (r.group == kLockGroup) {
        for (const std::string& path : r.paths) findings->report(lock_file_finding(path));
        return ExitCode::kOk;
      }
      const auto o = options_in<FlumeStatsOptions>(r.options);
      return run_flume_stats(run(r, o.flume), o.by_header, model, findings);
    };

    compact_.does = "writes the queue a channel recovers into fresh logs, freeing the logs old events pin";
    named_by_channel<FlumeCompactOptions>(&compact_, add_flume_compact_options);
    compact_.write = compact;

    convert_.does = "data logs to and from JSON Lines; a V2 checkpoint to V3 (--apply)";
    convert_.targets = {"jsonl", "flume-log", "flume-v3"};
    convert_.add_options = bind_options<FlumeConvertOptions>(add_flume_convert_options);
    convert_.convert = convert;

    repair_.does = "rebuilds the checkpoint from the logs, with backups";
    named_by_channel<FlumeRepairOptions>(&repair_, add_flume_repair_options);
    repair_.write = repair;

    gen_.does = "a channel: checkpoint (V2 or V3) and data dirs, transactions in flight, encryption";
    gen_.corruptions = flume::channel_corruptions();
    gen_.add_options = bind_options<FlumeGenOptions>(add_flume_gen_options);
    gen_.gen = [](const GenRequest& r) { return run_flume_gen(r, options_in<FlumeGenOptions>(r.options)); };
  }

  std::string_view name() const override { return kName; }
  std::string_view title() const override { return "Apache Flume file channel"; }
  std::vector<std::string_view> kinds() const override { return flume_format_names(); }

  std::optional<Claim> claim(const std::string& path, ByteSpan bytes) const override {
    // The lock Flume takes in each of a channel's directories: no file to decode.
    if (base_name(path) == flume::kLockFileName) return Claim{true, "Flume's in_use.lock", std::string(kLockGroup)};
    if (!flume::looks_like_flume(path, bytes)) return std::nullopt;
    const auto kind = flume::detect_file_kind(path, bytes);
    return Claim{true, fmt::format("a Flume file channel {} file", flume::file_kind_name(kind.kind)), "flume"};
  }

  std::string_view looks_for() const override {
    return "a Flume file channel file (checkpoint, inflight, log-N and their metadata, by name or signature)";
  }

  // Log records; the other files' lines are not filtered. The time is a
  // put's "timestamp" header (event time): Flume stores no time of its own.
  FilterFields filter_fields() const override {
    return {.ops = {"put", "take", "rollback", "commit", "noop", "end_of_data", "broken"},
            .xid = "transaction id",
            .time = "event time",
            .offsets = true};
  }

  bool reads_directories() const override { return false; }

  // A channel root: its directories are the channel's options.
  std::vector<Site> discover(const std::string& dir) const override {
    const auto root = flume::find_channel_root(dir);
    if (!root) return {};
    std::vector<std::string> covers = root->data_dirs;
    if (!root->checkpoint_dir.empty()) covers.push_back(root->checkpoint_dir);
    if (root->backup_dir) covers.push_back(*root->backup_dir);
    return {Site{.what = "Flume channel",
                 .where = {},
                 .paths = {},
                 .settings = channel_root_settings(*root),
                 .covers = std::move(covers)}};
  }

  // A root with two checkpoint (or backup) directories: each channel it could hold.
  std::vector<Settings> ambiguous_sites(const std::string& dir) const override {
    std::vector<Settings> sites;
    for (const flume::ChannelDirs& candidate : flume::channel_root_candidates(dir))
      sites.push_back(channel_root_settings(candidate));
    return sites;
  }

  Capability* provides(std::string_view command) override {
    return offered(command, {{"dump", &dump_},
                             {"verify", &verify_},
                             {"replay", &replay_},
                             {"stats", &stats_},
                             {"convert", &convert_},
                             {"compact", &compact_},
                             {"repair", &repair_},
                             {"gen", &gen_}});
  }

 private:
  static constexpr std::string_view kName = "flume";
  // The claims' group of in_use.lock files, which have nothing to read.
  static constexpr std::string_view kLockGroup = "flume-lock";
  static constexpr std::string_view kChannelOptions = "a Flume channel's --checkpoint-dir and --data-dir";

  // A command's options of type Options (with the channel's, as .flume),
  // which name its input: the channel's directories, instead of PATHs.
  template <typename Options>
  static void named_by_channel(Capability* capability, void (*add)(CLI::App*, Options*)) {
    capability->add_options = bind_options<Options>(add);
    capability->options_name_input = [](const OptionValues& v) { return names_channel(options_in<Options>(v).flume); };
    capability->input_options = kChannelOptions;
  }

  // add_options of dump (no channel given in full), verify and replay.
  static std::function<std::shared_ptr<std::any>(CLI::App*)> channel_options(bool with_capacity) {
    return bind_options<FlumeOptions>(
        [with_capacity](CLI::App* group, FlumeOptions* o) { add_channel_options(group, o, with_capacity); });
  }
  static bool names_channel_in(const OptionValues& values) { return names_channel(options_in<FlumeOptions>(values)); }

  static std::optional<VerifyTally> verify(const ReadRequest& r) {
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

  static ExitCode convert(const ConvertRequest& r) {
    FlumeConvertOptions run = options_in<FlumeConvertOptions>(r.options);
    run.to = r.to;
    run.input = r.input;
    run.output = r.output;
    run.data = r.data;
    run.guard = r.guard;
    run.flume.format = r.format == kName ? "auto" : r.format;
    run.drivers = r.drivers;
    return run_flume_convert(run);
  }

  // A channel is named by its directories, or found at its root (discover):
  // a PATH could be one file of it, and rewriting part of a channel is how
  // events get lost.
  static ExitCode repair(const WriteRequest& r) {
    if (!r.paths.empty() || !r.queue.empty()) {
      return usage_error(r.command,
                         "refused: a Flume channel is repaired by naming its directories "
                         "(--checkpoint-dir, --data-dir), not by PATH or --queue; nothing was changed");
    }
    FlumeRepairOptions run = options_in<FlumeRepairOptions>(r.options);
    adopt_discovered(r.discovered, &run.flume);
    run.apply = r.apply;
    run.json = r.json;
    run.guard = r.guard;
    run.drivers = r.drivers;
    return run_flume_repair(run);
  }

  static ExitCode compact(const WriteRequest& r) {
    if (!r.paths.empty() || !r.queue.empty()) {
      return usage_error(r.command,
                         "refused: a Flume channel is compacted by naming its directories "
                         "(--checkpoint-dir, --data-dir), not by PATH or --queue; nothing was changed");
    }
    return run_flume_compact(r, options_in<FlumeCompactOptions>(r.options));
  }

  // dump and replay of in_use.lock files: what each is, on standard error.
  static ExitCode tell_locks(const std::vector<std::string>& paths) {
    StderrReporter diagnostics;
    for (const std::string& path : paths) diagnostics.report(lock_file_finding(path));
    return ExitCode::kOk;
  }

  static FlumeRun run(const ReadRequest& r) { return run(r, options_in<FlumeOptions>(r.options)); }
  static FlumeRun run(const ReadRequest& r, FlumeOptions options) {
    options.format = r.format == kName ? "auto" : r.format;
    adopt_discovered(r.discovered, &options);
    return FlumeRun{r.paths, options, r.json, r.data, r.limit, r.filter, r.strict, r.quiet, r.printed};
  }

  ReadCapability dump_, replay_;
  VerifyCapability verify_;
  StatsCapability stats_;
  WriteCapability compact_, repair_;
  ConvertCapability convert_;
  GenCapability gen_;
};

}  // namespace

Driver& flume_driver() {
  static FlumeDriver driver;
  return driver;
}

}  // namespace qjt::cli
