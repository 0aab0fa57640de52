#include "kestrel/cli/kestrel_commands.h"

#include <algorithm>
#include <cctype>
#include <set>

#include <fmt/format.h>

#include "clock.h"
#include "json_line.h"
#include "kestrel/cli/kestrel_hints.h"
#include "kestrel/journal_json.h"
#include "kestrel/journal_reader.h"
#include "kestrel/journal_selection.h"
#include "kestrel/kestrel_stats.h"
#include "output.h"
#include "path_family.h"

namespace qjt::cli {
namespace {

// The time --since/--until compare: none for the legacy ADD, which stores
// no add time, and for records that add nothing.
std::optional<std::int64_t> add_time(const kestrel::JournalRecord& r) {
  return r.has_add_time ? std::optional(r.add_time_ms) : std::nullopt;
}

// Whether `r` passes dump's filters.
bool accepts(const ReadFilter& filter, const kestrel::JournalRecord& r) {
  if (!filter.offset_in(r.offset) || !filter.op_in(kestrel::record_type_name(r.type))) return false;
  if (filter.xid && !(kestrel::carries_xid(r.type) && filter.xid_is(r.xid))) return false;
  return filter.time_passes(add_time(r));
}

struct ReplayResult {
  const kestrel::OpenJournal* journal;
  std::vector<std::uint64_t> records;
  std::uint64_t journal_bytes = 0;
};

// The items within --since/--until; "time_filter" counts those after restart.
void append_json(Output* out, const ReplayResult& r, const kestrel::ReplayState& state,
                 const std::vector<Finding>& findings, DataMode mode, const ReadFilter& filter) {
  const auto& files = r.journal->files;
  // The writer only appends, so the buffer can be flushed between items.
  JsonLine line(out->buffer(), JsonType::kReport);
  TimeRangeCount queued(filter), open(filter), after_restart(filter);
  auto item = [&](const kestrel::QueuedItem& i, std::optional<std::int32_t> xid, TimeRangeCount* count) {
    const kestrel::JournalRecord record = state.item_record(i);
    if (!count->show(add_time(record))) return;
    kestrel::write_item_json(&line, files[i.file_index].path, record, mode, xid);
    out->commit();
  };
  line.str("queue_name", r.journal->queue).begin_array("files");
  for (std::size_t index = 0; index < files.size(); ++index) {
    const kestrel::JournalFile& f = files[index];
    line.begin_object()
        .str("path", f.path)
        .str("role", kestrel::file_role_name(f.role))
        .unsigned_num("size", r.journal->size_of(index))
        .unsigned_num("records", r.records[index])
        .end_object();
  }
  line.end_array().begin_array("queue");
  for (const kestrel::QueuedItem& i : state.queue()) item(i, std::nullopt, &queued);
  line.end_array().begin_array("open_transactions");
  for (const auto& [xid, i] : state.open_transactions()) item(i, xid, &open);
  line.end_array().begin_array("after_restart");
  for (const kestrel::QueuedItem& i : state.after_restart()) item(i, std::nullopt, &after_restart);
  line.end_array();
  line.num("xid_counter", state.xid_counter())
      .unsigned_num("journal_bytes", r.journal_bytes)
      .unsigned_num("live_bytes", state.live_bytes())
      .boolean("broken", state.saw_broken_record());
  write_findings_json(&line.key("findings"), findings);
  after_restart.write_json(&line);
  line.finish();
  out->commit();
}

std::uint64_t payload_bytes(const ChunkedDeque<kestrel::QueuedItem>& items) {
  std::uint64_t total = 0;
  for (const auto& i : items) total += i.payload_size;
  return total;
}

void append_text(Output* out, const ReplayResult& r, const kestrel::ReplayState& state, const ReadFilter& filter) {
  std::string text = fmt::format(
      "queue {}: {} item(s), {} payload byte(s); {} open transaction(s); "
      "{} item(s) after restart\n",
      r.journal->queue, state.queue().size(), payload_bytes(state.queue()), state.open_transactions().size(),
      state.queue().size() + state.open_transactions().size());
  for (std::size_t i = 0; i < r.journal->files.size(); ++i) {
    const auto& f = r.journal->files[i];
    text += fmt::format("  {} ({}, {} bytes, {} records)\n", f.path, kestrel::file_role_name(f.role),
                        r.journal->size_of(i), r.records[i]);
  }
  const std::uint64_t live = state.live_bytes();
  text += fmt::format("  xid counter {}; journal {} bytes, live {} bytes", state.xid_counter(), r.journal_bytes, live);
  if (live > 0)
    text += fmt::format(" (overflow {:.2f}x)", static_cast<double>(r.journal_bytes) / static_cast<double>(live));
  text += state.saw_broken_record() ? "; BROKEN records found\n" : "\n";
  TimeRangeCount after_restart(filter);
  if (filter.selects_time())
    for (const kestrel::QueuedItem& i : state.after_restart()) after_restart.show(add_time(state.item_record(i)));
  text += after_restart.text("  ", "item(s) after restart");
  out->write(text);
}

}  // namespace

kestrel::ForeignFile other_families(Registry drivers) { return not_of_family(drivers, "kestrel"); }

ExitCode run_kestrel_dump(const ReadRequest& r) {
  // Text output shows payloads only when asked; JSON shows them by default.
  const DataMode mode = *parse_data_mode(r.data.empty() ? (r.json ? "text" : "none") : r.data);

  StderrReporter diagnostics;
  HintingReporter reporter(kestrel_hint, &diagnostics);
  kestrel::JournalSelection selection =
      kestrel::open_journals_and_report(r.paths, r.queue, other_families(r.drivers), &reporter);
  std::size_t file_count = 0;
  for (const auto& j : selection.journals) file_count += j.files.size();

  Output out;
  bool broken = false;
  std::uint64_t printed = 0;
  // --limit stops all reading once reached, so nothing past it is decoded.
  auto limit_reached = [&] { return r.limit && printed == *r.limit; };
  for (const auto& journal : selection.journals) {
    for (std::size_t i = 0; i < journal.files.size() && !limit_reached(); ++i) {
      const InputFile* input = journal.inputs[i].get();
      if (input == nullptr) continue;
      const std::string& file = journal.files[i].path;
      if (!r.json && file_count > 1) out.write(fmt::format("# {}\n", file));
      // Each record is printed as it is read: a stream is never held.
      kestrel::JournalReader reader(*input, ReadWindow::Lookback::kNone);
      reader.set_broken_tail(r.json);  // JSON carries the broken tail (qjt-json(5))
      kestrel::JournalRecord record;
      while (!limit_reached() && r.filter.before_end(record.offset) && reader.next(&record)) {
        if (record.type == kestrel::RecordType::kBroken) {
          broken = true;
          reporter.report(Finding{Severity::kError, "broken_record", file, record.offset, record.error});
        }
        if (!accepts(r.filter, record)) continue;
        ++printed;
        if (r.json) {
          kestrel::append_record_json(out.buffer(), file, record, mode);
        } else {
          kestrel::append_record_text(out.buffer(), record, mode);
        }
        out.commit();
      }
    }
  }
  if (r.printed != nullptr) *r.printed += printed;
  return finish_output(&out, worse(selection.status, broken ? ExitCode::kProblems : ExitCode::kOk));
}

VerifyTally check_kestrel(const ReadRequest& r, const KestrelOptions& o) {
  VerifyTally tally;
  kestrel::JournalSelection selection =
      kestrel::open_journals_and_report(r.paths, r.queue, other_families(r.drivers), &tally.findings);
  tally.status = selection.status;
  for (const auto& journal : selection.journals) {
    kestrel::ReplayState state(kestrel::ReplayOptions{o.legacy_xids}, &tally.findings);
    for (std::uint64_t n : kestrel::check_journal(journal, &state)) tally.records += n;
    tally.files += journal.files.size();
  }
  return tally;
}

ExitCode run_kestrel_replay(const ReadRequest& r, const KestrelOptions& o) {
  const DataMode mode = *parse_data_mode(r.data.empty() ? "text" : r.data);
  StderrReporter diagnostics;
  kestrel::JournalSelection selection =
      kestrel::open_journals(r.paths, r.queue, other_families(r.drivers), &diagnostics);
  Output out;
  bool broken = false;
  for (const auto& journal : selection.journals) {
    FindingList findings;
    for (const Finding& f : journal.layout_findings) findings.report(f);
    kestrel::ReplayState state(kestrel::ReplayOptions{o.legacy_xids}, &findings);
    ReplayResult result{&journal, kestrel::replay_journal(journal, &state), 0};
    for (std::size_t i = 0; i < journal.files.size(); ++i) result.journal_bytes += journal.size_of(i);
    broken = broken || state.saw_broken_record();
    if (r.json) {
      append_json(&out, result, state, findings.findings(), mode, r.filter);
    } else {
      for (const Finding& f : findings.findings()) diagnostics.report(f);
      append_text(&out, result, state, r.filter);
    }
  }
  return finish_output(&out, worse(selection.status, broken ? ExitCode::kProblems : ExitCode::kOk));
}

ExitCode run_kestrel_stats(const ReadRequest& r, const KestrelOptions& o, StatsModel* model, Reporter* findings) {
  kestrel::JournalSelection selection = kestrel::open_journals(r.paths, r.queue, other_families(r.drivers), findings);
  const std::int64_t now = now_ms();
  for (const auto& journal : selection.journals) {
    for (const Finding& f : journal.layout_findings) findings->report(f);
    kestrel::add_queue_stats(journal, kestrel::ReplayOptions{o.legacy_xids}, now, findings, model);
  }
  return selection.status;
}

}  // namespace qjt::cli
