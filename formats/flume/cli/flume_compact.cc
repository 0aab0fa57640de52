#include "flume/cli/flume_compact.h"

#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "byte_size.h"
#include "command_support.h"
#include "failpoint.h"
#include "flume/channel_compaction.h"
#include "flume/channel_repair.h"
#include "flume/checkpoint_file.h"
#include "flume/compaction_in_place.h"
#include "free_space.h"
#include "guarded_replace.h"
#include "in_use.h"
#include "interrupt.h"
#include "json_line.h"
#include "output.h"
#include "path_family.h"

namespace qjt::cli {
namespace {

namespace fs = std::filesystem;

struct Report {
  std::string action;  // dry_run, written, compacted, skipped
  std::string reason;  // for skipped: "nothing to do: ..."
  const flume::CompactionPlan* plan = nullptr;
  std::int64_t capacity = 0;
  const FlumeCompactOptions* options = nullptr;
  std::optional<FindingList> verified;  // the new channel read back, once written
  std::string backup_dir;               // in place: where the old files are kept
  bool apply = false;                   // --apply: in place
};

// What keeps a log on disk, as `qjt stats` counts it (log_space.h).
std::string pins_text(const flume::LogSpace& s) {
  std::vector<std::string> pins;
  if (s.reference_count > 0) pins.push_back(fmt::format("queue ({})", s.reference_count));
  if (s.inflight > 0) pins.push_back(fmt::format("open transactions ({})", s.inflight));
  if (s.current_write_log) pins.push_back("current write log");
  if (s.pinned_by_lower_log) pins.push_back("a lower log in use");
  if (pins.empty()) return s.deletable ? "nothing (Flume deletes it)" : "nothing";
  return fmt::format("{}", fmt::join(pins, ", "));
}

void print_json(Output* out, const Report& r) {
  const flume::CompactionPlan& p = *r.plan;
  const bool done = r.action == "written" || r.action == "compacted";
  JsonLine line(out->buffer(), done ? JsonType::kReport : JsonType::kPlan);
  line.str("action", r.action).boolean("nothing_to_do", r.action == "skipped");
  r.reason.empty() ? line.null("reason") : line.str("reason", r.reason);
  line.unsigned_num("events", p.events).unsigned_num("skipped_events", p.skipped).num("capacity", r.capacity);
  line.begin_array("logs");
  for (const flume::LogSpace& s : p.logs)
    line.begin_object()
        .str("path", s.log->layout().path)
        .num("file_id", s.log->file_id())
        .unsigned_num("bytes", s.bytes)
        .unsigned_num("meta_bytes", s.meta_bytes)
        .unsigned_num("queued_items", s.queued.events)
        .unsigned_num("queued_bytes", s.queued.bytes)
        .num("pinned_by_queue", std::max<std::int64_t>(s.reference_count, 0))
        .unsigned_num("pinned_by_inflight", s.inflight)
        .boolean("current_write_log", s.current_write_log)
        .boolean("pinned_by_lower_log", s.pinned_by_lower_log)
        .boolean("deletable", s.deletable)
        .unsigned_num("freed", s.bytes + s.meta_bytes)
        .end_object();
  line.end_array();
  line.begin_object("before").unsigned_num("logs", p.logs.size()).unsigned_num("bytes", p.bytes_before).end_object();
  line.begin_object("after").unsigned_num("bytes", p.bytes_after).end_object();
  line.unsigned_num("freed", p.freed());
  const FlumeCompactOptions& o = *r.options;
  if (o.to_checkpoint_dir.empty()) {
    line.null("output");
  } else {
    line.begin_object("output").str("checkpoint_dir", o.to_checkpoint_dir).begin_array("data_dirs");
    for (const std::string& d : o.to_data_dirs) line.string(d);
    line.end_array().end_object();
  }
  r.backup_dir.empty() ? line.null("backup_dir") : line.str("backup_dir", r.backup_dir);
  write_optional_verify_json(&line.key("verify"), r.verified);
  line.finish();
  out->commit();
}

void print_text(Output* out, const Report& r) {
  const flume::CompactionPlan& p = *r.plan;
  if (r.action == "skipped") {
    out->write(fmt::format("{}\n", r.reason));
    return;
  }
  std::string text;
  for (const flume::LogSpace& s : p.logs)
    text +=
        fmt::format("{}: {} bytes (meta {}), {} queued event(s); pinned by {}; frees {} bytes\n", s.log->layout().path,
                    s.bytes, s.meta_bytes, s.queued.events, pins_text(s), s.bytes + s.meta_bytes);
  const bool dry = r.action == "dry_run";
  text += fmt::format(
      "{} {} event(s) (capacity {}): {} bytes in {} log(s) and metas -> {} bytes of new logs and metas; {} {} bytes\n",
      dry ? "would compact" : "compacted", p.events, r.capacity, p.bytes_before, p.logs.size(), p.bytes_after,
      dry ? "would free" : "frees", p.freed());
  const FlumeCompactOptions& o = *r.options;
  if (dry && o.to_checkpoint_dir.empty() && !r.apply)
    text +=
        "to write the new channel, give --to-checkpoint-dir DIR and --to-data-dir DIR[,DIR...]; to compact it "
        "in place, the agent stopped, give --apply\n";
  if (!o.to_checkpoint_dir.empty())
    text += fmt::format("{} the new channel: checkpointDir = {}, dataDirs = {}\n", dry ? "would write" : "wrote",
                        o.to_checkpoint_dir, fmt::join(o.to_data_dirs, ","));
  if (r.apply) text += dry ? "would compact the channel in place\n" : "compacted the channel in place\n";
  if (!r.backup_dir.empty()) text += fmt::format("the old files are in {}\n", r.backup_dir);
  out->write(text + verify_errors_text(r.verified));
}

ExitCode print(const Report& r, bool json, ExitCode status) {
  Output out;
  json ? print_json(&out, r) : print_text(&out, r);
  return finish_output(&out, status);
}

// The target may not be one of the channel's own directories: that would
// be compaction in place.
std::string target_problem(const FlumeCompactOptions& o, bool apply) {
  if (o.to_checkpoint_dir.empty() != o.to_data_dirs.empty())
    return "--to-checkpoint-dir and --to-data-dir go together: the new channel needs both";
  if (apply && !o.to_checkpoint_dir.empty())
    return "--apply compacts the channel in place, --to-checkpoint-dir writes it elsewhere: give one of them";
  std::set<std::string> input;
  for (const std::string& d : named_dirs(o.flume)) input.insert(fs::weakly_canonical(d).string());
  std::vector<std::string> targets = o.to_data_dirs;
  if (!o.to_checkpoint_dir.empty()) targets.push_back(o.to_checkpoint_dir);
  std::set<std::string> seen;
  for (const std::string& t : targets) {
    const std::string canonical = fs::weakly_canonical(t).string();
    if (input.count(canonical) != 0)
      return fmt::format("{} is a directory of the channel: the new channel goes to directories of its own", t);
    if (!seen.insert(canonical).second) return fmt::format("{} is named twice among the new channel's directories", t);
  }
  return {};
}

// Flume's in_use.lock held: the queue is changing under the read.
std::optional<ExitCode> refuse_in_use(const flume::ChannelLayout& layout) {
  for (const std::string& lock : layout.lock_files)
    if (const auto holder = find_lock_holder(lock)) {
      tell("compact", fmt::format("refused: {} (a Flume agent runs this channel); stop the agent first; nothing was "
                                  "written",
                                  describe_holder(*holder)));
      return ExitCode::kInUse;
    }
  return std::nullopt;
}

// Room for the new logs on each target's file system; "" when there is.
std::string room_problem(const FlumeCompactOptions& o, const flume::CompactionPlan& plan) {
  for (std::size_t i = 0; i < o.to_data_dirs.size(); ++i) {
    std::uint64_t needed = 0;
    for (std::size_t j = 0; j < o.to_data_dirs.size(); ++j)
      if (same_file_system(o.to_data_dirs[i], o.to_data_dirs[j])) needed += plan.bytes_per_dir[j];
    const auto free = free_bytes(o.to_data_dirs[i]);
    if (free && *free < needed)
      return fmt::format("{} has {} bytes free; the new logs there need {}", o.to_data_dirs[i], *free, needed);
  }
  return {};
}

// ---- in place ------------------------------------------------------------------

// Every file of the channel the compaction in place replaces or removes:
// the backup holds them all.
std::vector<std::string> channel_files_replaced(const flume::ChannelLayout& layout) {
  std::vector<std::string> files;
  const flume::CheckpointFiles& c = layout.checkpoint;
  for (const auto& f : {c.checkpoint, c.checkpoint_meta, c.inflight_puts, c.inflight_takes})
    if (f) files.push_back(*f);
  for (const flume::DataLog& log : layout.logs) {
    files.push_back(log.path);
    if (!log.meta_path.empty()) files.push_back(log.meta_path);
  }
  if (layout.backup && layout.backup->complete)
    files.push_back((fs::path(layout.backup->dir) / "backupComplete").string());
  return files;
}

// The protocol of compaction_in_place.h, as one change under the guard:
// staged and checked out of Flume's sight, then put in place step by step.
bool run_protocol(const flume::ChannelLayout& layout, const flume::Compaction& c, const std::string& backup,
                  std::optional<flume::CompactionResult>* staged, std::string* error) {
  const flume::InPlaceDirs dirs = flume::in_place_dirs(layout);
  if (!flume::clear_leftovers(dirs, backup, error)) return false;
  *staged = flume::write_compacted(c.logs, c.replay, c.keys, c.plan, dirs.staged(), error);
  if (!*staged) return false;
  FindingList check;
  if (!flume::check_compacted(c.logs, c.replay, dirs.staged(), c.keys, &check)) {
    *error = fmt::format(
        "the staged channel does not replay to the channel's queue ({}); the channel was not "
        "touched",
        check.findings().front().message);
    return false;
  }
  if (!flume::own_staged_like_channel(dirs, **staged, error)) return false;
  note_committed(
      fmt::format("the compaction in place began: the channel recovers the same queue at every step, "
                  "and a re-run completes it{}",
                  backup.empty() ? "" : fmt::format(" (backup in {})", backup)));
  if (!flume::show_new_logs(dirs, **staged, error) || !flume::retire_backup_checkpoint(dirs, error) ||
      !flume::swap_checkpoint(dirs, error) || !flume::mark_new_logs(dirs, **staged, error))
    return false;
  // Checked again in place, before a byte of the old logs goes.
  const flume::CompactionTarget channel{layout.checkpoint.dir, layout.data_dirs};
  if (!flume::check_compacted(c.logs, c.replay, channel, c.keys, &check, (*staged)->logs.front().id)) {
    *error = fmt::format("the channel in place does not replay to its queue ({}); the old logs were kept",
                         check.findings().front().message);
    return false;
  }
  if (!flume::remove_old_files(dirs, layout, error)) return false;
  note_committed(fmt::format("the channel was compacted in place{}",
                             backup.empty() ? "" : fmt::format(" (backup in {})", backup)));
  return true;
}

// The command that puts the old files back from the backup and removes
// the new ones.
std::string restore_command(const std::vector<flume::AppliedBackup>& backups,
                            const std::optional<flume::CompactionResult>& staged, const flume::ChannelLayout& layout) {
  std::vector<std::string> steps;
  if (staged)
    for (const flume::SinkLog& log : staged->logs) {
      const std::string placed = (fs::path(layout.data_dirs[log.dir]) / fs::path(log.path).filename()).string();
      steps.push_back(fmt::format("rm -f {} {}", shell_word(placed), shell_word(placed + ".meta")));
    }
  // The new checkpoint files the old set did not have.
  for (const char* name : {"checkpoint", "checkpoint.meta", "inflightputs", "inflighttakes"}) {
    const std::string path = (fs::path(layout.checkpoint.dir) / name).string();
    if (std::none_of(backups.begin(), backups.end(), [&](const flume::AppliedBackup& b) { return b.original == path; }))
      steps.push_back(fmt::format("rm -f {}", shell_word(path)));
  }
  for (const flume::AppliedBackup& b : backups)
    steps.push_back(fmt::format("cp -a {} {}", shell_word(b.copy), shell_word(b.original)));
  return fmt::format("{}", fmt::join(steps, " && "));
}

ExitCode compact_in_place(const WriteRequest& r, const flume::ChannelLayout& layout, const flume::Compaction& c,
                          Report* report) {
  if (c.replay.source != flume::ReplaySource::kCheckpoint) {
    tell("compact",
         "refused: in place needs a channel Flume opens from its checkpoint (it would recover from "
         "another source); compact it out of place with --to-checkpoint-dir; nothing was changed");
    return ExitCode::kProblems;
  }
  const std::vector<std::string> replaced = channel_files_replaced(layout);
  ReplaceRequest request = channel_request(layout, replaced);
  request.owned = replaced;
  request.owned.push_back(layout.checkpoint.dir);  // the staged checkpoint dir takes its place
  request.keep_out_of = layout.data_dirs;
  request.keep_out_of.insert(request.keep_out_of.begin(), layout.checkpoint.dir);
  if (layout.backup) request.keep_out_of.push_back(layout.backup->dir);
  for (std::size_t i = 0; i < layout.data_dirs.size(); ++i)
    request.room.push_back(SpaceNeed{layout.data_dirs[i], c.plan.bytes_per_dir[i]});
  // The staged checkpoint, beside the checkpoint dir: (capacity + 1029) longs, and its small files.
  const auto capacity = static_cast<std::uint64_t>(c.replay.queue->capacity());
  request.room.push_back(SpaceNeed{layout.checkpoint.dir, (capacity + flume::kCheckpointHeaderSlots) * 8 + 4096});
  std::vector<flume::AppliedBackup> backups;
  request.backup.name = "channel";
  request.backup.files = replaced;
  request.backup.copy = [&](const std::string& dir, std::string* error) {
    return flume::back_up_channel_files(replaced, dir, "flume_compact.backed_up", &backups, error);
  };
  std::optional<flume::CompactionResult> staged;
  request.changes.push_back(FileChange::by_own_commit(
      [&](const std::string& backup, std::string* error) { return run_protocol(layout, c, backup, &staged, error); }));
  request.verify = [&] {
    FindingList verified;
    flume::check_compacted(c.logs, c.replay, flume::CompactionTarget{layout.checkpoint.dir, layout.data_dirs}, c.keys,
                           &verified);
    return verified;
  };
  request.restore = [&](const std::string&) { return restore_command(backups, staged, layout); };
  const ReplaceResult result = guarded_replace(request, r.guard);
  report_outcome("compact", result);
  if (!result.changed()) return result.status;
  report->action = "compacted";
  report->backup_dir = result.backup;
  report->verified = result.verified;
  return print(*report, r.json, result.status);
}

void remove_files(const std::vector<std::string>& files) {
  std::error_code ec;
  for (const std::string& f : files) fs::remove(f, ec);
}

}  // namespace

void add_flume_compact_options(CLI::App* command, FlumeCompactOptions* o) {
  add_channel_options(command, &o->flume, true);
  command->add_option("--to-checkpoint-dir", o->to_checkpoint_dir,
                      "Flume: write the compacted channel's checkpoint here (a directory of its own)");
  command->add_option("--to-data-dir", o->to_data_dirs, "Flume: the compacted channel's data dirs (comma-separated)")
      ->delimiter(',')
      ->allow_extra_args(false);
}

ExitCode run_flume_compact(const WriteRequest& r, FlumeCompactOptions o) {
  adopt_discovered(r.discovered, &o.flume);
  std::string error;
  const auto keys = parse_keys(o.flume.keys, &error);
  if (!keys) return usage_error("compact", error);
  if (o.flume.checkpoint_dir.empty() || o.flume.data_dirs.empty())
    return usage_error("compact", "a Flume channel is named by --checkpoint-dir and --data-dir");
  if (const std::string problem = target_problem(o, r.apply); !problem.empty()) return usage_error("compact", problem);
  if (auto refused = refuse_foreign("compact", "flume", named_dirs(o.flume), r.drivers)) return *refused;

  FindingList findings;
  const flume::ChannelLayout layout = flume::discover_channel(channel_dirs(o.flume), &findings);
  if (auto in_use = refuse_in_use(layout)) return *in_use;
  const flume::ChannelLogs logs(layout.logs, *keys, &findings);
  const flume::ChannelReplay replay =
      flume::replay_channel(layout, logs, flume::ChannelReplayOptions{o.flume.capacity, nullptr}, &findings);
  const std::size_t new_dirs = r.apply ? layout.data_dirs.size() : std::max<std::size_t>(o.to_data_dirs.size(), 1);
  const flume::CompactionPlan plan = flume::plan_compaction(layout, logs, replay, new_dirs, &findings);
  if (findings.count(Severity::kError) != 0 || !replay.queue) {
    StderrReporter diagnostics;
    for (const Finding& f : findings.findings())
      if (f.severity == Severity::kError) diagnostics.report(f);
    tell("compact",
         "refused: the channel does not replay cleanly (see qjt verify); compaction copies only what "
         "Flume recovers in full; nothing was written");
    return has_io_error(findings.findings()) ? ExitCode::kIoError : ExitCode::kProblems;
  }

  Report report{"dry_run", "", &plan, replay.queue->capacity(), &o, std::nullopt, "", r.apply};
  if (plan.freed() == 0) {
    report.action = "skipped";
    report.reason = fmt::format("nothing to do: the new logs would take {} bytes, the channel's logs take {}",
                                plan.bytes_after, plan.bytes_before);
  } else if (r.if_reclaimable && plan.freed() < *r.if_reclaimable) {
    report.action = "skipped";
    report.reason = reclaimable_skip(plan.freed(), *r.if_reclaimable);
    if (!r.json) return ExitCode::kOk;  // a cron gate keeps its skips quiet
  }
  if (report.action == "skipped" || r.dry_run || (o.to_checkpoint_dir.empty() && !r.apply))
    return print(report, r.json, ExitCode::kOk);
  if (r.apply) return compact_in_place(r, layout, flume::Compaction{logs, replay, plan, *keys}, &report);

  if (const std::string problem = room_problem(o, plan); !problem.empty()) {
    tell("compact", fmt::format("refused: {}; nothing was written", problem));
    return ExitCode::kIoError;
  }
  const flume::CompactionTarget target{o.to_checkpoint_dir, o.to_data_dirs, r.guard.force};
  const auto written = flume::write_compacted(logs, replay, *keys, plan, target, &error);
  if (!written) {
    tell("compact", fmt::format("{}; nothing was written", error));
    return ExitCode::kIoError;
  }
  report.action = "written";
  report.verified.emplace();
  bool same = flume::check_compacted(logs, replay, target, *keys, &*report.verified);
  if (failpoint_error("verify")) {
    report.verified->report(Finding{Severity::kError, "injected", "-", std::nullopt,
                                    "an error injected by QJT_FAILPOINT_ERROR=verify, for tests"});
    same = false;
  }
  if (!same) {
    remove_files(written->files);
    tell("compact",
         "the new channel did not read back as the input's queue: its files were removed; the input "
         "was not touched");
    print(report, r.json, ExitCode::kProblems);
    return ExitCode::kProblems;
  }
  return print(report, r.json, ExitCode::kOk);
}

}  // namespace qjt::cli
