#include "flume/cli/flume_repair.h"

#include <filesystem>

#include <fmt/format.h>

#include "clock.h"
#include "colour.h"
#include "command_support.h"
#include "flume/channel_repair.h"
#include "flume/checkpoint_file.h"
#include "flume/cli/flume_commands.h"
#include "flume/cli/flume_hints.h"
#include "flume/repair_recovery.h"
#include "json_line.h"
#include "output.h"
#include "path_family.h"
#include "repair_needs.h"

namespace qjt::cli {
namespace {

namespace fs = std::filesystem;

bool parse_drop_events(const std::vector<std::string>& values, std::map<std::int32_t, std::set<std::uint64_t>>* drops,
                       std::string* error) {
  for (const std::string& value : values) {
    const auto colon = value.find(':');
    std::size_t id_end = 0, offset_end = 0;
    try {
      if (colon == std::string::npos) throw std::invalid_argument(value);
      const long long id = std::stoll(value.substr(0, colon), &id_end);
      const unsigned long long offset = std::stoull(value.substr(colon + 1), &offset_end);
      if (id_end != colon || offset_end != value.size() - colon - 1 || id < 0 || id > 0x7FFFFFFF ||
          value[colon + 1] == '-')
        throw std::invalid_argument(value);
      (*drops)[static_cast<std::int32_t>(id)].insert(offset);
    } catch (const std::exception&) {
      *error = fmt::format(
          "--drop-event expects FILE_ID:OFFSET (a put's \"file_id\" and \"offset\" as dump "
          "--json shows them), found '{}'",
          value);
      return false;
    }
  }
  return true;
}

// The capacity of the checkpoint there is now, from its length, as Flume
// sizes its checkpoint file: (capacity + 1029) * 8 bytes.
std::optional<std::int64_t> current_capacity(const flume::ChannelLayout& layout) {
  if (!layout.checkpoint.checkpoint) return std::nullopt;
  std::error_code ec;
  const auto size = fs::file_size(*layout.checkpoint.checkpoint, ec);
  return ec ? std::nullopt : flume::capacity_of_checkpoint_size(size);
}

std::optional<flume::ChannelRepairRequest> make_request(const FlumeRepairOptions& o,
                                                        const flume::ChannelLayout& layout) {
  flume::ChannelRepairRequest request;
  std::string error;
  if (!parse_drop_events(o.drop_events, &request.drop_events, &error)) {
    usage_error("repair", error);
    return std::nullopt;
  }
  request.capacity = o.flume.capacity;
  if (o.restore_backup) request.checkpoint = flume::CheckpointAction::kRestoreBackup;
  if (!o.rebuild_checkpoint) return request;
  request.checkpoint = flume::CheckpointAction::kRebuild;
  const auto capacity = o.flume.capacity ? o.flume.capacity : current_capacity(layout);
  if (!capacity) {
    tell("repair", "--rebuild-checkpoint needs the channel's --capacity (there is no checkpoint to take it from)");
    return std::nullopt;
  }
  request.rebuild.capacity = *capacity;
  request.rebuild.write_order_id = o.write_order_id;
  request.rebuild.now_ms = now_ms();
  return request;
}

// ---- the report ----------------------------------------------------------

struct Report {
  const FlumeRepairOptions& options;
  const flume::ChannelRepairPlan& plan;
  const FindingList& plan_findings;
  std::string backup_dir;
  std::vector<flume::AppliedBackup> backups;
  std::optional<FindingList> verified;
  const flume::RecoveryChange* recovery = nullptr;  // null when nothing would change
  std::string planned_backup;                       // before --apply: where the backup would go
  RepairNeeds needs;                                // a plan that changes nothing: what verify finds left

  // A plan that loses or revives events is carried out only when forced.
  bool refused() const { return recovery && !recovery->keeps_queue() && !options.guard.force; }

