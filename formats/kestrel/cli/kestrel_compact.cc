// compact for classic Kestrel: rewrite a queue's journal into its minimal
// equivalent, in place with a crash-safe protocol and a backup, or to -o.
#include <sys/stat.h>

#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "byte_size.h"
#include "guarded_replace.h"
#include "json_line.h"
#include "kestrel/cli/kestrel_commands.h"
#include "kestrel/compaction.h"
#include "kestrel/journal_selection.h"
#include "kestrel/queue_rewrite.h"
#include "named_output.h"

namespace qjt::cli {
namespace {

namespace fs = std::filesystem;

struct CompactOptions {
  std::vector<std::string> paths;
  std::string queue;
  std::string output;
  WriteGuardOptions guard;
  bool dry_run = false;
  bool json = false;
  std::string if_larger_than;
  std::optional<double> if_overflow;
  std::optional<std::uint64_t> if_reclaimable;
  Registry drivers{};  // which existing -o file a family claims (named_output.h)
};

struct Report {
  std::string queue;
  std::string action;  // compacted, written, dry_run, skipped, refused, failed
  std::string reason;
  std::size_t files = 0;
  kestrel::JournalSize before, after;
  std::string backup_dir, output;
  std::optional<FindingList> verified;  // in place, once compacted
};

std::optional<double> overflow_ratio(const Report& r) {
  if (r.after.bytes == 0) return std::nullopt;
  return static_cast<double>(r.before.bytes) / static_cast<double>(r.after.bytes);
}

void print_report(Output* out, const Report& r, bool json) {
  const auto ratio = overflow_ratio(r);
  if (json) {
    std::string* buf = out->buffer();
    JsonLine line(buf, r.action == "dry_run" ? JsonType::kPlan : JsonType::kReport);
    line.str("queue_name", r.queue).str("action", r.action).boolean("nothing_to_do", r.action == "skipped");
    r.reason.empty() ? line.null("reason") : line.str("reason", r.reason);
    line.begin_object("before")
        .unsigned_num("files", r.files)
        .unsigned_num("bytes", r.before.bytes)
        .unsigned_num("records", r.before.records)
        .end_object();
    line.begin_object("after")
        .unsigned_num("bytes", r.after.bytes)
        .unsigned_num("records", r.after.records)
        .end_object();
    ratio ? line.raw("overflow_ratio", fmt::format("{:.4f}", *ratio)) : line.null("overflow_ratio");
    r.backup_dir.empty() ? line.null("backup_dir") : line.str("backup_dir", r.backup_dir);
    r.output.empty() ? line.null("output") : line.str("output", r.output);
    write_optional_verify_json(&line.key("verify"), r.verified);
    line.finish();
    out->commit();
    return;
  }
  if (r.action == "skipped") {
    out->write(fmt::format("{}: {}\n", r.queue, r.reason));
    return;
  }
  // A dry run says what compact would do, in the conditional.
  std::string text = fmt::format("{}: {}", r.queue, r.action == "dry_run" ? "would compact" : r.action);
  if (!r.reason.empty()) text += fmt::format(" ({})", r.reason);
  text += fmt::format(": {} -> {} bytes, {} -> {} records", r.before.bytes, r.after.bytes, r.before.records,
                      r.after.records);
  if (ratio) text += fmt::format(", overflow {:.2f}x", *ratio);
  if (r.action == "written") text += fmt::format("; written to {}", r.output);
  if (!r.backup_dir.empty()) text += fmt::format("; backup in {}", r.backup_dir);
  out->write(text + "\n" + verify_errors_text(r.verified));
}

std::int64_t mtime_ms(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return 0;
  return std::int64_t{st.st_mtim.tv_sec} * 1000 + st.st_mtim.tv_nsec / 1000000;
}

// "nothing to do: " and why, or empty when compaction should go ahead.
std::string skip_reason(const CompactOptions& o, const kestrel::OpenJournal& j, const Report& r) {
  const bool in_place = o.output.empty();
  if (in_place && r.before.bytes == r.after.bytes && j.files.size() <= 1 && j.leftovers.empty())
    return fmt::format("nothing to do: the journal is already minimal ({} bytes, {} record(s), none to drop)",
                       r.before.bytes, r.before.records);
  if (!o.if_larger_than.empty()) {
    const auto limit = *parse_byte_size(o.if_larger_than);
    if (r.before.bytes <= limit)
      return fmt::format("nothing to do: the journal is {} bytes, not larger than {}", r.before.bytes,
                         o.if_larger_than);
  }
  const std::uint64_t freed = r.before.bytes > r.after.bytes ? r.before.bytes - r.after.bytes : 0;
  if (o.if_reclaimable && freed < *o.if_reclaimable) return reclaimable_skip(freed, *o.if_reclaimable);
  const auto ratio = overflow_ratio(r);
  if (o.if_overflow && ratio && *ratio < *o.if_overflow)
    return fmt::format("nothing to do: overflow {:.2f}x is below {}", *ratio, *o.if_overflow);
  return {};
}

// A cron gate (--if-larger-than, --if-overflow, --if-reclaimable) keeps its skips quiet.
bool gated(const CompactOptions& o) { return !o.if_larger_than.empty() || o.if_overflow || o.if_reclaimable; }

std::vector<std::string> queue_files(const kestrel::OpenJournal& j) {
  std::vector<std::string> paths;
  for (const auto& f : j.files) paths.push_back(f.path);
  paths.insert(paths.end(), j.leftovers.begin(), j.leftovers.end());
  return paths;
}

kestrel::JournalContent compacted_content(const kestrel::ReplayState& state, const kestrel::OpenJournal& j) {
  std::vector<std::int64_t> legacy_times;
  std::vector<const InputFile*> inputs;
  for (std::size_t i = 0; i < j.files.size(); ++i) {
    legacy_times.push_back(mtime_ms(j.files[i].path));
    inputs.push_back(j.inputs[i].get());
  }
  return [&state, legacy_times, inputs](FileWriter* w, std::string* error) {
    return kestrel::write_compacted(state, inputs, legacy_times, w, error);
  };
}

// What a queue holds after Kestrel's restart: its items and their bytes.
struct LiveItems {
  std::uint64_t items = 0, bytes = 0;
  bool operator==(const LiveItems&) const = default;
};

LiveItems live_items(const kestrel::ReplayState& state) {
  return LiveItems{state.queue().size() + state.open_transactions().size(), state.live_bytes()};
}

// The compacted queue read again from disk: its findings, and
// `result_differs` unless it holds what `before` held.
FindingList verify_compacted(const kestrel::OpenJournal& j, const LiveItems& before) {
  FindingList findings;
  kestrel::JournalSelection selection = kestrel::open_journals_and_report({j.directory}, j.queue, j.foreign, &findings);
  for (const auto& journal : selection.journals) {
    kestrel::ReplayState state(kestrel::ReplayOptions{}, &findings);
    kestrel::replay_journal(journal, &state);
    if (const LiveItems after = live_items(state); after != before) {
      findings.report(Finding{Severity::kError, "result_differs", j.directory, std::nullopt,
                              fmt::format("the compacted queue {} replays to {} item(s) ({} journal bytes); "
                                          "expected {} ({})",
                                          j.queue, after.items, after.bytes, before.items, before.bytes)});
    }
  }
  return findings;
}

// Kestrel's rewrite protocol (queue_rewrite.h) orders its own writes,
// backup and renames so that Kestrel's startup replays every state it
// leaves; guarded_replace guards it and places the backup it makes, then
// verifies that the queue still holds every item.
ExitCode compact_in_place(const kestrel::OpenJournal& j, const CompactOptions& o, const kestrel::ReplayState& state,
                          Report* r) {
  const kestrel::JournalContent content = compacted_content(state, j);
  const auto files = queue_files(j);
  ReplaceRequest request;
  request.lock_dirs = {j.directory};
  request.watched = files;
  request.owned = {(fs::path(j.directory) / j.queue).string()};  // the live journal the rewrite writes
  request.backup.name = j.queue;
  request.changes.push_back(FileChange::by_own_commit([&](const std::string& backup, std::string* error) {
    const kestrel::RewriteRequest rewrite{j.directory, j.queue, files, backup,
                                          kestrel::highest_segment_stamp(j.queue, files) + 1};
    return kestrel::rewrite_queue(rewrite, content, error);
  }));
  request.room = {SpaceNeed{j.directory, kestrel::compacted_size(state).bytes}};
  request.verify = [&j, before = live_items(state)] { return verify_compacted(j, before); };
  // The rewrite leaves one file, the queue's live journal: the copies put
  // back every file it replaced.
  request.restore = [&j, files](const std::string& backup) {
    return fmt::format("rm -f {} && {}", shell_word((fs::path(j.directory) / j.queue).string()),
                       copy_back_command(backup, files));
  };
  ReplaceResult result = guarded_replace(request, o.guard);
  if (result.changed()) report_outcome("compact", result);
  r->reason = result.reason;
  r->backup_dir = result.backup;
  r->verified = std::move(result.verified);
  r->action = result_action(result, "compacted");
  return result.status;
}

// Sets *acted unless the queue was skipped (nothing to gain).
ExitCode compact_one(const kestrel::OpenJournal& j, const CompactOptions& o, Output* out, bool* acted) {
  FindingList findings;
  kestrel::ReplayState state(kestrel::ReplayOptions{}, &findings);
  kestrel::replay_journal(j, &state);
  Report r{j.queue, "", "", j.files.size(), {}, kestrel::compacted_size(state), "", "", std::nullopt};
  for (std::size_t i = 0; i < j.files.size(); ++i) r.before.bytes += j.size_of(i);
  r.before.records = state.total_records();
  ExitCode status = ExitCode::kOk;
  if (state.saw_broken_record()) {
    r.action = "refused";
    r.reason =
        "the journal has a BROKEN record (see qjt verify); run qjt repair first, since "
        "compaction would drop the broken bytes";
    status = ExitCode::kProblems;
  } else if (auto reason = skip_reason(o, j, r); !reason.empty()) {
    r.action = "skipped";
    r.reason = reason;
  } else if (o.dry_run) {
    r.action = "dry_run";
  } else if (!o.output.empty()) {
    status = write_named_output({"compact", o.guard, o.drivers}, o.output, compacted_content(state, j));
    r.action = status == ExitCode::kOk ? "written" : status == ExitCode::kIoError ? "failed" : "refused";
    if (status != ExitCode::kOk) r.reason = fmt::format("{} was not written", o.output);
    r.output = o.output;
  } else {
    status = compact_in_place(j, o, state, &r);
  }
  if (r.action != "skipped") *acted = true;
  // cron: a gate's skips are quiet; with -o -, standard output holds the journal
  if ((r.action != "skipped" || o.json || !gated(o)) && o.output != "-") print_report(out, r, o.json);
  if (status != ExitCode::kOk) tell("compact", fmt::format("{}: {}", r.queue, r.reason));
  return status;
}

ExitCode check_usage(const CompactOptions& o, const kestrel::JournalSelection& selection) {
  if (!o.if_larger_than.empty() && !parse_byte_size(o.if_larger_than)) {
    return usage_error("compact",
                       fmt::format("--if-larger-than {}: expected a size like 4096, 64K, 1M, 2G", o.if_larger_than));
  }
  if (!o.output.empty()) {
    if (selection.journals.size() != 1) {
      return usage_error("compact", fmt::format("-o writes one journal: expected one queue (use --queue), found {}",
                                                selection.journals.size()));
    }
    if (o.output == "-" && o.json)
      return usage_error("compact", "-o - writes the journal to standard output, which leaves no room for --json");
    if (o.output == "-" && stdout_is_terminal())
      return usage_error("compact", "-o - would write a binary journal to the terminal; redirect it");
    if (auto refused = refuse_existing_outputs({"compact", o.guard, o.drivers}, {o.output})) return *refused;
    return ExitCode::kOk;
  }
  for (const auto& j : selection.journals) {
    if (j.directory.empty() && !o.dry_run) {
      return usage_error("compact",
                         "files named directly can only be compacted with -o PATH (or planned, without --apply); "
                         "give the queue directory to compact in place");
    }
  }
  return ExitCode::kOk;
}

ExitCode run_compact(const CompactOptions& o) {
  // The directories' findings wait for the outcome: a run whose every
  // queue is skipped (cron's --if-larger-than, --if-overflow) prints nothing.
  FindingList opened;
  kestrel::JournalSelection selection =
      kestrel::open_journals_and_report(o.paths, o.queue, other_families(o.drivers), &opened);
  StderrReporter diagnostics;
  const auto print_opened = [&] {
    for (const Finding& f : opened.findings()) diagnostics.report(f);
  };
  if (selection.status != ExitCode::kOk) {
    print_opened();
    return selection.status;
  }
  if (ExitCode usage = check_usage(o, selection); usage != ExitCode::kOk) return usage;
  Output out;
  ExitCode status = ExitCode::kOk;
  bool acted = false;
  for (const auto& journal : selection.journals) status = worse(status, compact_one(journal, o, &out, &acted));
  if (acted || status != ExitCode::kOk) print_opened();
  return finish_output(&out, status);
}

}  // namespace

void add_kestrel_compact_options(CLI::App* command, KestrelCompactOptions* o) {
  command->add_option("-o,--output", o->output,
                      "Write the compacted journal here (- for standard output); leave the source untouched");
  command->add_option("--if-larger-than", o->if_larger_than, "Only when the journal is larger than SIZE (e.g. 64M)");
  command->add_option("--if-overflow", o->if_overflow, "Only when journal bytes / live bytes is at least RATIO");
}

ExitCode run_kestrel_compact(const WriteRequest& r, const KestrelCompactOptions& o) {
  if (r.apply && !o.output.empty())
    return usage_error("compact", "--apply compacts the queue in place, -o writes it elsewhere: give one of them");
  // In place is planned unless --apply; -o writes a new file, planned only with --dry-run.
  const bool plan = r.dry_run || (o.output.empty() && !r.apply);
  return run_compact(CompactOptions{r.paths, r.queue, o.output, r.guard, plan, r.json, o.if_larger_than, o.if_overflow,
                                    r.if_reclaimable, r.drivers});
}

}  // namespace qjt::cli
