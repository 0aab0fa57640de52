// qjt dump: every record of every file, one line each (text or JSON Lines).
#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "canal_commands.h"
#include "commands.h"
#include "flume_commands.h"
#include "journal_json.h"
#include "journal_reader.h"
#include "kestrel_input.h"
#include "libkestrel_commands.h"
#include "output.h"
#include "path_family.h"

namespace qjt::app {
namespace {

struct DumpOptions {
  std::vector<std::string> paths;
  std::string queue;
  bool json = false;
  std::string data;
  std::vector<std::string> ops;
  std::optional<std::int32_t> xid;
  std::uint64_t from_offset = 0;
  std::optional<std::uint64_t> limit;
  FlumeOptions flume;
};

struct RecordFilter {
  std::set<kestrel::RecordType> types;  // empty: all
  std::optional<std::int32_t> xid;
  std::uint64_t from_offset = 0;

  bool accepts(const kestrel::JournalRecord& r) const {
    if (r.offset < from_offset) return false;
    if (!types.empty() && types.count(r.type) == 0) return false;
    return !xid || (kestrel::carries_xid(r.type) && r.xid == *xid);
  }
};

std::optional<RecordFilter> make_filter(const DumpOptions& o) {
  RecordFilter filter{{}, o.xid, o.from_offset};
  for (std::string name : o.ops) {
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    const auto type = kestrel::parse_record_type(name);
    if (!type) {
      fmt::print(stderr, "qjt dump: unknown --op {}: expected one of ADD, REMOVE, ADDX, "
                         "REMOVE_TENTATIVE, SAVE_XID, UNREMOVE, CONFIRM_REMOVE, ADD_XID, CONTINUE, "
                         "REMOVE_TENTATIVE_XID, END_OF_FILE, BROKEN\n", name);
      return std::nullopt;
    }
    filter.types.insert(*type);
  }
  return filter;
}

ExitCode run_dump_family(const DumpOptions& o) {
  const bool filters = !o.ops.empty() || o.xid || o.from_offset != 0;
  FlumeRun flume{o.paths, o.flume, o.json, o.data, o.limit, false, false, filters};
  if (auto status = run_if_canal(CanalRun{o.paths, o.flume.format, o.json, false, false, {}}, run_canal_dump)) return *status;
  if (auto status = run_if_flume(flume, run_flume_dump)) return *status;
  if (auto status = run_if_libkestrel({.paths = o.paths, .queue = o.queue, .json = o.json, .data = o.data, .limit = o.limit, .classic_only = filters, .format = o.flume.format}, run_libkestrel_dump)) return *status;
  const auto filter = make_filter(o);
  if (!filter) return ExitCode::kUsage;
  // Text output shows payloads only when asked; JSON shows them by default.
  const DataMode mode = *parse_data_mode(o.data.empty() ? (o.json ? "text" : "none") : o.data);

  StderrReporter reporter;
  JournalSelection selection = open_journals_and_report(o.paths, o.queue, &reporter);
  std::size_t file_count = 0;
  for (const auto& j : selection.journals) file_count += j.files.size();

  Output out;
  bool broken = false;
  std::uint64_t printed = 0;
  // --limit stops all reading once reached, so nothing past it is decoded.
  auto limit_reached = [&] { return o.limit && printed == *o.limit; };
  for (const auto& journal : selection.journals) {
    for (std::size_t i = 0; i < journal.files.size() && !limit_reached(); ++i) {
      const InputFile* input = journal.inputs[i].get();
      if (input == nullptr) continue;
      const std::string& file = journal.files[i].path;
      if (!o.json && file_count > 1) out.write(fmt::format("# {}\n", file));
      kestrel::JournalReader reader(*input);
      kestrel::JournalRecord record;
      while (!limit_reached() && reader.next(&record)) {
        if (record.type == kestrel::RecordType::kBroken) {
          broken = true;
          reporter.report(Finding{Severity::kError, "broken_record", file, record.offset, record.error});
        }
        if (!filter->accepts(record)) continue;
        ++printed;
        if (o.json) {
          kestrel::append_record_json(out.buffer(), file, record, mode);
        } else {
          kestrel::append_record_text(out.buffer(), record, mode);
        }
        out.commit();
      }
    }
  }
  return finish_output(&out, worse(selection.status, broken ? ExitCode::kProblems : ExitCode::kOk));
}

// Unless an option picks the family, each PATH goes to the family that
// claims it (path_family.h), whatever the order.
ExitCode run_dump(const DumpOptions& o) {
  if (o.flume.format != "auto" || names_channel(o.flume) || o.paths.empty()) return run_dump_family(o);
  return for_each_family(o.paths, [&o](const std::vector<std::string>& paths) {
    DumpOptions group = o;
    group.paths = paths;
    return run_dump_family(group);
  });
}

}  // namespace

void add_dump_command(CLI::App* app, ExitCode* status) {
  auto o = std::make_shared<DumpOptions>();
  auto* command = app->add_subcommand("dump", "Decode every record, one line each");
  add_journal_selection(command, &o->paths, &o->queue, false);
  command->add_flag("--json", o->json, "JSON Lines, one object per record");
  add_data_option(command, &o->data);
  command->add_option("--op", o->ops, "Only records of this type (repeatable)")
      ->delimiter(',')
      ->allow_extra_args(false);  // PATH is optional: a name after --op X is a PATH
  command->add_option("--xid", o->xid, "Only records carrying this xid");
  command->add_option("--from-offset", o->from_offset, "Only records at or after this byte offset");
  command->add_option("--limit", o->limit, "Print at most this many records");
  add_flume_options(command, &o->flume, false);
  command->callback([o, status] { *status = run_dump(*o); });
}

}  // namespace qjt::app
