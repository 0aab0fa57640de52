#include "canal/cli/canal_repair.h"

#include <filesystem>

#include <fmt/format.h>

#include "canal/cli/canal_commands.h"
#include "canal/cli/canal_hints.h"
#include "canal/cli/canal_input.h"
#include "canal/cli/canal_tsdb_repair.h"
#include "canal/meta_repair.h"
#include "clock.h"
#include "colour.h"
#include "command_support.h"
#include "guarded_replace.h"
#include "json_line.h"
#include "output.h"
#include "path_family.h"
#include "path_name.h"
#include "repair_needs.h"
#include "time_value.h"

namespace qjt::cli {
namespace {

namespace fs = std::filesystem;

struct Plan {
  std::string path;
  canal::MetaDatSource source;
  std::optional<std::string> before;  // nullopt: the file does not exist
  std::string after;
  std::vector<std::string> actions;
  std::string backup;
  canal::MetaLoss loss;
  std::string planned_backup;              // before --apply: where the backup would go
  std::optional<canal::MetaDat> old_meta;  // the file's, when readable
  canal::MetaDat new_meta;
  TsdbPlan tsdb;      // the table-meta store (canal_tsdb_repair.h)
  RepairNeeds needs;  // no change: what verify finds left
};

bool usage(const std::string& message) {
  usage_error("repair", message);
  return false;
}

bool parse_edits(const CanalRepairOptions& o, canal::MetaEdits* edits) {
  for (const std::string& s : o.set_positions) {
    edits->set_positions.emplace_back();
    if (!canal::parse_set_position(s, &edits->set_positions.back()))
      return usage(fmt::format("--set-position {}: expected CLIENT=JOURNAL:POS", s));
  }
  for (const std::string& s : o.to_timestamps) {
    edits->to_timestamps.emplace_back();
    if (!canal::parse_to_timestamp(s, &edits->to_timestamps.back()))
      return usage(fmt::format("--to-timestamp {}: expected CLIENT=TIME, TIME being {}", s, kTimeValueForms));
  }
  for (const std::string& s : o.drops) {
    edits->drops.emplace_back();
    if (!canal::parse_client_id(s, &edits->drops.back()))
      return usage(fmt::format("--drop-client {}: expected a client id", s));
  }
  return true;
}

// The meta.dat the log gives at --at (or at its end), filters kept from
// the file being replaced. nullopt with *status on failure (printed).
std::optional<canal::MetaDat> from_log(const CanalRepairOptions& o, const std::optional<canal::MetaDat>& old,
                                       const std::string& destination, Plan* plan, ExitCode* status) {
  std::optional<std::int64_t> at = INT64_MAX;
  if (!o.at.empty() && !(at = parse_at_option("repair", o.at))) return std::nullopt;
  StderrReporter reporter;
  canal::CursorsAt at_time(*at);
  if (!read_meta_logs(o.from_logs, local_zone(), &reporter, [&at_time](const canal::LogEntry& e) { at_time.add(e); })) {
    *status = ExitCode::kIoError;
    return std::nullopt;
  }
  // A log cut short (a damaged or oversized gzip) would give cursors from
  // before the cut: refused, with the status dump, verify and replay give.
  if (reporter.errors() > 0) {
    *status = report_error("repair", ExitCode::kProblems,
                           "refused: the --from-log files have errors (above); nothing was changed");
    return std::nullopt;
  }
  const auto& cursors = at_time.cursors();
  if (cursors.empty()) {
    usage("no cursor was logged at or before --at in the --from-log files");
    *status = ExitCode::kProblems;
    return std::nullopt;
  }
  for (const auto& e : cursors)
    plan->actions.push_back(
        fmt::format("client {}: cursor from {} line {} ({})", e.client_id, e.file, e.line, format_time(e.time_ms)));
  // A file not named meta.dat has no destination of its own: the log's.
  const std::string dest = destination.empty() ? canal::destination_of_meta_log(o.from_logs.front()) : destination;
  return canal::meta_dat_from_log(cursors, dest, old ? &*old : nullptr);
}

// The plan for `path`. nullopt with *status on failure (printed): a usage
// error, an unreadable file (I/O), or a meta.dat that cannot be decoded
// and no --from-log (problems).
std::optional<Plan> make_plan(const std::string& path, const CanalRepairOptions& o, ExitCode* status) {
  *status = ExitCode::kUsage;
  canal::MetaEdits edits;
  if (!parse_edits(o, &edits)) return std::nullopt;
  Plan plan;
  plan.path = path;
  plan.source = canal::MetaDatSource{path, canal::destination_of_meta_dat(path)};
  MetaDatFile file;
  std::error_code ec;
  if (fs::exists(path, ec)) {
    FindingList findings;  // what the file has is verify's business; the plan verifies the result
    if (!load_meta_dat(path, &file, &findings)) {
      tell("repair", findings.findings().back().message);
      *status = ExitCode::kIoError;
      return std::nullopt;
    }
    plan.before = file.bytes;
  }
  std::optional<canal::MetaDat> meta = file.meta;
  if (!o.from_logs.empty()) {
    meta = from_log(o, file.meta, plan.source.directory_destination, &plan, status);
    if (!meta) return std::nullopt;
  } else if (!meta && plan.before && edits.empty()) {
    // Canal cannot read it: the plan changes nothing, and its needs name
    // the --from-log that rebuilds it (run() asks verify).
    plan.after = *plan.before;
    return plan;
  } else if (!meta) {
    usage(fmt::format("{} cannot be read as a meta.dat (see qjt verify); rebuild it with --from-log", path));
    *status = ExitCode::kProblems;
    return std::nullopt;
  }
  std::string error;
  if (!canal::apply_edits(&*meta, edits, &plan.actions, &error)) {
    usage(error);
    return std::nullopt;
  }
  plan.after = canal::write_meta_dat(*meta);
  plan.old_meta = file.meta;
  plan.new_meta = *meta;
  plan.loss = canal::compare_meta(file.meta, *meta, plan.source);
  if (plan.before != plan.after && plan.actions.empty()) plan.actions.push_back("rewrite in Canal's layout");
  return plan;
}

bool changes(const Plan& p) { return p.before != p.after; }

TsdbChoice tsdb_choice(const CanalRepairOptions& o) {
  return o.reset_tsdb ? TsdbChoice::kReset : o.keep_tsdb ? TsdbChoice::kKeep : TsdbChoice::kUnsaid;
}

std::string backup_path(const Plan& p, const WriteGuardOptions& guard, std::string_view stamp) {
  return canal_backup_path(p.path, guard, stamp);
}

void write_loss_json(JsonWriter* line, const canal::MetaLoss& loss) {
  line->unsigned_num("records_now", loss.records_now)
      .unsigned_num("records_lost", loss.records_lost)
      .unsigned_num("items_now", loss.items_now)
      .unsigned_num("items_after", loss.items_after)
      .unsigned_num("items_lost", loss.lost_cursors.size())
      .unsigned_num("items_new", loss.new_cursors.size())
      .begin_array("lost_cursors");
  for (const std::int64_t id : loss.lost_cursors) line->number(id);
  line->end_array().begin_array("new_cursors");
  for (const std::int64_t id : loss.new_cursors) line->number(id);
  line->end_array();
}

// " (client 1001, 1002)"; "" for none.
std::string clients_text(const std::vector<std::int64_t>& ids) {
  std::string text;
  for (const std::int64_t id : ids) text += (text.empty() ? " (client " : ", ") + std::to_string(id);
  return text.empty() ? text : text + ")";
}

// What the plan loses and keeps, and where the backup goes.
std::string loss_text(const Plan& p, bool colour) {
  const canal::MetaLoss& loss = p.loss;
  std::string text = fmt::format(
      "  {}: {} of {} client record(s), {} of {} cursor(s) Canal resumes from{}\n",
      in_colour("loses", Severity::kError, colour && (loss.records_lost > 0 || !loss.lost_cursors.empty())),
      loss.records_lost, loss.records_now, loss.lost_cursors.size(), loss.items_now, clients_text(loss.lost_cursors));
  text += fmt::format("  keeps: {} cursor(s) Canal resumes from\n", loss.items_now - loss.lost_cursors.size());
  if (!loss.new_cursors.empty())
    text += fmt::format("  sets: {} new cursor(s){}, {} after\n", loss.new_cursors.size(),
                        clients_text(loss.new_cursors), loss.items_after);
  if (!p.planned_backup.empty()) text += fmt::format("  backup: to {} on --apply\n", p.planned_backup);
  return text;
}

void print(Output* out, const Plan& p, bool applied, bool json, const FindingList& verified) {
  if (json) {
    JsonLine line(out->buffer(), applied ? JsonType::kReport : JsonType::kPlan);
    line.boolean("applied", applied).str("file", p.path).begin_array("actions");
    for (const std::string& a : p.actions) line.string(a);
    line.end_array().boolean("changed", changes(p));
    p.before ? line.str("before", *p.before) : line.null("before");
    line.str("after", p.after);
    write_loss_json(&line, p.loss);
    // A meta.dat repair has one way for each edit: no gentler one to offer.
    line.null("gentler");
    p.backup.empty() ? line.null("backup") : line.str("backup", p.backup);
    p.planned_backup.empty() ? line.null("backup_to") : line.str("backup_to", p.planned_backup);
    write_tsdb_json(&line, p.tsdb);
    p.needs.write_json(&line);
    write_verify_json(&line.key("verify"), verified);
    line.finish();
    return;
  }
  if (!changes(p)) {
    out->write(p.needs.any() ? p.needs.text(p.path)
                             : fmt::format("{}: already in Canal's layout, nothing to do\n", p.path));
    return;
  }
  std::string text = fmt::format("{}:\n", p.path);
  for (const std::string& a : p.actions) text += "  " + a + "\n";
  text += fmt::format("  before: {}\n  after:  {}\n", p.before ? *p.before : "(no file)", p.after);
  text += loss_text(p, colour_on(stdout));
  text += tsdb_plan_text(p.tsdb);
  if (!p.backup.empty()) text += fmt::format("  backup: {}\n", p.backup);
  for (const Finding& f : verified.findings()) text += "  " + format_finding(f, colour_on(stdout)) + "\n";
  text += applied ? fmt::format("verify after repair: {} error(s)\n", verified.count(Severity::kError))
                  : "plan only: nothing was changed; run with --apply to carry it out\n";
  out->write(text);
}

// What verify finds in the meta.dat as it is, each error with its hint.
RepairNeeds verify_now(const std::string& path) {
  CanalRun run;
  run.paths = {path};
  run.kind = canal::FileKind::kMetaDat;
  auto tally = check_canal(run);
  if (!tally) return {};
  tally->findings.add_hints(canal_hint);
  return RepairNeeds(tally->findings);
}

FindingList verify_bytes(const Plan& p, const std::string& bytes) {
  FindingList findings;
  canal::read_meta_dat(ByteSpan(bytes), p.source, &findings);
  return findings;
}

// The plan through guarded_replace; its verify reads meta.dat back.
// With --reset-tsdb, the store's files are renamed first, with the
// backup's stamp: a crash after that leaves the old position with no store
// (Canal rebuilds it), never the new position with the old store.
ReplaceResult carry_out(Plan* p, const CanalRepairOptions& o, const WriteGuardOptions& guard) {
  const std::string dir = fs::path(p->path).parent_path().empty() ? "." : fs::path(p->path).parent_path().string();
  const std::string stamp = std::to_string(now_ms());
  ReplaceRequest request;
  request.lock_dirs = {dir};
  request.watched = {p->path};
  const auto open_store = store_files(p->tsdb);  // H2 holds them open while Canal runs
  request.watched.insert(request.watched.end(), open_store.begin(), open_store.end());
  if (p->before) {
    request.backup.file = backup_path(*p, guard, stamp);
    request.backup.files = {p->path};
    request.backup.failpoint = "repair.backed_up";
  }
  if (!p->tsdb.moves.empty()) {
    p->tsdb = plan_tsdb(p->path, p->old_meta, p->new_meta, tsdb_choice(o), guard, stamp);
    request.changes.push_back(move_store(p->tsdb));
    request.restore = [p](const std::string& backup) {
      const std::string meta = backup.empty() ? "" : copy_back_command(backup, {p->path}, true);
      const std::string store = unmove_store_command(p->tsdb);
      return meta.empty() ? store : meta + " && " + store;
    };
  }
  request.changes.push_back(
      FileChange::replace(p->path, [p](FileWriter* w, std::string* e) { return w->append(ByteSpan(p->after), e); }));
  request.room = {SpaceNeed{p->path, p->after.size()}};
  request.verify = [p] {
    std::string now;
    StderrReporter io;
    read_whole(p->path, &now, &io);
    return verify_bytes(*p, now);
  };
  ReplaceResult result = guarded_replace(request, guard);
  p->backup = result.backup;
  report_outcome("repair", result);
  return result;
}

}  // namespace

std::string canal_backup_path(const std::string& file, const WriteGuardOptions& guard, std::string_view stamp) {
  const std::string name = fmt::format("{}.qjt-backup-{}", base_name(file), stamp);
  return (guard.backup_root.empty() ? fs::path(file).parent_path() / name : fs::path(guard.backup_root) / name)
      .string();
}

void add_canal_repair_options(CLI::App* command, CanalRepairOptions* o) {
  command
      ->add_option("--set-position", o->set_positions,
                   "set a client's cursor to JOURNAL:POS, CLIENT=JOURNAL:POS (repeatable)")
      ->allow_extra_args(false);
  command
      ->add_option("--to-timestamp", o->to_timestamps,
                   "make a client's cursor Canal's search-by-time cursor, CLIENT=MS (repeatable)")
      ->allow_extra_args(false);
  command->add_option("--drop-client", o->drops, "remove a client from meta.dat (repeatable)")->allow_extra_args(false);
  command->add_option("--from-log", o->from_logs, "rebuild meta.dat from these meta.log files (repeatable)")
      ->allow_extra_args(false);
  command->add_option("--at", o->at, "with --from-log, the last cursors logged at or before this time");
  command->add_flag("--reset-tsdb", o->reset_tsdb,
                    "when a cursor moves back, move the H2 table-meta store (h2.mv.db) aside with the backup, so "
                    "Canal rebuilds it");
  command->add_flag("--keep-tsdb", o->keep_tsdb,
                    "when a cursor moves back, keep the table-meta store: no DDL happened in between");
}

ExitCode run_canal_repair(const CanalRepairRun& run) {
  if (run.paths.size() != 1 || run.paths.front() == "-") {
    usage("a Canal repair takes exactly one meta.dat PATH");
    return ExitCode::kUsage;
  }
  if (is_directory(run.paths.front())) {
    usage(
        fmt::format("refused: {} is a directory; a Canal repair rewrites one meta.dat, named as PATH; nothing "
                    "was changed",
                    run.paths.front()));
    return ExitCode::kUsage;
  }
  if (run.names_meta_log) {
    usage(
        fmt::format("refused: {} is a Canal meta.log; repair rewrites a meta.dat (a meta.log is read with "
                    "--from-log); nothing was changed",
                    run.paths.front()));
    return ExitCode::kUsage;
  }
  if (!run.canal.at.empty() && run.canal.from_logs.empty()) {
    usage("--at needs --from-log");
    return ExitCode::kUsage;
  }
  if (run.canal.reset_tsdb && run.canal.keep_tsdb) {
    usage("--reset-tsdb and --keep-tsdb exclude each other");
    return ExitCode::kUsage;
  }
  ExitCode failed = ExitCode::kOk;
  auto plan = make_plan(run.paths.front(), run.canal, &failed);
  if (!plan) return failed;
  plan->tsdb = plan_tsdb(plan->path, plan->old_meta, plan->new_meta, tsdb_choice(run.canal), run.guard, "<ms>");
  if (!plan->tsdb.usage_error.empty()) {
    usage(plan->tsdb.usage_error);
    return ExitCode::kUsage;
  }
  Output out;
  const FindingList planned = verify_bytes(*plan, plan->after);
  if (!changes(*plan)) plan->needs = verify_now(plan->path);
  if (!run.apply || !changes(*plan)) {
    if (plan->before && changes(*plan) && !run.guard.no_backup)
      plan->planned_backup = backup_path(*plan, run.guard, "<ms>");
    print(&out, *plan, false, run.json, planned);
    if (plan->tsdb.refused && changes(*plan)) {
      out.flush();
      tell("repair", "--apply would be refused: " + tsdb_refusal(plan->tsdb));
    }
    return finish_output(&out, plan->needs.status(changes(*plan) ? ExitCode::kProblems : ExitCode::kOk));
  }
  if (plan->tsdb.refused) {
    print(&out, *plan, false, run.json, planned);
    out.flush();
    tell("repair", "refused: " + tsdb_refusal(plan->tsdb));
    return ExitCode::kProblems;
  }
  if (planned.count(Severity::kError) > 0 && !run.guard.force) {
    print(&out, *plan, false, run.json, planned);
    out.flush();
    tell("repair", "refused: the result would still have errors; use --force to write it anyway");
    return ExitCode::kProblems;
  }
  const ReplaceResult result = carry_out(&*plan, run.canal, run.guard);
  if (!result.changed()) return result.status;
  print(&out, *plan, true, run.json, *result.verified);
  return finish_output(&out, result.status);
}

}  // namespace qjt::cli
