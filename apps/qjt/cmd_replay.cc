// qjt replay: the queue as Kestrel 2.x rebuilds it at startup, with the
// hazards it would hit; a text summary or one JSON object per queue.
#include <fmt/format.h>

#include "canal_commands.h"
#include "commands.h"
#include "flume_commands.h"
#include "journal_json.h"
#include "json_line.h"
#include "kestrel_input.h"
#include "libkestrel_commands.h"
#include "output.h"
#include "path_family.h"

namespace qjt::app {
namespace {

struct ReplayCommandOptions {
  std::vector<std::string> paths;
  std::string queue;
  bool json = false;
  std::string data = "text";
  bool legacy_xids = false;
  FlumeOptions flume;
  CanalOptions canal;
};

struct ReplayResult {
  const OpenJournal* journal;
  std::vector<std::uint64_t> records;
  std::uint64_t journal_bytes = 0;
};

template <typename Items, typename Render>
void append_array(std::string* out, const Items& items, Render render) {
  out->push_back('[');
  bool first = true;
  for (const auto& item : items) {
    if (!first) out->push_back(',');
    first = false;
    render(item);
  }
  out->push_back(']');
}

void append_json(Output* out, const ReplayResult& r, const kestrel::ReplayState& state,
                 const std::vector<Finding>& findings, DataMode mode) {
  const auto& files = r.journal->files;
  std::string* buf = out->buffer();
  auto item = [&](const kestrel::QueuedItem& i, std::optional<std::int32_t> xid) {
    kestrel::append_item_json(buf, files[i.file_index].path, state.item_record(i), mode, xid);
    out->commit();
  };
  JsonLine line(buf);
  line.str("queue_name", r.journal->queue);
  std::string file_array;
  append_array(&file_array, files, [&](const kestrel::JournalFile& f) {
    const auto index = static_cast<std::size_t>(&f - files.data());
    JsonLine(&file_array).str("path", f.path).str("role", kestrel::file_role_name(f.role))
        .unsigned_num("size", f.size).unsigned_num("records", r.records[index]).close();
  });
  line.raw("files", file_array);
  buf->append(",\"queue\":");
  append_array(buf, state.queue(), [&](const kestrel::QueuedItem& i) { item(i, std::nullopt); });
  buf->append(",\"open_transactions\":");
  append_array(buf, state.open_transactions(), [&](const auto& entry) { item(entry.second, entry.first); });
  buf->append(",\"after_restart\":");
  append_array(buf, state.after_restart(), [&](const kestrel::QueuedItem& i) { item(i, std::nullopt); });
  line.num("xid_counter", state.xid_counter())
      .unsigned_num("journal_bytes", r.journal_bytes)
      .unsigned_num("live_bytes", state.live_bytes())
      .boolean("broken", state.saw_broken_record());
  std::string finding_array;
  append_findings_json(&finding_array, findings);
  line.raw("findings", finding_array);
  line.finish();
  out->commit();
}

std::uint64_t payload_bytes(const ChunkedDeque<kestrel::QueuedItem>& items) {
  std::uint64_t total = 0;
  for (const auto& i : items) total += i.payload_size;
  return total;
}

void append_text(Output* out, const ReplayResult& r, const kestrel::ReplayState& state) {
  std::string text = fmt::format("queue {}: {} item(s), {} payload byte(s); {} open transaction(s); "
                                 "{} item(s) after restart\n",
                                 r.journal->queue, state.queue().size(), payload_bytes(state.queue()),
                                 state.open_transactions().size(),
                                 state.queue().size() + state.open_transactions().size());
  for (std::size_t i = 0; i < r.journal->files.size(); ++i) {
    const auto& f = r.journal->files[i];
    text += fmt::format("  {} ({}, {} bytes, {} records)\n", f.path, kestrel::file_role_name(f.role),
                        f.size, r.records[i]);
  }
  const std::uint64_t live = state.live_bytes();
  text += fmt::format("  xid counter {}; journal {} bytes, live {} bytes", state.xid_counter(),
                      r.journal_bytes, live);
  if (live > 0) text += fmt::format(" (overflow {:.2f}x)", static_cast<double>(r.journal_bytes) / static_cast<double>(live));
  text += state.saw_broken_record() ? "; BROKEN records found\n" : "\n";
  out->write(text);
}

ExitCode run_replay_family(const ReplayCommandOptions& o) {
  if (auto canal = run_if_canal(CanalRun{o.paths, o.flume.format, o.json, false, false, o.canal}, run_canal_replay)) return *canal;
  if (auto flume = run_if_flume(FlumeRun{o.paths, o.flume, o.json, o.data, std::nullopt, false, false, false}, run_flume_replay)) return *flume;
  if (auto status = run_if_libkestrel({.paths = o.paths, .queue = o.queue, .json = o.json, .data = o.data, .classic_only = o.legacy_xids, .format = o.flume.format}, run_libkestrel_replay)) return *status;
  const DataMode mode = *parse_data_mode(o.data);
  StderrReporter diagnostics;
  JournalSelection selection = open_journals(o.paths, o.queue, &diagnostics);
  Output out;
  bool broken = false;
  for (const auto& journal : selection.journals) {
    FindingList findings;
    for (const Finding& f : journal.layout_findings) findings.report(f);
    kestrel::ReplayState state(kestrel::ReplayOptions{o.legacy_xids}, &findings);
    ReplayResult result{&journal, replay_journal(journal, &state), 0};
    for (const auto& f : journal.files) result.journal_bytes += f.size;
    broken = broken || state.saw_broken_record();
    if (o.json) {
      append_json(&out, result, state, findings.findings(), mode);
    } else {
      for (const Finding& f : findings.findings()) diagnostics.report(f);
      append_text(&out, result, state);
    }
  }
  return finish_output(&out, worse(selection.status, broken ? ExitCode::kProblems : ExitCode::kOk));
}

// Unless an option picks the family, each PATH goes to the family that
// claims it (path_family.h), whatever the order.
ExitCode run_replay(const ReplayCommandOptions& o) {
  if (o.flume.format != "auto" || names_channel(o.flume) || !o.canal.at.empty() || o.paths.empty())
    return run_replay_family(o);
  return for_each_family(o.paths, [&o](const std::vector<std::string>& paths) {
    ReplayCommandOptions group = o;
    group.paths = paths;
    return run_replay_family(group);
  });
}

}  // namespace

void add_replay_command(CLI::App* app, ExitCode* status) {
  auto o = std::make_shared<ReplayCommandOptions>();
  auto* command = app->add_subcommand("replay", "Rebuild the queue as its owner's startup would (Kestrel, Kestrel 3, Flume; a Canal meta.log's history)");
  add_journal_selection(command, &o->paths, &o->queue, false);
  command->add_flag("--json", o->json, "One JSON object per queue");
  add_data_option(command, &o->data);
  command->add_flag("--legacy-xids", o->legacy_xids,
                    "Give legacy REMOVE_TENTATIVE records xids by Kestrel 1.x rules");
  add_flume_options(command, &o->flume, true);
  add_canal_replay_options(command, &o->canal);
  command->callback([o, status] { *status = run_replay(*o); });
}

}  // namespace qjt::app
