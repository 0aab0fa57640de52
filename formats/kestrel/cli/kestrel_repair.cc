// repair for classic Kestrel: plan, then (--apply) cut each file at its
// first BROKEN record or (--salvage) drop only the damaged regions, with
// backups, atomic replacement and a verify of the result.

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <map>
#include <optional>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "colour.h"
#include "guarded_replace.h"
#include "json_line.h"
#include "kestrel/cli/kestrel_commands.h"
#include "kestrel/cli/kestrel_hints.h"
#include "kestrel/journal_repair.h"
#include "kestrel/journal_selection.h"
#include "path_family.h"
#include "path_name.h"
#include "repair_needs.h"
#include "reporters.h"

namespace qjt::cli {
namespace {

namespace fs = std::filesystem;

struct RepairOptions {
  std::vector<std::string> paths;
  std::string queue;
  bool apply = false;
  bool salvage = false;
  WriteGuardOptions guard;
  bool json = false;
  Registry drivers{};  // to tell other families' files in a queue directory
};

struct FilePlan {
  const kestrel::OpenJournal* journal;
  std::size_t index;
  kestrel::RepairPlan plan;
  std::string backup_dir;
  kestrel::RecordCount records;  // what the plan keeps and loses
  // Without --salvage, the salvage plan when it keeps more records.
  std::optional<kestrel::RepairPlan> salvaged;
  kestrel::RecordCount salvaged_records;
  std::string planned_backup;  // before --apply: where its backup would go
  const std::string& path() const { return journal->files[index].path; }
  ByteSpan bytes() const { return journal->inputs[index]->bytes(); }
};

std::uint64_t dropped_bytes(const FilePlan& f, const kestrel::RepairPlan& plan) {
  return f.bytes().size() - plan.kept_bytes();
}

// The plan for file `index` of `journal`, with what it keeps and, when
// `offer_gentler`, what --salvage would keep instead.
FilePlan plan_file(const kestrel::OpenJournal& journal, std::size_t index, bool salvage, bool offer_gentler) {
  FilePlan f{&journal, index, kestrel::plan_repair(journal.inputs[index]->bytes(), salvage), "", {}, {}, {}, ""};
  if (!f.plan.changes_file()) {
    f.records = kestrel::count_records(f.bytes(), f.plan, f.plan);
    return f;
  }
  kestrel::RepairPlan salvaged = salvage ? f.plan : kestrel::plan_repair(f.bytes(), true);
  f.records = kestrel::count_records(f.bytes(), f.plan, salvaged);
  f.salvaged_records = kestrel::count_records(f.bytes(), salvaged, salvaged);
  if (offer_gentler && f.salvaged_records.kept > f.records.kept) f.salvaged = std::move(salvaged);
  return f;
}

// ---- what a repair does to the queues --------------------------------------

// An item is known by the record that added it (file index, offset in
// the file as it is now), which no repair moves.
using ItemKey = std::pair<std::uint32_t, std::uint64_t>;

// The items Kestrel recovers from `journal` (open transactions included),
// sorted; with `kept`, from the journal as a repair leaves it.
std::vector<ItemKey> recovered_items(const kestrel::OpenJournal& journal,
                                     const std::vector<const std::vector<kestrel::ByteRange>*>& kept) {
  DiscardFindings findings;  // verify reports them
  kestrel::ReplayState state(kestrel::ReplayOptions{}, &findings);
  kestrel::replay_journal(journal, &state, kept);
  std::vector<ItemKey> items;
  for (const kestrel::QueuedItem& item : state.after_restart()) items.emplace_back(item.file_index, item.record_offset);
  std::sort(items.begin(), items.end());
  return items;
}

// As Flume's repair tells them (flume/repair_recovery.h): an item
// recovered now and not after the repair is lost when the repair drops the
// record that added it, and taken when a record the damage hid today, and
// that the repair keeps, removes it; one recovered after and not now is
// revived (a record the damage hid today adds it). The figures add up:
// now - lost - taken + revived = after.
struct QueueChange {
  const kestrel::OpenJournal* journal;
  std::uint64_t items_now = 0;
  std::uint64_t items_after = 0;
  std::uint64_t items_lost = 0;
  std::uint64_t items_taken = 0;
  std::uint64_t items_revived = 0;
};

bool inside(const std::vector<kestrel::ByteRange>& ranges, std::uint64_t offset) {
  return std::any_of(ranges.begin(), ranges.end(),
                     [offset](const kestrel::ByteRange& r) { return offset >= r.begin && offset < r.end; });
}

// What the plans of `plans` (salvage's instead, when `salvaged` and a file
// has one) do to `journal`'s queue.
QueueChange queue_change(const kestrel::OpenJournal& journal, const std::vector<FilePlan>& plans, bool salvaged) {
  std::vector<const std::vector<kestrel::ByteRange>*> kept(journal.files.size(), nullptr);
  for (const FilePlan& f : plans) {
    if (f.journal != &journal || !f.plan.changes_file()) continue;
    kept[f.index] = salvaged && f.salvaged ? &f.salvaged->keep : &f.plan.keep;
  }
  const std::vector<ItemKey> now = recovered_items(journal, {});
  const std::vector<ItemKey> after = recovered_items(journal, kept);
  std::vector<ItemKey> gone;
  std::set_difference(now.begin(), now.end(), after.begin(), after.end(), std::back_inserter(gone));
  QueueChange change{&journal, now.size(), after.size(), 0, 0, 0};
  std::vector<ItemKey> added;
  std::set_difference(after.begin(), after.end(), now.begin(), now.end(), std::back_inserter(added));
  change.items_revived = added.size();
  for (const auto& [file, offset] : gone) {
    const bool kept_record = kept[file] == nullptr || inside(*kept[file], offset);
    ++(kept_record ? change.items_taken : change.items_lost);
  }
  return change;
}

// The whole run's plan: each file's, what it does to each queue, and,
// before --apply, what --salvage would do instead when it keeps more.
struct RunPlan {
  std::vector<FilePlan> files;
  std::vector<QueueChange> queues;          // those whose files change
  std::optional<std::string> gentler;       // the --salvage command
  std::vector<QueueChange> gentler_queues;  // with gentler: what it does to them
  RepairNeeds needs;                        // no file changes: what verify finds left

