// repair for classic Kestrel: plan, then (--apply) cut each file at its
// first BROKEN record or (--salvage) drop only the damaged regions, with
// backups, atomic replacement and a verify of the result.

#include <algorithm>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "colour.h"
#include "guarded_replace.h"
#include "json_line.h"
#include "kestrel/cli/kestrel_commands.h"
#include "kestrel/cli/kestrel_input.h"
#include "kestrel/journal_repair.h"
#include "path_family.h"

namespace qjt::app {
namespace {

namespace fs = std::filesystem;

struct RepairOptions {
  std::vector<std::string> paths;
  std::string queue;
  bool apply = false;
  bool salvage = false;
  WriteGuardOptions guard;
  bool json = false;
};

struct FilePlan {
  const OpenJournal* journal;
  std::size_t index;
  kestrel::RepairPlan plan;
  std::string backup_dir;
  const std::string& path() const { return journal->files[index].path; }
  ByteSpan bytes() const { return journal->inputs[index]->bytes(); }
};

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
  f.backup_dir.empty() ? out->null("backup_dir") : out->str("backup_dir", f.backup_dir);
  out->end_object();
}

// The plan for `f`; what it drops in the error colour when `colour`.
std::string file_text(const FilePlan& f, bool salvage, bool colour) {
  if (!f.plan.changes_file()) return fmt::format("{}: clean, nothing to do\n", f.path());
  std::string text = fmt::format("{}: {} from {} to {} bytes\n", f.path(), action_name(f, salvage), f.bytes().size(),
                                 f.plan.kept_bytes());
  for (const auto& d : f.plan.dropped)
    text += fmt::format("  {} {} byte(s) at offset {}: {}\n", in_colour("drop", Severity::kError, colour),
                        d.range.size(), d.range.begin, d.reason);
  if (!f.backup_dir.empty()) text += fmt::format("  backup in {}\n", f.backup_dir);
  return text;
}

std::string directory_of(const OpenJournal& j, const std::string& path) {
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
FindingList verify_journals(const std::vector<const OpenJournal*>& journals) {
  FindingList findings;
  for (const OpenJournal* j : journals) {
    std::vector<std::string> paths;
    if (!j->directory.empty()) paths = {j->directory};
    for (const auto& f : j->files)
      if (j->directory.empty()) paths.push_back(f.path);
    JournalSelection selection = open_journals_and_report(paths, j->directory.empty() ? "" : j->queue, &findings);
    for (const auto& journal : selection.journals) {
      kestrel::ReplayState state(kestrel::ReplayOptions{}, &findings);
      replay_journal(journal, &state);
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
  std::vector<const OpenJournal*> verifies;
};

RepairGroup* group_of(std::vector<RepairGroup>* groups, const FilePlan& f) {
  const std::string dir = directory_of(*f.journal, f.path());
  const std::string name = f.journal->directory.empty() ? fs::path(f.path()).filename().string() : f.journal->queue;
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
  std::map<const OpenJournal*, std::size_t> last_group;
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
    if (!result.changed()) {
      report_unchanged("repair", result);
      return result.status;
    }
    for (const Finding& finding : result.verified->findings()) verified->report(finding);
    status = worse(status, result.status);
  }
  return status;
}

void print(Output* out, const std::vector<FilePlan>& plans, const RepairOptions& o, const FindingList* verified) {
  const std::size_t errors = verified ? verified->count(Severity::kError) : 0;
  if (!o.json) {
    const bool colour = colour_on(stdout);
    for (const auto& f : plans) out->write(file_text(f, o.salvage, colour));
    if (!o.apply) out->write("plan only: nothing was changed; run with --apply to carry it out\n");
    if (verified) {
      for (const Finding& finding : verified->findings())
        if (finding.severity == Severity::kError) out->write(format_finding(finding, colour) + "\n");
      out->write(fmt::format("verify after repair: {} error(s)\n", errors));
    }
    return;
  }
  JsonLine line(out->buffer());
  line.boolean("applied", o.apply).boolean("salvage", o.salvage).begin_array("files");
  for (const auto& f : plans) write_file_json(&line, f, o.salvage);
  line.end_array();
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

ExitCode run_repair(const RepairOptions& o) {
  StderrReporter diagnostics;
  JournalSelection selection = open_journals_and_report(o.paths, o.queue, &diagnostics);
  if (selection.status != ExitCode::kOk) return selection.status;
  if (o.apply && std::find(o.paths.begin(), o.paths.end(), "-") != o.paths.end()) {
    return usage_error("repair", "--apply changes files in place; standard input (-) has none");
  }
  std::vector<FilePlan> plans;
  bool changes = false;
  for (const auto& journal : selection.journals) {
    for (std::size_t i = 0; i < journal.files.size(); ++i) {
      plans.push_back(FilePlan{&journal, i, kestrel::plan_repair(journal.inputs[i]->bytes(), o.salvage), ""});
      changes = changes || plans.back().plan.changes_file();
    }
  }
  if (auto refused = refuse_cut_to_nothing(plans, o)) return *refused;
  Output out;
  if (!o.apply) {
    print(&out, plans, o, nullptr);
    return finish_output(&out, changes ? ExitCode::kProblems : ExitCode::kOk);
  }
  FindingList verified;
  const ExitCode applied = apply_plans(&plans, o, &verified);
  if (applied != ExitCode::kOk && applied != ExitCode::kProblems) return applied;
  print(&out, plans, o, &verified);
  return finish_output(&out, applied);
}

}  // namespace

ExitCode run_kestrel_repair(const WriteRequest& r, bool salvage) {
  return run_repair(RepairOptions{r.paths, r.queue, r.apply, salvage, r.guard, r.json});
}

}  // namespace qjt::app
