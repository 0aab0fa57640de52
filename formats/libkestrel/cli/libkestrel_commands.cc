#include "libkestrel/cli/libkestrel_commands.h"

#include <fmt/format.h>

#include "command_support.h"
#include "json_line.h"
#include "libkestrel/cli/libkestrel_input.h"
#include "libkestrel/libkestrel_json.h"
#include "output.h"

namespace qjt::cli {
namespace {

using libkestrel::QueueReplay;

DataMode data_mode(const LibkestrelRun& run, bool json) {
  return *parse_data_mode(run.data.empty() ? (json ? "text" : "none") : run.data);
}

void report_all(const std::vector<Finding>& findings, Reporter* reporter) {
  for (const Finding& f : findings) reporter->report(f);
}

// The time --since/--until compare: only a PUT has one.
std::optional<std::int64_t> add_time(const libkestrel::Record& record) {
  return record.op == libkestrel::Op::kPut ? std::optional(record.add_time_ms) : std::nullopt;
}

// Whether `record` passes dump's filters.
bool accepts(const ReadFilter& filter, const libkestrel::Record& record) {
  if (!filter.offset_in(record.offset) || !filter.op_in(libkestrel::op_name(record.op))) return false;
  return filter.time_passes(add_time(record));
}

// Dumps one file; returns the records printed. Problems of the file itself
// (broken records, data after the end) go to `reporter`.
std::uint64_t dump_file(const LkFile& f, const LibkestrelRun& run, std::uint64_t budget, Output* out,
                        Reporter* reporter) {
  const DataMode mode = data_mode(run, run.json);
  std::uint64_t printed = 0;
  read_records(f, reporter, [&](const libkestrel::Record& record) {
    if (accepts(run.filter, record)) {
      ++printed;
      run.json ? libkestrel::append_record_json(out->buffer(), f.path, record, mode)
               : libkestrel::append_record_text(out->buffer(), record, mode);
      out->commit();
    }
    return printed < budget && run.filter.before_end(record.offset);
  });
  return printed;
}

void write_segments(JsonWriter* json, const QueueReplay& replay) {
  json->begin_array();
  for (const auto& s : replay.segments()) {
    json->begin_object().str("file", s.path);
    s.first_id ? json->num("first_id", *s.first_id) : json->null("first_id");
    s.last_id ? json->num("last_id", *s.last_id) : json->null("last_id");
    json->unsigned_num("items", s.items).unsigned_num("bytes", s.bytes).end_object();
  }
  json->end_array();
}

// The writer only appends, so the buffer can be flushed between items.
// Each reader's pending items within --since/--until, and their count.
void write_readers(JsonWriter* json, Output* out, const QueueReplay& replay, DataMode mode, const ReadFilter& filter) {
  json->begin_array();
  for (const auto& reader : replay.readers()) {
    json->begin_object().str("name", reader.name);
    reader.path.empty() ? json->null("file") : json->str("file", reader.path);
    json->num("head", reader.head).begin_array("done");
    for (std::int64_t id : reader.done) json->number(id);
    json->end_array().begin_array("pending");
    TimeRangeCount pending(filter);
    replay.for_each_pending(reader, [&](const libkestrel::ItemRef& item) {
      const libkestrel::Record record = replay.item_record(item);
      if (!pending.show(add_time(record))) return;
      libkestrel::write_record_object(json, replay.segments()[item.segment].path, record, mode);
      out->commit();
    });
    json->end_array();
    pending.write_json(json);
    json->end_object();
  }
  json->end_array();
}

void append_replay_json(Output* out, const LkQueue& q, const QueueReplay& replay, const FindingList& findings,
                        DataMode mode, const ReadFilter& filter) {
  JsonLine line(out->buffer(), JsonType::kReport);
  line.str("queue_name", q.name).num("tail_id", replay.tail_id()).key("readers");
  write_readers(&line, out, replay, mode, filter);
  write_segments(&line.key("segments"), replay);
  line.boolean("broken", replay.saw_broken_record()).key("findings");
  write_findings_json(&line, findings.findings());
  line.finish();
  out->commit();
}

void append_replay_text(Output* out, const LkQueue& q, const QueueReplay& replay, const ReadFilter& filter) {
  std::string text = fmt::format("queue {}: {} segment(s), {} item(s), tail id {}, {} reader(s)\n",
                                 q.name.empty() ? "(files)" : q.name, replay.segments().size(), replay.items().size(),
                                 replay.tail_id(), replay.readers().size());
  for (const auto& s : replay.segments()) {
    text += s.first_id ? fmt::format("  {}: ids {} to {}, {} item(s), {} bytes\n", s.path, *s.first_id, *s.last_id,
                                     s.items, s.bytes)
                       : fmt::format("  {}: no items, {} bytes\n", s.path, s.bytes);
  }
  for (const auto& r : replay.readers()) {
    std::uint64_t pending = 0, bytes = 0;
    TimeRangeCount within(filter);
    replay.for_each_pending(r, [&](const libkestrel::ItemRef& item) {
      const libkestrel::Record record = replay.item_record(item);
      ++pending;
      bytes += record.data.size();
      within.show(add_time(record));
    });
    text += fmt::format("  reader \"{}\"{}: head {}, {} done beyond it; {} item(s) to read, {} payload byte(s)\n",
                        r.name, r.path.empty() ? " (no bookmark: libkestrel creates it at the tail)" : "", r.head,
                        r.done.size(), pending, bytes);
    text += within.text("    ", "item(s) to read");
  }
  text += replay.saw_broken_record() ? "  BROKEN records found\n" : "";
  out->write(text);
}

}  // namespace

ExitCode run_libkestrel_dump(const LibkestrelRun& run) {
  StderrReporter reporter;
  LkSelection selection = open_libkestrel(run.paths, run.queue, &reporter);
  std::size_t file_count = 0;
  for (const auto& q : selection.queues) file_count += q.files.size();
  Output out;
  const std::uint64_t limit = run.limit.value_or(UINT64_MAX);
  std::uint64_t budget = limit;
  for (const auto& q : selection.queues) {
    report_all(q.layout_findings, &reporter);
    for (const auto& f : q.files) {
      if (!f.input || budget == 0) continue;
      if (!run.json && file_count > 1) out.write(fmt::format("# {}\n", f.path));
      budget -= dump_file(f, run, budget, &out, &reporter);
    }
  }
  if (run.printed != nullptr) *run.printed += limit - budget;
  return finish_output(&out, worse(selection.status, reporter.errors() > 0 ? ExitCode::kProblems : ExitCode::kOk));
}

VerifyTally check_libkestrel(const LibkestrelRun& run) {
  VerifyTally tally;
  LkSelection selection = open_libkestrel(run.paths, run.queue, &tally.findings);
  tally.status = selection.status;
  for (const auto& q : selection.queues) {
    const ReplayedQueue replayed(q);
    report_all(replayed.findings.findings(), &tally.findings);
    tally.files += q.files.size();
    tally.records += replayed.replay.records();
  }
  return tally;
}

ExitCode run_libkestrel_replay(const LibkestrelRun& run) {
  StderrReporter diagnostics;
  LkSelection selection = open_libkestrel(run.paths, run.queue, &diagnostics);
  Output out;
  bool broken = false;
  for (const auto& q : selection.queues) {
    const ReplayedQueue replayed(q);
    broken = broken || replayed.replay.saw_broken_record();
    if (!run.json) report_all(replayed.findings.findings(), &diagnostics);
    run.json ? append_replay_json(&out, q, replayed.replay, replayed.findings, data_mode(run, true), run.filter)
             : append_replay_text(&out, q, replayed.replay, run.filter);
  }
  return finish_output(&out, worse(selection.status, broken ? ExitCode::kProblems : ExitCode::kOk));
}

}  // namespace qjt::cli
