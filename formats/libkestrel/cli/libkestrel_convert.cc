// qjt convert between classic Kestrel and Kestrel 3 (libkestrel) queues,
// and from a Kestrel 3 queue or file to JSON Lines: exactly what
// `qjt dump --json INPUT` prints (one way: no --to reads them back).
// Every file is written through a "~~" temp file, fsynced and renamed; a
// classic journal and JSON Lines go to standard output with -o -.
#include <unistd.h>

#include <filesystem>

#include <fmt/format.h>

#include "clock.h"
#include "durable_file.h"
#include "interrupt.h"
#include "kestrel/journal_selection.h"
#include "libkestrel/cli/libkestrel_commands.h"
#include "libkestrel/cli/libkestrel_input.h"
#include "libkestrel/libkestrel_json.h"
#include "libkestrel/libkestrel_layout.h"
#include "libkestrel/queue_converter.h"
#include "line_input.h"
#include "named_output.h"
#include "path_family.h"
#include "path_name.h"
#include "payload.h"

namespace qjt::cli {
namespace {

namespace fs = std::filesystem;

ExitCode io_failure(const std::string& message) {
  tell("convert", message);
  return ExitCode::kIoError;
}

ExitCode findings_status(const FindingList& findings) {
  StderrReporter out;
  for (const Finding& f : findings.findings()) out.report(f);
  return findings.count(Severity::kError) > 0 ? ExitCode::kProblems : ExitCode::kOk;
}

// Refuses an output directory that already holds the queue.
bool queue_exists(const std::string& dir, const std::string& queue) {
  std::vector<libkestrel::QueueLayout> layouts;
  FindingList ignored;
  std::string error;
  if (!libkestrel::discover_queues(dir, &ignored, &layouts, &error)) return false;
  for (const auto& l : layouts)
    if (l.queue == queue) return true;
  return false;
}

// Both files are written to temp files first, then installed in one
// CommitSection, the reader's bookmark first: a crash before the segment
// leaves an empty queue whose reader is at the head, never items without
// their reader; an interrupt leaves both or neither (nor the directory,
// when the run made it). A file of either name already there is refused
// without --force, and backed up with it (named_output.h).
ExitCode write_queue(const LibkestrelConvert& run, const std::string& queue, const kestrel::ReplayState& state) {
  std::string error;
  if (queue_exists(run.output, queue))
    return usage_error("convert", fmt::format("{} already holds a Kestrel 3 queue named {}", run.output, queue));
  const std::string bookmark = (fs::path(run.output) / (queue + ".read." + run.reader)).string();
  const auto ms = now_ms();
  const std::string segment = (fs::path(run.output) / fmt::format("{}.{}", queue, ms)).string();
  const NamedOutput named{"convert", run.guard, run.drivers};
  if (auto refused = refuse_existing_outputs(named, {bookmark, segment})) return *refused;
  if (!make_directories(run.output, &error)) return io_failure(error);
  const std::string head = libkestrel::head_bookmark();
  std::vector<std::unique_ptr<ReplacementFile>> files;
  files.push_back(ReplacementFile::write(
      bookmark, Ownership::kNewOutput, [&](FileWriter* w, std::string* e) { return w->append(ByteSpan(head), e); },
      &error));
  if (files.back())
    files.push_back(ReplacementFile::write(
        segment, Ownership::kNewOutput,
        [&](FileWriter* w, std::string* e) { return libkestrel::write_segment(state, run.legacy_add_time_ms, w, e); },
        &error));
  if (!files.back()) return io_failure(error);
  return install_outputs(named, std::move(files));
}

ExitCode to_libkestrel(const LibkestrelConvert& run) {
  if (run.output == "-") return usage_error("convert", "--to libkestrel writes a queue directory: give it with -o DIR");
  StderrReporter reporter;
  kestrel::JournalSelection selection =
      kestrel::open_journals_and_report({run.input}, run.queue, not_of_family(run.drivers, "kestrel"), &reporter);
  if (selection.status != ExitCode::kOk) return selection.status;
  if (selection.journals.size() != 1)
    return usage_error(
        "convert", fmt::format("{} holds {} queues: choose one with --queue", run.input, selection.journals.size()));
  const kestrel::OpenJournal& journal = selection.journals.front();
  const std::string name = base_name(run.input);
  const std::string queue = journal.directory.empty() ? name.substr(0, name.find('.')) : journal.queue;
  FindingList findings;
  kestrel::ReplayState state(kestrel::ReplayOptions{}, &findings);
  kestrel::replay_journal(journal, &state);
  const ExitCode found = findings_status(findings);
  return worse(found, write_queue(run, queue, state));
}

const libkestrel::ReaderState* choose_reader(const libkestrel::QueueReplay& replay, const std::string& name,
                                             std::string* problem) {
  const auto& readers = replay.readers();
  if (name.empty() && readers.size() == 1) return &readers.front();
  for (const auto& r : readers)
    if (!name.empty() && r.name == name) return &r;
  std::string names;
  for (const auto& r : readers) names += (names.empty() ? "" : ", ") + fmt::format("\"{}\"", r.name);
  *problem = name.empty() ? fmt::format("the queue has several readers ({}): choose one with --reader", names)
                          : fmt::format("no reader named {} (readers: {})", name, names);
  return nullptr;
}

ExitCode to_classic(const LibkestrelConvert& run) {
  if (run.input_family != "libkestrel")
    return usage_error("convert", fmt::format("{} is not a Kestrel 3 (libkestrel) queue", run.input));
  StderrReporter reporter;
  LkSelection selection = open_libkestrel({run.input}, run.queue, &reporter);
  if (selection.status != ExitCode::kOk) return selection.status;
  if (selection.queues.size() != 1)
    return usage_error("convert",
                       fmt::format("{} holds {} queues: choose one with --queue", run.input, selection.queues.size()));
  const ReplayedQueue replayed(selection.queues.front());
  const libkestrel::QueueReplay& replay = replayed.replay;
  std::string problem;
  const auto* reader = choose_reader(replay, run.reader, &problem);
  if (!reader) return usage_error("convert", problem);
  const ExitCode found = findings_status(replayed.findings);
  const FileContent content = [&](FileWriter* w, std::string* e) {
    return libkestrel::write_classic(replay, *reader, w, e);
  };
  return worse(found, write_named_output({"convert", run.guard, run.drivers}, run.output, content));
}

// The records of every file of the queue (or of the files) INPUT names, in
// dump's order, written as they are read.
ExitCode to_jsonl(const LibkestrelConvert& run) {
  if (run.input_family != "libkestrel")
    return usage_error("convert", fmt::format("{} is not a Kestrel 3 (libkestrel) queue", run.input));
  StderrReporter reporter;
  const LkSelection selection = open_libkestrel({run.input}, run.queue, &reporter);
  if (selection.status != ExitCode::kOk) return selection.status;
  const DataMode mode = *parse_data_mode(run.data.empty() ? "text" : run.data);
  const FileContent content = [&](FileWriter* w, std::string* error) {
    std::string lines;
    bool written = true;
    for (const LkQueue& q : selection.queues) {
      for (const Finding& f : q.layout_findings) reporter.report(f);
      for (const LkFile& f : q.files) {
        if (!f.input) continue;
        read_records(f, &reporter, [&](const libkestrel::Record& record) {
          libkestrel::append_record_json(&lines, f.path, record, mode);
          if (lines.size() < LineInput::kChunk) return true;
          written = w->append(ByteSpan(lines), error);
          lines.clear();
          return written;
        });
        if (!written) return false;
      }
    }
    return w->append(ByteSpan(lines), error);
  };
  const ExitCode status = write_named_output({"convert", run.guard, run.drivers}, run.output, content);
  return worse(status, reporter.errors() > 0 ? ExitCode::kProblems : ExitCode::kOk);
}

}  // namespace

ExitCode run_libkestrel_convert(const LibkestrelConvert& run) {
  if (run.to == "jsonl") return to_jsonl(run);
  return run.to == "libkestrel" ? to_libkestrel(run) : to_classic(run);
}

}  // namespace qjt::cli