  std::string backup_of(const std::string& path) const {
    for (const auto& b : backups)
      if (b.original == path) return b.copy;
    return "";
  }
};

void append_size(JsonWriter* line, std::string_view key, std::optional<std::uint64_t> size) {
  size ? line->unsigned_num(key, *size) : line->null(key);
}

void write_changes_json(JsonWriter* out, const flume::FileChange& c) {
  out->begin_array();
  for (const auto& change : c.integrity) {
    out->begin_object()
        .unsigned_num("offset", change.offset)
        .unsigned_num("old_byte", change.old_byte)
        .unsigned_num("new_byte", change.new_byte)
        .str("kind", flume::integrity_change_kind_name(change.kind))
        .str("reason", change.reason)
        .end_object();
  }
  out->end_array();
}

void write_events_json(JsonWriter* out, const std::vector<flume::EventPointer>& events) {
  out->begin_array();
  for (const flume::EventPointer& p : events)
    out->begin_object().num("file_id", p.file_id).num("offset", p.offset).end_object();
  out->end_array();
}

void write_consumed_json(JsonWriter* out, const std::vector<flume::Consumption>& consumed) {
  out->begin_array();
  for (const flume::Consumption& c : consumed)
    out->begin_object()
        .num("file_id", c.event.file_id)
        .num("offset", c.event.offset)
        .num("take_file_id", c.take.file_id)
        .num("take_offset", c.take.offset)
        .num("transaction_id", c.transaction_id)
        .end_object();
  out->end_array();
}

void write_dead_json(JsonWriter* out, const std::vector<flume::DeadElement>& dead) {
  out->begin_array();
  for (const flume::DeadElement& d : dead)
    out->begin_object()
        .num("file_id", d.event.file_id)
        .num("offset", d.event.offset)
        .str("found", flume::pointer_target_name(d.target))
        .end_object();
  out->end_array();
}

void write_recovery_json(JsonWriter* line, const Report& r) {
  if (!r.recovery) {
    line->null("recovery");
    return;
  }
  const flume::RecoveryChange& c = *r.recovery;
  line->begin_object("recovery").unsigned_num("events_now", c.now.size()).unsigned_num("events_after", c.after.size());
  write_events_json(&line->key("lost"), c.lost);
  write_events_json(&line->key("lost_unreached"), c.lost_unreached);
  write_events_json(&line->key("dropped"), c.dropped);
  write_consumed_json(&line->key("consumed"), c.consumed);
  write_events_json(&line->key("revived"), c.revived);
  write_events_json(&line->key("reached"), c.reached);
  write_dead_json(&line->key("lost_to_damage"), c.dead_now);
  write_events_json(&line->key("hidden_by_damage"), c.hidden_now);
  write_dead_json(&line->key("dead_after"), c.dead_after);
  line->boolean("refused", r.refused()).end_object();
}

void write_files_json(JsonWriter* line, const Report& r) {
  line->begin_array();
  for (const flume::FileChange& c : r.plan.changes) {
    line->begin_object()
        .str("file", c.path)
        .str("action", flume::file_change_kind_name(c.kind))
        .str("reason", c.reason);
    append_size(line, "size", c.size);
    append_size(line, "size_after",
                c.kind == flume::FileChangeKind::kRemove ? std::nullopt : std::optional(c.size_after));
    write_changes_json(&line->key("changes"), c);
    const std::string backup = r.backup_of(c.path);
    backup.empty() ? line->null("backup") : line->str("backup", backup);
    line->end_object();
  }
  line->end_array();
}

// The records the plan neutralises: each integrity change makes one a NOOP
// (or the end of the data, for a torn one).
std::uint64_t records_lost(const flume::ChannelRepairPlan& plan) {
  std::uint64_t count = 0;
  for (const flume::FileChange& c : plan.changes) count += c.integrity.size();
  return count;
}

std::uint64_t items_lost(const Report& r) {
  return r.recovery ? r.recovery->lost.size() + r.recovery->lost_unreached.size() : 0;
}

void print_json(Output* out, const Report& r, const flume::ChannelRepairRequest& request) {
  const bool applied = r.options.apply && r.verified.has_value();
  JsonLine line(out->buffer(), applied ? JsonType::kReport : JsonType::kPlan);
  line.boolean("applied", applied)
      .str("checkpoint_action", flume::checkpoint_action_name(request.checkpoint))
      .boolean("feasible", r.plan.feasible)
      .key("files");
  write_files_json(&line, r);
  if (r.plan.rebuilt) {
    line.begin_object("rebuild")
        .num("capacity", request.rebuild.capacity)
        .num("write_order_id", r.plan.rebuilt->write_order_id)
        .unsigned_num("events", r.plan.rebuilt->events)
        .unsigned_num("dropped_events", r.plan.rebuilt->dropped_events)
        .end_object();
  } else {
    line.null("rebuild");
  }
  write_recovery_json(&line, r);
  // Flume's repair has one way for each damage: no gentler one to offer.
  line.unsigned_num("records_lost", records_lost(r.plan)).unsigned_num("items_lost", items_lost(r)).null("gentler");
  r.backup_dir.empty() || r.backups.empty() ? line.null("backup_dir") : line.str("backup_dir", r.backup_dir);
  r.planned_backup.empty() ? line.null("backup_to") : line.str("backup_to", r.planned_backup);
  r.needs.write_json(&line);
  write_findings_json(&line.key("findings"), r.plan_findings.findings());
  if (r.verified) {
    write_verify_json(&line.key("verify"), *r.verified);
  } else {
    line.null("verify");
  }
  line.finish();
}

std::string file_text(const flume::FileChange& c, const std::string& backup) {
  std::string text;
  switch (c.kind) {
    case flume::FileChangeKind::kPatch:
      text = fmt::format("{}: patch {} byte(s): {}\n", c.path, c.patches.size(), c.reason);
      break;
    case flume::FileChangeKind::kWrite:
      text = fmt::format("{}: write {} bytes{}: {}\n", c.path, c.size_after,
                         c.size ? fmt::format(" over {}", *c.size) : std::string(" (new file)"), c.reason);
      break;
    case flume::FileChangeKind::kRemove:
      text = fmt::format("{}: remove: {}\n", c.path, c.reason);
      break;
  }
  for (const auto& change : c.integrity)
    text += fmt::format("  offset {}: 0x{:02X} -> 0x{:02X} ({}: {})\n", change.offset, change.old_byte, change.new_byte,
                        flume::integrity_change_kind_name(change.kind), change.reason);
  if (!backup.empty()) text += fmt::format("  backup: {}\n", backup);
  return text;
}

// One line per event of `events`: "  WHAT: log-N offset M (WHY)".
std::string events_text(const std::vector<flume::EventPointer>& events, const std::string& what, std::string_view why) {
  std::string text;
  for (const flume::EventPointer& p : events)
    text += fmt::format("  {}: log-{} offset {} ({})\n", what, p.file_id, p.offset, why);
  return text;
}

// What verify says after the repair of an element that delivers no event.
std::string dead_after_text(const flume::DeadElement& d) {
  return d.target == flume::PointerTarget::kNoop
             ? fmt::format(
                   "  after the repair verify still warns pointer_to_noop on log-{} offset {}: the "
                   "checkpoint points at its NOOP'd record\n",
                   d.event.file_id, d.event.offset)
             : fmt::format("  after the repair verify still finds dangling_pointer on log-{} offset {} ({})\n",
                           d.event.file_id, d.event.offset, flume::pointer_target_name(d.target));
}

// Where each event of the queue goes, and that the figures add up. The
// events the plan loses or revives in the error colour when `colour`:
// each is a repair_loses_event or repair_revives_event error.
std::string recovery_text(const flume::RecoveryChange& c, bool colour) {
  std::string text =
      fmt::format("queue Flume recovers: {} event(s) now, {} after the repair\n", c.now.size(), c.after.size());
  for (const flume::DeadElement& d : c.dead_now)
    text += fmt::format(
        "  lost to the damage already: log-{} offset {} ({}): the checkpoint points at it, Flume's take "
        "delivers nothing from it now, whatever the repair does\n",
        d.event.file_id, d.event.offset, flume::pointer_target_name(d.target));
  for (const flume::EventPointer& p : c.hidden_now)
    text += fmt::format(
        "  lost to the damage already: log-{} offset {} (a committed put inside the record before it, whose "
        "damaged length swallows it: Flume's replay skips it, whatever the repair does)\n",
        p.file_id, p.offset);
  const std::string lost = in_colour("lost", Severity::kError, colour);
  text += events_text(c.lost, lost, "an intact event recovered now");
  text += events_text(c.lost_unreached, lost, "a committed event behind damage now, buried by the repair");
  text += events_text(c.dropped, "dropped", "--drop-event");
  for (const flume::Consumption& t : c.consumed)
    text += fmt::format("  consumed: log-{} offset {} (taken by transaction {}, its take at log-{} offset {})\n",
                        t.event.file_id, t.event.offset, t.transaction_id, t.take.file_id, t.take.offset);
  text += events_text(c.revived, in_colour("revived", Severity::kError, colour),
                      "taken, rolled back or never committed now");
  text += events_text(c.reached, "reached", "behind damage now, recovered after the repair");
  text += fmt::format("  {} now - {} lost - {} dropped - {} consumed + {} revived + {} reached = {} after\n",
                      c.now.size(), c.lost.size(), c.dropped.size(), c.consumed.size(), c.revived.size(),
                      c.reached.size(), c.after.size());
  for (const flume::DeadElement& d : c.dead_after) text += dead_after_text(d);
  return text;
}

// The plan's whole story in two lines: what it loses and what it keeps.
std::string summary_text(const Report& r, bool colour) {
  std::string text = fmt::format("{}: {} record(s) made NOOPs, {} queued event(s)\n",
                                 in_colour("loses", Severity::kError, colour), records_lost(r.plan), items_lost(r));
  if (r.recovery) {
    const flume::RecoveryChange& c = *r.recovery;
    const std::size_t gone = c.lost.size() + c.dropped.size() + c.consumed.size();
    text += fmt::format("keeps: {} of the {} queued event(s) Flume recovers now", c.now.size() - gone, c.now.size());
    if (!c.consumed.empty()) text += fmt::format("; {} consumed by committed takes", c.consumed.size());
    if (const std::size_t damaged = c.dead_now.size() + c.hidden_now.size(); damaged > 0)
      text += fmt::format("; {} already lost to the damage", damaged);
    text += "\n";
  }
  if (!r.planned_backup.empty()) text += fmt::format("backup: to {} on --apply\n", r.planned_backup);
  return text;
}

void print_text(Output* out, const Report& r) {
  const bool colour = colour_on(stdout);
  StderrReporter diagnostics;
  for (const Finding& f : r.plan_findings.findings()) diagnostics.report(f);
  if (r.plan.changes.empty()) out->write(r.needs.any() ? r.needs.text("channel") : "channel: nothing to change\n");
  for (const flume::FileChange& c : r.plan.changes) out->write(file_text(c, r.backup_of(c.path)));
  if (r.recovery) out->write(recovery_text(*r.recovery, colour));
  if (!r.plan.changes.empty()) out->write(summary_text(r, colour));
  if (!r.plan.feasible) out->write("the plan cannot be carried out: see the findings above; nothing was changed\n");
  if (r.refused())
    out->write(
        "refused: the repair would lose or revive the events above; nothing was changed (--force carries "
        "it out anyway)\n");
  if (!r.options.apply && r.plan.feasible && !r.refused() && !r.plan.changes.empty())
    out->write("plan only: nothing was changed; run with --apply to carry it out\n");
  if (!r.backups.empty()) out->write(fmt::format("backup of the changed files in {}\n", r.backup_dir));
  if (!r.verified) return;
  for (const Finding& f : r.verified->findings()) out->write(format_finding(f, colour) + "\n");
  out->write(fmt::format("verify after repair: {} error(s), {} warning(s)\n", r.verified->count(Severity::kError),
                         r.verified->count(Severity::kWarning)));
}

// ---- what the plan does to the queue ---------------------------------------

std::string log_path(const flume::ChannelLayout& layout, std::int32_t file_id) {
  for (const flume::DataLog& log : layout.logs)
    if (log.file_id == file_id) return log.path;
  return "";
}

// One error per event the plan loses or revives (the plan is refused for
// them unless forced).
void report_recovery_change(const flume::ChannelLayout& layout, const flume::RecoveryChange& recovery,
                            Reporter* reporter) {
  auto tell = [&](const char* code, flume::EventPointer p, const char* what) {
    reporter->report(Finding{Severity::kError, code, log_path(layout, p.file_id), static_cast<std::uint32_t>(p.offset),
                             fmt::format("expected the repair to keep the queue Flume recovers, found that it {} "
                                         "event of log-{} offset {}",
                                         what, p.file_id, p.offset)});
  };
  for (flume::EventPointer p : recovery.lost) tell("repair_loses_event", p, "loses the intact");
  for (flume::EventPointer p : recovery.lost_unreached) tell("repair_loses_event", p, "loses the committed");
  for (flume::EventPointer p : recovery.revived) tell("repair_revives_event", p, "revives the taken or uncommitted");
}

// ---- carrying it out -------------------------------------------------------

std::vector<std::string> touched_files(const flume::ChannelLayout& layout, const flume::ChannelRepairPlan& plan) {
  std::vector<std::string> files;
  for (const auto& c : plan.changes) files.push_back(c.path);
  for (const auto& log : layout.logs) files.push_back(log.path);
  return files;
}

std::vector<std::string> channel_directories(const flume::ChannelLayout& layout) {
  std::vector<std::string> dirs{layout.checkpoint.dir};
  dirs.insert(dirs.end(), layout.data_dirs.begin(), layout.data_dirs.end());
  if (layout.backup) dirs.push_back(layout.backup->dir);
  return dirs;
}

// The command that puts the channel back as the backup holds it: each copy
// over its original, and the files the plan created removed.
std::string restore_channel_command(const Report& r) {
  std::string command;
  const auto add = [&command](const std::string& step) { command += (command.empty() ? "" : " && ") + step; };
  for (const flume::AppliedBackup& b : r.backups)
    add(fmt::format("cp -a {} {}", shell_word(b.copy), shell_word(b.original)));
  for (const flume::FileChange& c : r.plan.changes)
    if (!c.size) add(fmt::format("rm -f {}", shell_word(c.path)));
  return command;
}

// The plan as a guarded_replace request: the channel's guard, the backup
// placed outside every channel directory in the channel's own layout, then
// each change in the plan's order.
ReplaceRequest repair_request(const flume::ChannelLayout& layout, Report* r) {
  ReplaceRequest request = channel_request(layout, touched_files(layout, r->plan));
  request.keep_out_of = channel_directories(layout);
  request.check = [r](std::string* error) { return flume::check_still_as_planned(r->plan, error); };
  request.backup.name = "channel";
  request.backup.copy = [r](const std::string& dir, std::string* error) {
    return flume::back_up_channel(r->plan, dir, &r->backups, error);
  };
  for (const flume::FileChange& c : r->plan.changes) {
    request.room.push_back(SpaceNeed{c.path, c.size_after});
    if (c.size) request.backup.files.push_back(c.path);
    if (c.kind != flume::FileChangeKind::kRemove) request.owned.push_back(c.path);
  }
  for (const flume::FileChange& c : r->plan.changes)
    request.changes.push_back(FileChange::by_protocol(
        [&c](const std::string&, std::string* error) { return flume::apply_file_change(c, error); },
        "flume_repair.changed"));
  request.verify = [r] { return verify_channel(r->options.flume); };
  request.restore = [r](const std::string&) { return restore_channel_command(*r); };
  return request;
}

ExitCode apply(const flume::ChannelLayout& layout, Report* r) {
  ReplaceResult result = guarded_replace(repair_request(layout, r), r->options.guard);
  r->backup_dir = result.backup;
  r->verified = std::move(result.verified);
  report_outcome("repair", result);
  return result.status;
}

// What verify finds in the channel as it is, each error with its hint.
FindingList verify_now(const FlumeOptions& flume) {
  FindingList findings = verify_channel(flume);
  findings.add_hints(flume_hints(flume));
  return findings;
}

}  // namespace

void add_flume_repair_options(CLI::App* command, FlumeRepairOptions* o) {
  add_channel_options(command, &o->flume, true);
  auto* rebuild = command->add_flag("--rebuild-checkpoint", o->rebuild_checkpoint,
                                    "discard the checkpoint and build a new one from the logs, as "
                                    "CheckpointRebuilder does");
  auto* restore = command->add_flag("--restore-backup", o->restore_backup,
                                    "install the backup checkpoint (--backup-dir) as Flume restores it");
  rebuild->excludes(restore);
  command
      ->add_option("--drop-event", o->drop_events,
                   "neutralise the put at FILE_ID:OFFSET as the integrity tool does (repeatable)")
      ->allow_extra_args(false);
  command
      ->add_option("--write-order-id", o->write_order_id,
                   "the rebuilt checkpoint's write order id (default: as Flume's oracle gives it)")
      ->needs(rebuild);
}

ExitCode run_flume_repair(const FlumeRepairOptions& o) {
  std::string error;
  const auto keys = parse_keys(o.flume.keys, &error);
  if (!keys) {
    return usage_error("repair", error);
  }
  if (o.flume.checkpoint_dir.empty() || o.flume.data_dirs.empty()) {
    return usage_error("repair", "a Flume channel is named by --checkpoint-dir and --data-dir");
  }
  if (auto refused = refuse_foreign("repair", "flume", named_dirs(o.flume), o.drivers)) return *refused;
  FindingList plan_findings;
  const flume::ChannelLayout layout = flume::discover_channel(channel_dirs(o.flume), &plan_findings, !o.apply);
  const auto request = make_request(o, layout);
  if (!request) return ExitCode::kUsage;
  flume::ChannelLogs logs(layout.logs, *keys, &plan_findings);
  const flume::ChannelRepairPlan plan = flume::plan_channel_repair(layout, &logs, *request, &plan_findings);
  std::optional<flume::RecoveryChange> recovery;
  if (plan.feasible && !plan.changes.empty()) {
    recovery = flume::compare_recovery(layout, *keys, plan, o.flume.capacity);
    report_recovery_change(layout, *recovery, &plan_findings);
  }
  Report report{o, plan, plan_findings, "", {}, std::nullopt, recovery ? &*recovery : nullptr, "", {}};
  if (!o.apply && !plan.changes.empty())
    report.planned_backup = planned_backup(repair_request(layout, &report), o.guard);
  if (plan.changes.empty()) report.needs = RepairNeeds(verify_now(o.flume));
  ExitCode status = report.needs.status(
      plan.changes.empty() && plan_findings.count(Severity::kError) == 0 ? ExitCode::kOk : ExitCode::kProblems);
  if (has_io_error(plan_findings.findings())) status = ExitCode::kIoError;
  // A plan made without some file's bytes cannot say what it loses.
  if (status == ExitCode::kIoError) {
    if (o.apply) tell("repair", "refused: a file of the channel cannot be read; nothing was changed");
  } else if (o.apply && plan.feasible && !plan.changes.empty() && !report.refused()) {
    if (const std::string missing = missing_for_verify(o.flume, layout, *keys); !missing.empty())
      return usage_error("repair", fmt::format("refused: the verify after the repair could not check the channel: "
                                               "{}; nothing was changed",
                                               missing));
    status = apply(layout, &report);
    if (!report.verified) return status;
  }
  Output out;
  if (o.json) {
    print_io_errors(plan_findings.findings());
    print_json(&out, report, *request);
  } else {
    print_text(&out, report);
  }
  return finish_output(&out, status);
}

}  // namespace qjt::cli
