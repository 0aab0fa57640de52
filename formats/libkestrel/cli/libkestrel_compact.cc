// qjt compact for libkestrel (Kestrel 3) queue directories: the segments
// every reader has passed are deleted and, with --rewrite-bookmarks, the
// bookmarks rewritten canonically (libkestrel_compaction.h), with qjt's lock,
// the refusal while the files are open, and a backup, as for classic
// Kestrel.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "command_support.h"
#include "guarded_replace.h"
#include "json_line.h"
#include "libkestrel/cli/libkestrel_commands.h"
#include "libkestrel/cli/libkestrel_input.h"
#include "libkestrel/libkestrel_compaction.h"

namespace qjt::cli {
namespace {

// The reader that keeps compaction from deleting `segment` (the oldest
// segment kept but the last): what a user asks when a queue's disk stays full.
struct Blocker {
  std::string segment, reader;
  std::int64_t head = 0;
};

struct Report {
  std::string queue;
  std::string action;  // compacted, dry_run, skipped, refused, failed
  std::string reason, backup_dir;
  libkestrel::CompactionPlan plan;
  std::optional<Blocker> blocked_by;    // none when refused
  std::optional<FindingList> verified;  // once compacted
};

std::optional<Blocker> blocker_of(const libkestrel::QueueReplay& replay) {
  const auto blocker = libkestrel::compaction_blocker(replay);
  if (!blocker) return std::nullopt;
  return Blocker{replay.segments()[blocker->segment].path, blocker->reader->name, blocker->reader->head};
}

// `reader "web" (head 3)`; the default reader has the empty name.
std::string reader_text(const Blocker& b) {
  return fmt::format("{} (head {})", b.reader.empty() ? "the default reader" : fmt::format("reader \"{}\"", b.reader),
                     b.head);
}

void write_blocker_json(JsonWriter* out, const std::optional<Blocker>& b) {
  if (!b) {
    out->null();
    return;
  }
  out->begin_object().str("segment", b->segment).str("reader", b->reader).num("head", b->head).end_object();
}

void write_paths_json(JsonWriter* out, const std::vector<std::string>& paths) {
  out->begin_array();
  for (const std::string& p : paths) out->string(p);
  out->end_array();
}

std::vector<std::string> bookmark_paths(const libkestrel::CompactionPlan& plan) {
  std::vector<std::string> paths;
  for (const auto& b : plan.rewrite_bookmarks) paths.push_back(b.path);
  return paths;
}

// What the plan does, in the tense of the action: "compacted: deleted 2
// segment(s), ...", "would delete 2 segment(s), ..." in a dry run.
std::string plan_text(const Report& r) {
  const libkestrel::CompactionPlan& p = r.plan;
  const std::string reason = r.reason.empty() ? "" : fmt::format(" ({})", r.reason);
  if (r.action == "compacted")
    return fmt::format("compacted{}: deleted {} segment(s), rewrote {} bookmark(s), deleted {} temp file(s)", reason,
                       p.delete_segments.size(), p.rewrite_bookmarks.size(), p.temp_files.size());
  if (r.action == "dry_run")
    return fmt::format("would delete {} segment(s), rewrite {} bookmark(s), delete {} temp file(s)",
                       p.delete_segments.size(), p.rewrite_bookmarks.size(), p.temp_files.size());
  // Refused or failed: the reason, and the outcome told on stderr, say what became of the files.
  return r.action + reason;
}

void print_report(Output* out, const Report& r, bool json) {
  if (json) {
    JsonLine line(out->buffer(), r.action == "dry_run" ? JsonType::kPlan : JsonType::kReport);
    line.str("queue_name", r.queue).str("action", r.action).boolean("nothing_to_do", r.action == "skipped");
    r.reason.empty() ? line.null("reason") : line.str("reason", r.reason);
    write_paths_json(&line.key("deleted_segments"), r.plan.delete_segments);
    write_paths_json(&line.key("rewritten_bookmarks"), bookmark_paths(r.plan));
    write_paths_json(&line.key("deleted_temp_files"), r.plan.temp_files);
    write_blocker_json(&line.key("blocked_by"), r.blocked_by);
    r.backup_dir.empty() ? line.null("backup_dir") : line.str("backup_dir", r.backup_dir);
    write_optional_verify_json(&line.key("verify"), r.verified);
    line.finish();
    out->commit();
    return;
  }
  // A skipped queue's reason says "nothing to do" and why.
  std::string text = fmt::format("{}: {}", r.queue, r.action == "skipped" ? r.reason : plan_text(r));
  for (const auto& path : r.plan.delete_segments) text += "\n  delete " + path;
  for (const auto& path : bookmark_paths(r.plan)) text += "\n  rewrite " + path;
  if (r.blocked_by && r.action != "skipped")  // a skipped queue's reason names it
    text += fmt::format("\n  keep {}: {} still needs it", r.blocked_by->segment, reader_text(*r.blocked_by));
  if (!r.backup_dir.empty()) text += fmt::format("\n  backup in {}", r.backup_dir);
  out->write(text + "\n" + verify_errors_text(r.verified));
}

std::vector<std::string> queue_files(const LkQueue& q) {
  std::vector<std::string> paths = q.temp_files;
  for (const auto& f : q.files) paths.push_back(f.path);
  return paths;
}

// The plan as guarded_replace's request: every file it changes backed up,
// then the plan's steps in its order.
ReplaceRequest replace_request(const LkQueue& q, const libkestrel::CompactionPlan& plan) {
  ReplaceRequest request;
  request.lock_dirs = {q.directory};
  request.watched = queue_files(q);
  request.backup.name = q.name;
  request.backup.failpoint = "rewrite.backup_file";
  std::vector<std::string>& changed = request.backup.files;
  changed = plan.delete_segments;
  for (const auto& b : plan.rewrite_bookmarks) {
    changed.push_back(b.path);
    const auto content = [&b](FileWriter* w, std::string* e) { return w->append(ByteSpan(b.bytes), e); };
    request.changes.push_back(FileChange::replace(b.path, content, "libkestrel_compact.bookmark_rewritten"));
    request.room.push_back(SpaceNeed{b.path, b.bytes.size()});
  }
  changed.insert(changed.end(), plan.temp_files.begin(), plan.temp_files.end());
  for (const auto& path : plan.temp_files)
    request.changes.push_back(FileChange::remove(path, "libkestrel_compact.file_removed"));
  for (const auto& path : plan.delete_segments)
    request.changes.push_back(FileChange::remove(path, "libkestrel_compact.file_removed"));
  return request;
}

// What deleting the plan's segments frees: what stats counts as reclaimable.
std::uint64_t freed_bytes(const libkestrel::QueueReplay& replay, const libkestrel::CompactionPlan& plan) {
  std::uint64_t freed = 0;
  for (const auto& segment : replay.segments())
    if (std::find(plan.delete_segments.begin(), plan.delete_segments.end(), segment.path) != plan.delete_segments.end())
      freed += segment.bytes;
  return freed;
}

// What each reader would read next: its name and pending item ids, in order.
using PendingItems = std::map<std::string, std::vector<std::int64_t>>;

PendingItems pending_items(const libkestrel::QueueReplay& replay) {
  PendingItems pending;
  for (const auto& reader : replay.readers()) {
    auto& ids = pending[reader.name];
    replay.for_each_pending(reader, [&ids](const libkestrel::ItemRef& item) { ids.push_back(item.id); });
  }
  return pending;
}

// The compacted queue read again from disk: its findings, and
// `result_differs` unless every reader still has what it had pending.
FindingList verify_compacted(const LkQueue& q, const PendingItems& before) {
  FindingList findings;
  LkSelection selection = open_libkestrel({q.directory}, q.name, &findings);
  for (const LkQueue& now : selection.queues) {
    const ReplayedQueue replayed(now);
    for (const Finding& f : replayed.findings.findings()) findings.report(f);
    if (pending_items(replayed.replay) != before) {
      findings.report(Finding{Severity::kError, "result_differs", q.directory, std::nullopt,
                              fmt::format("the compacted queue {} no longer gives every reader the items it had "
                                          "pending",
                                          q.name)});
    }
  }
  return findings;
}

ExitCode compact_in_place(const LkQueue& q, const libkestrel::QueueReplay& replay, const LibkestrelRun& run,
                          Report* r) {
  ReplaceRequest request = replace_request(q, r->plan);
  request.verify = [&q, before = pending_items(replay)] { return verify_compacted(q, before); };
  ReplaceResult result = guarded_replace(request, run.guard);
  if (result.changed()) report_outcome("compact", result);
  r->reason = result.reason;
  r->backup_dir = result.backup;
  r->verified = std::move(result.verified);
  r->action = result_action(result, "compacted");
  return result.status;
}

ExitCode compact_one(const LkQueue& q, const LibkestrelRun& run, Output* out) {
  const ReplayedQueue replayed(q);
  const libkestrel::QueueReplay& replay = replayed.replay;
  std::map<std::string, ByteSpan> bookmarks;
  for (const auto& f : q.files)
    if (f.input && f.kind == libkestrel::FileKind::kBookmark) bookmarks.emplace(f.path, f.input->bytes());
  Report r{q.name,
           "",
           "",
           "",
           libkestrel::plan_compaction(replay, run.rewrite_bookmarks, bookmarks, q.temp_files),
           blocker_of(replay),
           std::nullopt};
  ExitCode status = ExitCode::kOk;
  if (const std::size_t errors = replayed.findings.count(Severity::kError); errors > 0) {
    r.action = "refused";
    r.reason = fmt::format("qjt verify finds {} error(s) in this queue; compaction could lose items", errors);
    r.plan = {};
    r.blocked_by.reset();
    status = ExitCode::kProblems;
  } else if (r.plan.empty()) {
    r.action = "skipped";
    r.reason = r.blocked_by
                   ? fmt::format("nothing to do: {} still needs {}", reader_text(*r.blocked_by), r.blocked_by->segment)
                   : "nothing to do: no segment that every reader has passed";
  } else if (const std::uint64_t freed = freed_bytes(replay, r.plan);
             run.if_reclaimable && freed < *run.if_reclaimable) {
    r.action = "skipped";
    r.reason = reclaimable_skip(freed, *run.if_reclaimable);
    if (!run.json) return status;  // a cron gate keeps its skips quiet
  } else if (!run.apply) {
    r.action = "dry_run";
  } else {
    status = compact_in_place(q, replay, run, &r);
  }
  print_report(out, r, run.json);
  if (status != ExitCode::kOk) tell("compact", fmt::format("{}: {}", r.queue, r.reason));
  return status;
}

}  // namespace

ExitCode run_libkestrel_compact(const LibkestrelRun& run) {
  StderrReporter diagnostics;
  LkSelection selection = open_libkestrel(run.paths, run.queue, &diagnostics);
  if (selection.status != ExitCode::kOk) return selection.status;
  for (const auto& q : selection.queues) {
    if (q.directory.empty()) {
      return usage_error("compact", "give the Kestrel 3 queue directory, not its files");
    }
  }
  Output out;
  ExitCode status = ExitCode::kOk;
  for (const auto& q : selection.queues) {
    for (const Finding& f : q.layout_findings) diagnostics.report(f);
    status = worse(status, compact_one(q, run, &out));
  }
  return finish_output(&out, status);
}

}  // namespace qjt::cli
