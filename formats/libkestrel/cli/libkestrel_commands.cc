#include "libkestrel/cli/libkestrel_commands.h"

#include <fmt/format.h>

#include "commands.h"
#include "json_line.h"
#include "libkestrel/cli/libkestrel_input.h"
#include "libkestrel/libkestrel_json.h"
#include "libkestrel/libkestrel_reader.h"
#include "output.h"

namespace qjt::app {
namespace {

using libkestrel::QueueReplay;

DataMode data_mode(const LibkestrelRun& run, bool json) {
  return *parse_data_mode(run.data.empty() ? (json ? "text" : "none") : run.data);
}

void report_all(const std::vector<Finding>& findings, Reporter* reporter) {
  for (const Finding& f : findings) reporter->report(f);
}

// Dumps one file; returns the records printed. Problems of the file itself
// (broken records, data after the end) go to `reporter`.
std::uint64_t dump_file(const LkFile& f, const LibkestrelRun& run, std::uint64_t budget, Output* out,
                        Reporter* reporter) {
  const DataMode mode = data_mode(run, run.json);
  libkestrel::Reader reader(f.input->bytes(), f.kind);
  libkestrel::Record record;
  std::uint64_t printed = 0;
  while (printed < budget && reader.next(&record)) {
    if (record.op == libkestrel::Op::kBroken)
      reporter->report(Finding{Severity::kError, "broken_record", f.path, record.offset, record.error});
    ++printed;
    if (run.json) {
      libkestrel::append_record_json(out->buffer(), f.path, record, mode);
    } else {
      libkestrel::append_record_text(out->buffer(), record, mode);
    }
    out->commit();
  }
  if (const auto garbage = reader.data_after_end()) {
    reporter->report(Finding{Severity::kWarning, "data_after_end", f.path, *garbage,
                             "non-zero byte after the end of data (a 0x00 command byte): libkestrel reads "
                             "nothing past the end"});
  }
  return printed;
}

void append_segments(std::string* out, const QueueReplay& replay) {
  out->push_back('[');
  for (const auto& s : replay.segments()) {
    if (out->back() != '[') out->push_back(',');
    JsonLine line(out);
    line.str("file", s.path);
    s.first_id ? line.num("first_id", *s.first_id) : line.null("first_id");
    s.last_id ? line.num("last_id", *s.last_id) : line.null("last_id");
    line.unsigned_num("items", s.items).unsigned_num("bytes", s.bytes).close();
  }
  out->push_back(']');
}

std::string ids_json(const std::vector<std::int64_t>& ids) {
  std::string out = "[";
  for (std::int64_t id : ids) out += (out.size() > 1 ? "," : "") + std::to_string(id);
  return out + "]";
}

void append_readers(Output* out, const QueueReplay& replay, DataMode mode) {
  std::string* buf = out->buffer();
  buf->push_back('[');
  for (const auto& reader : replay.readers()) {
    if (buf->back() != '[') buf->push_back(',');
    JsonLine line(buf);
    line.str("name", reader.name);
    reader.path.empty() ? line.null("file") : line.str("file", reader.path);
    line.num("head", reader.head).raw("done", ids_json(reader.done));
    buf->append(",\"pending\":[");
    bool first = true;
    replay.for_each_pending(reader, [&](const libkestrel::ItemRef& item) {
      if (!first) buf->push_back(',');
      first = false;
      libkestrel::append_record_object(buf, replay.segments()[item.segment].path, replay.item_record(item), mode);
      out->commit();
    });
    buf->append("]}");
  }
  buf->push_back(']');
}

void append_replay_json(Output* out, const LkQueue& q, const QueueReplay& replay, const FindingList& findings,
                        DataMode mode) {
  std::string* buf = out->buffer();
  JsonLine line(buf);
  line.str("queue_name", q.name).num("tail_id", replay.tail_id());
  buf->append(",\"readers\":");
  append_readers(out, replay, mode);
  std::string segments, array;
  append_segments(&segments, replay);
  append_findings_json(&array, findings.findings());
  line.raw("segments", segments).boolean("broken", replay.saw_broken_record()).raw("findings", array);
  line.finish();
  out->commit();
}

void append_replay_text(Output* out, const LkQueue& q, const QueueReplay& replay) {
  std::string text = fmt::format("queue {}: {} segment(s), {} item(s), tail id {}, {} reader(s)\n",
                                 q.name.empty() ? "(files)" : q.name, replay.segments().size(),
                                 replay.items().size(), replay.tail_id(), replay.readers().size());
  for (const auto& s : replay.segments()) {
    text += s.first_id ? fmt::format("  {}: ids {} to {}, {} item(s), {} bytes\n", s.path, *s.first_id,
                                     *s.last_id, s.items, s.bytes)
                       : fmt::format("  {}: no items, {} bytes\n", s.path, s.bytes);
  }
  for (const auto& r : replay.readers()) {
    std::uint64_t pending = 0, bytes = 0;
    replay.for_each_pending(r, [&](const libkestrel::ItemRef& item) {
      ++pending;
      bytes += replay.item_record(item).data.size();
    });
    text += fmt::format("  reader \"{}\"{}: head {}, {} done beyond it; {} item(s) to read, {} payload byte(s)\n",
                        r.name, r.path.empty() ? " (no bookmark: libkestrel creates it at the tail)" : "",
                        r.head, r.done.size(), pending, bytes);
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
  std::uint64_t budget = run.limit.value_or(UINT64_MAX);
  for (const auto& q : selection.queues) {
    report_all(q.layout_findings, &reporter);
    for (const auto& f : q.files) {
      if (!f.input || budget == 0) continue;
      if (!run.json && file_count > 1) out.write(fmt::format("# {}\n", f.path));
      budget -= dump_file(f, run, budget, &out, &reporter);
    }
  }
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
    run.json ? append_replay_json(&out, q, replayed.replay, replayed.findings, data_mode(run, true))
             : append_replay_text(&out, q, replayed.replay);
  }
  return finish_output(&out, worse(selection.status, broken ? ExitCode::kProblems : ExitCode::kOk));
}

}  // namespace qjt::app