  bool changes() const {
    return std::any_of(files.begin(), files.end(), [](const FilePlan& f) { return f.plan.changes_file(); });
  }
};

// "qjt repair --salvage [--queue Q] PATH...": the gentler plan, as run.
std::string salvage_command(const RepairOptions& o) {
  std::string command = "qjt repair --salvage";
  if (!o.queue.empty()) command += " --queue " + shell_word(o.queue);
  for (const std::string& path : o.paths) command += " " + shell_word(path);
  return command;
}

RunPlan plan_run(const kestrel::JournalSelection& selection, const RepairOptions& o) {
  RunPlan run;
  for (const auto& journal : selection.journals)
    for (std::size_t i = 0; i < journal.files.size(); ++i)
      run.files.push_back(plan_file(journal, i, o.salvage, !o.apply));
  const bool gentler =
      std::any_of(run.files.begin(), run.files.end(), [](const FilePlan& f) { return f.salvaged.has_value(); });
  if (gentler) run.gentler = salvage_command(o);
  for (const auto& journal : selection.journals) {
    const bool changed = std::any_of(run.files.begin(), run.files.end(), [&journal](const FilePlan& f) {
      return f.journal == &journal && f.plan.changes_file();
    });
    if (!changed) continue;
    run.queues.push_back(queue_change(journal, run.files, false));
    if (gentler) run.gentler_queues.push_back(queue_change(journal, run.files, true));
  }
  return run;
}

std::uint64_t items_lost(const std::vector<QueueChange>& queues) {
  std::uint64_t total = 0;
  for (const QueueChange& q : queues) total += q.items_lost;
  return total;
}

std::string action_name(const FilePlan& f, bool salvage) {
  if (!f.plan.changes_file()) return "keep";
  return salvage ? "salvage" : "truncate";
}

void write_file_json(JsonWriter* out, const FilePlan& f, bool salvage) {
  out->begin_object()
      .str("file", f.path())
      .str("action", action_name(f, salvage))
      .unsigned_num("size", f.bytes().size())
      .unsigned_num("size_after", f.plan.kept_bytes())
      .begin_array("dropped");
  for (const auto& d : f.plan.dropped) {
    out->begin_object()
        .unsigned_num("offset", d.range.begin)
        .unsigned_num("length", d.range.size())
        .str("reason", d.reason)
        .end_object();
  }
  out->end_array();
  out->unsigned_num("records_kept", f.records.kept).unsigned_num("records_lost", f.records.lost);
  if (f.salvaged) {
    out->begin_object("gentler")
        .unsigned_num("records_kept", f.salvaged_records.kept)
        .unsigned_num("records_lost", f.salvaged_records.lost)
        .unsigned_num("bytes_dropped", dropped_bytes(f, *f.salvaged))
        .end_object();
  } else {
    out->null("gentler");
  }
  f.backup_dir.empty() ? out->null("backup_dir") : out->str("backup_dir", f.backup_dir);
  f.planned_backup.empty() ? out->null("backup_to") : out->str("backup_to", f.planned_backup);
  out->end_object();
}

void write_queue_json(JsonWriter* out, const QueueChange& q) {
  out->begin_object()
      .str("queue", q.journal->queue)
      .unsigned_num("items_now", q.items_now)
      .unsigned_num("items_after", q.items_after)
      .unsigned_num("items_lost", q.items_lost)
      .unsigned_num("items_taken", q.items_taken)
      .unsigned_num("items_revived", q.items_revived)
      .end_object();
}

// The plan for `f`; what it drops in the error colour when `colour`.
std::string file_text(const FilePlan& f, bool salvage, bool colour) {
  if (!f.plan.changes_file()) return fmt::format("{}: clean, nothing to do\n", f.path());
  std::string text = fmt::format("{}: {} from {} to {} bytes\n", f.path(), action_name(f, salvage), f.bytes().size(),
                                 f.plan.kept_bytes());
  for (const auto& d : f.plan.dropped)
    text += fmt::format("  {} {} byte(s) at offset {}: {}\n", in_colour("drop", Severity::kError, colour),
                        d.range.size(), d.range.begin, d.reason);
  text += fmt::format("  keeps {} of {} record(s); {} {} record(s) (a damaged region counts as one)\n", f.records.kept,
                      f.records.total(), in_colour("loses", Severity::kError, colour), f.records.lost);
  if (f.salvaged)
    text += fmt::format("  --salvage would keep {} of {} record(s) (drop {} byte(s))\n", f.salvaged_records.kept,
                        f.salvaged_records.total(), dropped_bytes(f, *f.salvaged));
  if (!f.backup_dir.empty()) text += fmt::format("  backup in {}\n", f.backup_dir);
  if (!f.planned_backup.empty()) text += fmt::format("  backup to {} on --apply\n", f.planned_backup);
  return text;
}

std::string queue_text(const QueueChange& q, bool colour) {
  const std::string revived =
      q.items_revived == 0 ? "" : fmt::format(", {} added by records the damage hides now", q.items_revived);
  return fmt::format(
      "queue {}: {} item(s) recovered now, {} after the repair; {} {}, {} taken by records the "
      "damage hides now{}\n",
      q.journal->queue, q.items_now, q.items_after, q.items_lost,
      in_colour("lost", Severity::kError, colour && q.items_lost > 0), q.items_taken, revived);
}

std::string directory_of(const kestrel::OpenJournal& j, const std::string& path) {
  if (!j.directory.empty()) return j.directory;
  const auto parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

// The kept ranges of `f`, written over it.
FileContent kept_content(const FilePlan& f) {
  return [&f](FileWriter* writer, std::string* error) {
    for (const auto& range : f.plan.keep)
      if (!writer->append(f.bytes().subspan(range.begin, range.size()), error)) return false;
    return true;
  };
}

// What `journals` replay to now, read again from disk.
FindingList verify_journals(const std::vector<const kestrel::OpenJournal*>& journals) {
  FindingList findings;
  for (const kestrel::OpenJournal* j : journals) {
    std::vector<std::string> paths;
    if (!j->directory.empty()) paths = {j->directory};
    for (const auto& f : j->files)
      if (j->directory.empty()) paths.push_back(f.path);
    kestrel::JournalSelection selection =
        kestrel::open_journals_and_report(paths, j->directory.empty() ? "" : j->queue, j->foreign, &findings);
    for (const auto& journal : selection.journals) {
      kestrel::ReplayState state(kestrel::ReplayOptions{}, &findings);
      kestrel::replay_journal(journal, &state);
    }
  }
  return findings;
}

// One guarded replacement for each queue (or each file named directly: it
// is backed up under its own name, queue or not), in the order of `plans`:
// all of its originals backed up before the first is replaced. A journal
// is verified by the group that changes the last of its files.
struct RepairGroup {
  ReplaceRequest request;
  std::vector<FilePlan*> plans;
  std::vector<const kestrel::OpenJournal*> verifies;
};

RepairGroup* group_of(std::vector<RepairGroup>* groups, const FilePlan& f) {
  const std::string dir = directory_of(*f.journal, f.path());
  const std::string name = f.journal->directory.empty() ? base_name(f.path()) : f.journal->queue;
  auto group = std::find_if(groups->begin(), groups->end(), [&](const RepairGroup& g) {
    return g.request.lock_dirs.front() == dir && g.request.backup.name == name;
  });
  if (group != groups->end()) return &*group;
  RepairGroup& added = groups->emplace_back();
  added.request.lock_dirs = {dir};
  added.request.backup.name = name;
  added.request.backup.failpoint = "repair.backed_up";
  return &added;
}

std::vector<RepairGroup> group_changes(std::vector<FilePlan>* plans) {
  std::vector<RepairGroup> groups;
  std::map<const kestrel::OpenJournal*, std::size_t> last_group;
  for (FilePlan& f : *plans) {
    if (!f.plan.changes_file()) continue;
    RepairGroup* group = group_of(&groups, f);
    group->request.watched.push_back(f.path());
    group->request.backup.files.push_back(f.path());
    group->request.changes.push_back(FileChange::replace(f.path(), kept_content(f)));
    group->request.room.push_back(SpaceNeed{f.path(), f.plan.kept_bytes()});
    group->plans.push_back(&f);
    last_group[f.journal] = static_cast<std::size_t>(group - groups.data());
  }
  for (const auto& [journal, group] : last_group) groups[group].verifies.push_back(journal);
  for (RepairGroup& group : groups)
    group.request.verify = [journals = group.verifies] { return verify_journals(journals); };
  return groups;
}

// Every group in order, stopping at the first whose changes were not made;
// *verified gathers the verifies.
ExitCode apply_plans(std::vector<FilePlan>* plans, const RepairOptions& o, FindingList* verified) {
  ExitCode status = ExitCode::kOk;
  for (RepairGroup& group : group_changes(plans)) {
    ReplaceResult result = guarded_replace(group.request, o.guard);
    for (FilePlan* f : group.plans) f->backup_dir = result.backup;
    report_outcome("repair", result);
    if (!result.changed()) return result.status;
    for (const Finding& finding : result.verified->findings()) verified->report(finding);
    status = worse(status, result.status);
  }
  return status;
}

// Before --apply, the whole story: per file what it drops, keeps and
// loses, and where its backup goes; per queue the items lost; and the
// gentler --salvage when it keeps more.
void print_text(Output* out, const RunPlan& run, const RepairOptions& o, const FindingList* verified) {
  const bool colour = colour_on(stdout);
  if (run.needs.any()) out->write(run.needs.text(fmt::format("{}", fmt::join(o.paths, " "))));
  for (const auto& f : run.files)
    if (!run.needs.any()) out->write(file_text(f, o.salvage, colour));
  for (const QueueChange& q : run.queues) out->write(queue_text(q, colour));
  if (run.gentler)
    out->write(fmt::format("gentler: {} keeps more records and loses {} queued item(s)\n", *run.gentler,
                           items_lost(run.gentler_queues)));
  if (!o.apply && run.changes()) out->write("plan only: nothing was changed; run with --apply to carry it out\n");
  if (verified) {
    for (const Finding& finding : verified->findings())
      if (finding.severity == Severity::kError) out->write(format_finding(finding, colour) + "\n");
    out->write(fmt::format("verify after repair: {} error(s)\n", verified->count(Severity::kError)));
  }
}

void write_gentler_json(JsonWriter* out, const RunPlan& run) {
  if (!run.gentler) {
    out->null("gentler");
    return;
  }
  kestrel::RecordCount records;
  std::uint64_t bytes = 0;
  for (const FilePlan& f : run.files) {
    const bool salvaged = f.salvaged.has_value();
    records.kept += salvaged ? f.salvaged_records.kept : f.records.kept;
    records.lost += salvaged ? f.salvaged_records.lost : f.records.lost;
    bytes += dropped_bytes(f, salvaged ? *f.salvaged : f.plan);
  }
  out->begin_object("gentler")
      .str("command", *run.gentler)
      .unsigned_num("records_kept", records.kept)
      .unsigned_num("records_lost", records.lost)
      .unsigned_num("bytes_dropped", bytes)
      .unsigned_num("items_lost", items_lost(run.gentler_queues))
      .end_object();
}

void print(Output* out, const RunPlan& run, const RepairOptions& o, const FindingList* verified) {
  if (!o.json) return print_text(out, run, o, verified);
  JsonLine line(out->buffer(), o.apply ? JsonType::kReport : JsonType::kPlan);
  std::uint64_t records_lost = 0;
  for (const auto& f : run.files) records_lost += f.records.lost;
  line.boolean("applied", o.apply).boolean("salvage", o.salvage).begin_array("files");
  for (const auto& f : run.files) write_file_json(&line, f, o.salvage);
  line.end_array().begin_array("queues");
  for (const QueueChange& q : run.queues) write_queue_json(&line, q);
  line.end_array().unsigned_num("records_lost", records_lost).unsigned_num("items_lost", items_lost(run.queues));
  write_gentler_json(&line, run);
  run.needs.write_json(&line);
  if (verified) {
    write_verify_json(&line.key("verify"), *verified);
  } else {
    line.null("verify");
  }
  line.finish();
}

// Classic Kestrel has no magic: a file where nothing decodes at offset 0
// may be another format's, or a journal whose first record is damaged.
// Cutting it to nothing throws away whatever follows, so that takes
// --force; --salvage keeps the records that decode after the damage.
std::optional<ExitCode> refuse_cut_to_nothing(const std::vector<FilePlan>& plans, const RepairOptions& o) {
  if (o.guard.force) return std::nullopt;
  bool refused = false;
  for (const FilePlan& f : plans) {
    if (f.bytes().empty() || f.plan.kept_bytes() != 0) continue;
    tell("repair",
         fmt::format("refused: {} would be cut from {} bytes to 0: {}; nothing was changed. {}", f.path(),
                     f.bytes().size(), kestrel_claim(f.bytes()).evidence,
                     o.salvage ? "No record decodes anywhere in it; use --force to empty it anyway"
                               : "Try --salvage, which keeps the records that decode after the damage, or --force"));
    refused = true;
  }
  if (refused) return ExitCode::kUsage;
  return std::nullopt;
}

// What verify finds in the journals as they are, each error with its hint.
FindingList verify_now(const RepairOptions& o) {
  FindingList findings =
      check_kestrel(ReadRequest{.command = "verify", .paths = o.paths, .queue = o.queue, .drivers = o.drivers}, {})
          .findings;
  findings.add_hints(kestrel_hint);
  return findings;
}

// Where each file's backup would go, for the plan to say.
void plan_backups(RunPlan* run, const WriteGuardOptions& guard) {
  for (RepairGroup& group : group_changes(&run->files)) {
    const std::string place = planned_backup(group.request, guard);
    for (FilePlan* f : group.plans) f->planned_backup = place;
  }
}

ExitCode run_repair(const RepairOptions& o) {
  StderrReporter diagnostics;
  kestrel::JournalSelection selection =
      kestrel::open_journals_and_report(o.paths, o.queue, other_families(o.drivers), &diagnostics);
  if (selection.status != ExitCode::kOk) return selection.status;
  if (o.apply && std::find(o.paths.begin(), o.paths.end(), "-") != o.paths.end()) {
    return usage_error("repair", "--apply changes files in place; standard input (-) has none");
  }
  RunPlan run = plan_run(selection, o);
  if (auto refused = refuse_cut_to_nothing(run.files, o)) return *refused;
  if (!run.changes()) run.needs = RepairNeeds(verify_now(o));
  Output out;
  if (!o.apply) {
    plan_backups(&run, o.guard);
    print(&out, run, o, nullptr);
    return finish_output(&out, run.needs.status(run.changes() ? ExitCode::kProblems : ExitCode::kOk));
  }
  FindingList verified;
  const ExitCode applied = apply_plans(&run.files, o, &verified);
  if (applied != ExitCode::kOk && applied != ExitCode::kProblems) return applied;
  print(&out, run, o, run.needs.any() ? nullptr : &verified);
  return finish_output(&out, run.needs.status(applied));
}

}  // namespace

ExitCode run_kestrel_repair(const WriteRequest& r, bool salvage) {
  return run_repair(RepairOptions{r.paths, r.queue, r.apply, salvage, r.guard, r.json, r.drivers});
}

}  // namespace qjt::cli
