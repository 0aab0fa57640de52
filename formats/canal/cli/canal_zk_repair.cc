#include "canal/cli/canal_zk_repair.h"

#include <filesystem>

#include <fmt/format.h>

#include "canal/cli/canal_input.h"
#include "canal/cli/canal_tsdb_repair.h"
#include "canal/cli/canal_zk.h"
#include "canal/cli/canal_zk_convert.h"
#include "canal/meta_repair.h"
#include "canal/tsdb_store.h"
#include "clock.h"
#include "command_support.h"
#include "guarded_replace.h"
#include "json_line.h"
#include "output.h"

namespace qjt::cli {
namespace {

namespace fs = std::filesystem;
constexpr std::string_view kCommand = "repair";

struct ZkPlan {
  std::string path;
  std::string node;    // the znode, or a pattern naming what is unknown
  std::string before;  // the node's data as the file has it
  std::string after;   // what Canal would write for the new cursor
  std::vector<std::string> actions;
  std::string backup, planned_backup;
  std::string destination;
  bool rewind = false;  // the cursor moves back (tsdb_store.h)
};

bool changes(const ZkPlan& p) { return p.before != p.after; }

std::optional<canal::MetaEdits> parse_edits(const CanalRepairOptions& o) {
  canal::MetaEdits edits;
  if (!o.drops.empty() || !o.from_logs.empty() || !o.at.empty()) {
    usage_error(kCommand, "a cursor node takes --set-position and --to-timestamp (it holds one client's cursor)");
    return std::nullopt;
  }
  for (const std::string& s : o.set_positions)
    if (!canal::parse_set_position(s, &edits.set_positions.emplace_back())) {
      usage_error(kCommand, fmt::format("--set-position {}: expected CLIENT=JOURNAL:POS", s));
      return std::nullopt;
    }
  for (const std::string& s : o.to_timestamps)
    if (!canal::parse_to_timestamp(s, &edits.to_timestamps.emplace_back())) {
      usage_error(kCommand, fmt::format("--to-timestamp {}: expected CLIENT=TIME", s));
      return std::nullopt;
    }
  return edits;
}

// The client an unplaced node is taken to be: the one its edits name.
std::optional<std::int64_t> edited_client(const canal::MetaEdits& edits) {
  std::optional<std::int64_t> id;
  for (const auto& e : edits.set_positions) id = e.client_id;
  for (const auto& e : edits.to_timestamps) id = e.client_id;
  return id;
}

std::optional<ZkPlan> make_plan(const std::string& path, const canal::MetaEdits& edits, ExitCode* status) {
  FindingList findings;
  std::vector<canal::ZkClientNode> nodes;
  std::string bytes;
  *status = ExitCode::kIoError;
  if (!read_whole(path, &bytes, &findings)) {
    tell(kCommand, findings.findings().back().message);
    return std::nullopt;
  }
  *status = ExitCode::kProblems;
  nodes.push_back(zk_cursor_node(path, ByteSpan(bytes), &findings));
  canal::ZkClientNode& node = nodes.front();
  if (!node.cursor || !node.cursor->cursor || !node.cursor->cursor->valid) {
    usage_error(kCommand, fmt::format("{} holds no cursor that can be read (see qjt verify); there is nothing to "
                                      "edit: convert a meta.dat client with --to canal-zk-cursor",
                                      path));
    return std::nullopt;
  }
  if (!placed(node)) node.node = canal::ZkCursorPath{"<destination>", edited_client(edits).value_or(0)};
  canal::MetaDat meta = canal::zk_meta_dat(nodes, node.node.destination);
  ZkPlan plan;
  std::string error;
  if (!canal::apply_edits(&meta, edits, &plan.actions, &error)) {
    *status = usage_error(kCommand, error);
    return std::nullopt;
  }
  plan.path = path;
  plan.node = canal::cursor_znode(node.node);
  const std::string_view data = std::string_view(bytes).substr(node.cursor->offset);
  plan.before = std::string(data.substr(0, std::min(data.find('\n'), data.size())));
  plan.after = canal::write_zk_cursor(*meta.clients.front().cursor);
  plan.destination = node.node.destination;
  plan.rewind = canal::is_rewind(*node.cursor->cursor, *meta.clients.front().cursor);
  if (changes(plan) && plan.actions.empty()) plan.actions.push_back("rewrite as Canal writes the node");
  return plan;
}

FindingList verify_file(const std::string& path) {
  FindingList findings;
  std::vector<canal::ZkClientNode> nodes;
  read_zk_nodes({path}, canal::FileKind::kZkCursor, &findings, &nodes);
  return findings;
}

std::string backup_path(const ZkPlan& p, const WriteGuardOptions& guard, std::string_view stamp) {
  return canal_backup_path(p.path, guard, stamp);
}

ReplaceResult carry_out(ZkPlan* p, const WriteGuardOptions& guard) {
  const std::string dir = fs::path(p->path).parent_path().empty() ? "." : fs::path(p->path).parent_path().string();
  ReplaceRequest request;
  request.lock_dirs = {dir};
  request.watched = {p->path};
  request.backup.file = backup_path(*p, guard, std::to_string(now_ms()));
  request.backup.files = {p->path};
  request.backup.failpoint = "repair.backed_up";
  request.changes.push_back(
      FileChange::replace(p->path, [p](FileWriter* w, std::string* e) { return w->append(ByteSpan(p->after), e); }));
  request.room = {SpaceNeed{p->path, p->after.size()}};
  request.verify = [p] { return verify_file(p->path); };
  ReplaceResult result = guarded_replace(request, guard);
  p->backup = result.backup;
  report_outcome(kCommand, result);
  return result;
}

// A rewind needs the destination's table-meta store reset (canal_tsdb_repair.h),
// which sits with the Canal server, out of this file's sight.
std::string rewind_text(const ZkPlan& p) {
  std::string text = fmt::format(
      "  a rewind: before Canal starts from it, reset the destination's table-meta store, unless no DDL happened "
      "in between: move conf/{}/h2.mv.db and its h2.* files aside on the Canal server, or for a MySQL store run\n",
      p.destination);
  for (const std::string& statement : reset_statements(p.destination)) text += "    " + statement + "\n";
  return text;
}

void print(Output* out, const ZkPlan& p, bool applied, bool json, const FindingList& verified) {
  const std::string set = zkcli_set_command(p.node, p.after);
  if (json) {
    JsonLine line(out->buffer(), applied ? JsonType::kReport : JsonType::kPlan);
    line.boolean("applied", applied).str("file", p.path).str("node", p.node).begin_array("actions");
    for (const std::string& a : p.actions) line.string(a);
    line.end_array().boolean("changed", changes(p)).str("before", p.before).str("after", p.after);
    line.str("set_command", set).boolean("rewind", p.rewind);
    p.backup.empty() ? line.null("backup") : line.str("backup", p.backup);
    p.planned_backup.empty() ? line.null("backup_to") : line.str("backup_to", p.planned_backup);
    write_verify_json(&line.key("verify"), verified);
    line.finish();
    return;
  }
  if (!changes(p)) {
    out->write(fmt::format("{}: already as Canal writes it, nothing to do\n", p.path));
    return;
  }
  std::string text = fmt::format("{} (node {}):\n", p.path, p.node);
  for (const std::string& a : p.actions) text += "  " + a + "\n";
  text += fmt::format("  before: {}\n  after:  {}\n", p.before, p.after);
  if (!p.planned_backup.empty()) text += fmt::format("  backup: to {} on --apply\n", p.planned_backup);
  if (!p.backup.empty()) text += fmt::format("  backup: {}\n", p.backup);
  for (const Finding& f : verified.findings()) text += "  " + format_finding(f, false) + "\n";
  if (p.rewind) text += rewind_text(p);
  text += fmt::format("  install it in ZooKeeper, with Canal's instance stopped:\n    {}\n", set);
  text += applied ? fmt::format("verify after repair: {} error(s)\n", verified.count(Severity::kError))
                  : "plan only: nothing was changed; run with --apply to rewrite the file too\n";
  out->write(text);
}

}  // namespace

ExitCode run_zk_cursor_repair(const CanalRepairRun& run) {
  if (run.paths.size() != 1 || run.paths.front() == "-")
    return usage_error(kCommand, "a cursor node's repair takes exactly one file PATH");
  const auto edits = parse_edits(run.canal);
  if (!edits) return ExitCode::kUsage;
  ExitCode failed = ExitCode::kOk;
  auto plan = make_plan(run.paths.front(), *edits, &failed);
  if (!plan) return failed;
  Output out;
  FindingList planned;
  canal::read_zk_cursor(ByteSpan(plan->after), plan->path, &planned);
  if (!run.apply || !changes(*plan)) {
    if (changes(*plan) && !run.guard.no_backup) plan->planned_backup = backup_path(*plan, run.guard, "<ms>");
    print(&out, *plan, false, run.json, planned);
    return finish_output(&out, changes(*plan) ? ExitCode::kProblems : ExitCode::kOk);
  }
  if (planned.count(Severity::kError) > 0 && !run.guard.force) {
    print(&out, *plan, false, run.json, planned);
    out.flush();
    tell(kCommand, "refused: the result would still have errors; use --force to write it anyway");
    return ExitCode::kProblems;
  }
  const ReplaceResult result = carry_out(&*plan, run.guard);
  if (!result.changed()) return result.status;
  print(&out, *plan, true, run.json, *result.verified);
  return finish_output(&out, result.status);
}

}  // namespace qjt::cli
