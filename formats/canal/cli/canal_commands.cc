#include "canal/cli/canal_commands.h"

#include <iterator>
#include <map>

#include <fmt/format.h>

#include "canal/binlog_list.h"
#include "canal/canal_stats.h"
#include "canal/cli/canal_cursor_output.h"
#include "canal/cli/canal_destination_checks.h"
#include "canal/cli/canal_hints.h"
#include "canal/cli/canal_input.h"
#include "canal/cli/canal_zk.h"
#include "canal/restart_cursor.h"
#include "canal/store_metrics.h"
#include "clock.h"
#include "command_support.h"
#include "json_line.h"
#include "output.h"
#include "record_format.h"
#include "time_value.h"

namespace qjt::cli {
namespace {

using canal::Cursor;
using canal::FileKind;

void append_meta_dat_json(std::string* out, const std::string& path, const canal::MetaDat& meta,
                          const std::optional<canal::RestartCursor>& restart) {
  JsonLine line(out, JsonType::kRecord);
  line.envelope(record_format::kCanal, path).str("destination", meta.destination).begin_array("clients");
  for (const auto& c : meta.clients) {
    line.begin_object().num("client_id", c.client_id).str("destination", c.destination);
    optional_str(&line, "filter", c.filter);
    if (c.cursor) {
      line.begin_object("cursor");
      cursor_fields(&line, *c.cursor);
      line.end_object();
    } else {
      line.null("cursor");
    }
    line.end_object();
  }
  line.end_array();
  if (restart) {
    line.begin_object("restart_cursor").num("client_id", restart->client_id);
    cursor_fields(&line, restart->cursor);
    line.end_object();
  } else {
    line.null("restart_cursor");
  }
  line.finish();
}

std::string meta_dat_text(const canal::MetaDat& meta, const std::optional<canal::RestartCursor>& restart) {
  std::string text = fmt::format("meta.dat destination {}, {} client(s)\n", meta.destination, meta.clients.size());
  for (const auto& c : meta.clients) {
    text += fmt::format("client {} destination {} filter {}: ", c.client_id, c.destination,
                        c.filter ? "\"" + *c.filter + "\"" : "(none)");
    text += c.cursor ? cursor_text(*c.cursor) + "\n" : "no cursor\n";
  }
  text += restart ? fmt::format("restart cursor: client {} at {}\n", restart->client_id, cursor_text(restart->cursor))
                  : "restart cursor: none (Canal takes instance.properties or SHOW MASTER STATUS)\n";
  return text;
}

void append_entry_json(std::string* out, const canal::LogEntry& e) {
  JsonLine line(out, JsonType::kRecord);
  line.envelope(record_format::kCanal, e.file)
      .unsigned_num("line", e.line)
      .unsigned_num("offset", e.offset)
      .str("time", e.time)
      .num("time_ms", e.time_ms)
      .num("client_id", e.client_id);
  optional_str(&line, "journal_name", e.cursor.journal_name);
  optional_num(&line, "position", e.cursor.position);
  optional_num(&line, "timestamp", e.cursor.timestamp);
  optional_num(&line, "server_id", e.cursor.server_id);
  optional_str(&line, "gtid", e.cursor.gtid);
  e.cursor.address.empty() ? line.null("address").null("port")
                           : line.str("address", e.cursor.address).num("port", e.cursor.port);
  line.finish();
}

// One line per entry, in the order logged: a text dump streams as the log
// is read, however long it is. The line's time is shown as format_time
// shows every time (its local string as written is in the JSON).
void append_entry_text(std::string* out, const canal::LogEntry& e) {
  const std::int64_t timestamp = e.cursor.timestamp.value_or(0);
  fmt::format_to(std::back_inserter(*out), "{}  client {}  {}:{} timestamp {} ({})", format_time(e.time_ms),
                 e.client_id, e.cursor.journal_name.value_or(""), e.cursor.position.value_or(0), timestamp,
                 format_time(timestamp));
  if (e.cursor.server_id)
    fmt::format_to(std::back_inserter(*out), " server_id {} gtid \"{}\"", *e.cursor.server_id,
                   e.cursor.gtid.value_or(""));
  if (!e.address_text.empty()) fmt::format_to(std::back_inserter(*out), " address {}", e.address_text);
  out->push_back('\n');
}

ExitCode outcome(bool read_all, std::size_t errors) {
  return worse(read_all ? ExitCode::kOk : ExitCode::kIoError, errors > 0 ? ExitCode::kProblems : ExitCode::kOk);
}

bool usage(std::string_view command, const std::string& message) {
  usage_error(command, message);
  return false;
}

// Every PATH is of one kind (the dispatch groups them by their claims);
// a PATH no claim told is refused here.
bool known_kind(const CanalRun& run, std::string_view command) {
  if (run.kind || run.paths.empty()) return true;
  return usage(command,
               fmt::format("{} is not a Canal meta.dat, meta.log or ZooKeeper cursor; name its kind with --format "
                           "canal-meta-dat, canal-meta-log, canal-zk-cursor or canal-zk-tree",
                           run.paths.front()));
}

bool zk_kind(const std::optional<FileKind>& kind) { return kind == FileKind::kZkCursor || kind == FileKind::kZkTree; }

struct Verified {
  FindingList findings;
  std::uint64_t records = 0;
  bool read_all = true;
  std::vector<DestinationReport> destinations;  // of the files named meta.dat
};

void verify_meta_dats(const CanalRun& run, Verified* v) {
  std::map<std::string, std::uint64_t> binlogs;
  std::string text;
  if (!run.canal.binlogs.empty() && read_whole(run.canal.binlogs, &text, &v->findings))
    binlogs = canal::read_binlog_list(text, run.canal.binlogs, &v->findings);
  if (zk_kind(run.kind)) {
    v->read_all = verify_zk(run, run.canal.binlogs.empty() ? nullptr : &binlogs, &v->findings, &v->records);
    return;
  }
  for (const std::string& path : run.paths) {
    if (absent_meta_dat(path)) {
      const canal::MetaDatSource source{path, canal::destination_of_meta_dat(path)};
      if (auto report = check_destination(source, std::nullopt, &v->findings))
        v->destinations.push_back(std::move(*report));
      continue;
    }
    MetaDatFile file;
    v->read_all = load_meta_dat(path, &file, &v->findings) && v->read_all;
    if (!file.meta) continue;
    if (auto report = check_destination(file.source, file.meta, &v->findings))
      v->destinations.push_back(std::move(*report));
    v->records += file.meta->clients.size();
    if (!run.canal.binlogs.empty()) canal::check_against_binlogs(*file.meta, binlogs, path, &v->findings);
  }
}

std::vector<canal::StoreMetrics> verify_metrics(const CanalRun& run, Verified* v) {
  std::string text;
  if (!read_whole(run.canal.metrics, &text, &v->findings)) {
    v->read_all = false;
    return {};
  }
  auto stores = canal::read_store_metrics(text, run.canal.metrics, &v->findings);
  for (const auto& m : stores) canal::check_store(m, run.canal.memunit, run.canal.metrics, &v->findings);
  v->records += stores.size();
  return stores;
}

// verify's report, with the stores of --metrics: a "stores" member in
// JSON, a line each in text.
// The stores of a --metrics scrape, as verify's report shows them.
void add_stores(VerifyTally* tally, const std::vector<canal::StoreMetrics>& stores) {
  std::string array;
  JsonWriter json(&array);
  json.begin_array();
  for (const auto& m : stores) {
    tally->text_lines += fmt::format("store {}: {} mode, buffer size {}, {} event(s) and {} byte(s) in flight\n",
                                     m.destination, m.batch_mode.value_or("?"), m.buffer_size.value_or(0),
                                     m.in_flight_events().value_or(0), m.in_flight_bytes().value_or(0));
    json.begin_object().str("destination", m.destination);
    optional_str(&json, "batch_mode", m.batch_mode);
    optional_num(&json, "buffer_size", m.buffer_size);
    optional_num(&json, "in_flight_events", m.in_flight_events());
    optional_num(&json, "in_flight_bytes", m.in_flight_bytes());
    json.end_object();
  }
  json.end_array();
  tally->json_members.emplace_back("stores", std::move(array));
}

}  // namespace

void add_canal_binlogs_option(CLI::App* command, CanalOptions* o, std::string_view use) {
  command->add_option("--binlogs", o->binlogs, fmt::format("SHOW BINARY LOGS output; {}", use))->type_name("FILE");
}

void add_canal_verify_options(CLI::App* command, CanalOptions* o) {
  add_canal_binlogs_option(command, o, "each meta.dat cursor's journal must still exist");
  command->add_option("--metrics", o->metrics,
                      "a Prometheus scrape of the server; check each destination's ring buffer");
  command->add_option("--memunit", o->memunit, "canal.instance.memory.buffer.memunit (default 1024)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 30));
}

void add_canal_replay_options(CLI::App* command, CanalOptions* o) {
  command->add_option("--at", o->at, "print the meta.dat Canal had at this time (epoch ms or yyyy-MM-dd HH:mm:ss.SSS)");
}

ExitCode run_canal_dump(const CanalRun& run) {
  if (!known_kind(run, "dump")) return ExitCode::kUsage;
  if (zk_kind(run.kind)) return run_zk_dump(run);
  const auto kind = run.kind;
  StderrReporter printed;
  HintingReporter reporter(canal_hint, &printed);
  Output out;
  bool read_all = true;
  // --limit counts meta.log lines, or meta.dat files; past it nothing is
  // printed or checked.
  std::uint64_t shown = 0;
  const auto limit_reached = [&] { return run.limit && shown == *run.limit; };
  const auto count_shown = [&] {
    if (run.printed != nullptr) *run.printed += shown;
  };
  if (*kind == FileKind::kMetaLog) {
    canal::CursorOrderCheck order;
    read_all = read_meta_logs(run.paths, local_zone(), &reporter, [&](const canal::LogEntry& e) {
      if (limit_reached()) return;
      order.add(e, &reporter);
      if (!run.filter.time_in(e.time_ms) || !run.filter.offset_in(e.offset)) return;
      run.json ? append_entry_json(out.buffer(), e) : append_entry_text(out.buffer(), e);
      out.commit();
      ++shown;
    });
    count_shown();
    return finish_output(&out, outcome(read_all, printed.errors()));
  }
  if (const auto refusal = check_filter_fields(run.filter, "canal meta.dat", {})) {
    usage("dump", *refusal + " (the filters select meta.log lines)");
    return ExitCode::kUsage;
  }
  for (const std::string& path : run.paths) {
    if (limit_reached()) break;
    MetaDatFile file;
    read_all = load_meta_dat(path, &file, &reporter) && read_all;
    if (!file.meta) continue;
    const auto restart = canal::restart_cursor(*file.meta, file.source);
    if (!run.json && run.paths.size() > 1) out.write(fmt::format("# {}\n", path));
    run.json ? append_meta_dat_json(out.buffer(), path, *file.meta, restart)
             : out.write(meta_dat_text(*file.meta, restart));
    ++shown;
  }
  count_shown();
  return finish_output(&out, outcome(read_all, printed.errors()));
}

std::optional<VerifyTally> check_canal(const CanalRun& run) {
  if (!known_kind(run, "verify")) return std::nullopt;
  const auto kind = run.kind;
  if (!run.canal.binlogs.empty() && kind == FileKind::kMetaLog) {
    usage("verify", "--binlogs checks meta.dat files and ZooKeeper cursors");
    return std::nullopt;
  }
  Verified v;
  if (kind == FileKind::kMetaLog) {
    canal::CursorOrderCheck order;
    v.read_all = read_meta_logs(run.paths, local_zone(), &v.findings, [&v, &order](const canal::LogEntry& e) {
      order.add(e, &v.findings);
      ++v.records;
    });
  } else if (kind) {
    verify_meta_dats(run, &v);
  }
  std::vector<canal::StoreMetrics> stores;
  if (!run.canal.metrics.empty()) stores = verify_metrics(run, &v);
  VerifyTally tally;
  tally.findings = std::move(v.findings);
  tally.files = run.paths.size() + (run.canal.metrics.empty() ? 0 : 1);
  tally.records = v.records;
  tally.status = v.read_all ? ExitCode::kOk : ExitCode::kIoError;
  if (!run.canal.metrics.empty()) add_stores(&tally, stores);
  add_destinations(&tally, v.destinations, run.quiet);
  return tally;
}

ExitCode run_canal_replay(const CanalRun& run) {
  if (!known_kind(run, "replay")) return ExitCode::kUsage;
  if (run.kind != FileKind::kMetaLog) {
    usage("replay", "replay reads meta.log files (plain or gzip'd)");
    return ExitCode::kUsage;
  }
  if (!run.canal.at.empty() && run.filter.selects_time()) {
    usage("replay", "--at prints one meta.dat; --since/--until select the history's cursors, without --at");
    return ExitCode::kUsage;
  }
  std::optional<std::int64_t> at;
  if (!run.canal.at.empty() && !(at = parse_at_option("replay", run.canal.at))) return ExitCode::kUsage;
  StderrReporter reporter;
  Output out;
  canal::CursorOrderCheck order;
  canal::CursorsAt at_time(at.value_or(0));
  TimeRangeCount within(run.filter);
  const bool read_all = read_meta_logs(run.paths, local_zone(), &reporter, [&](const canal::LogEntry& e) {
    order.add(e, &reporter);
    if (at) {
      at_time.add(e);
    } else if (within.show(e.time_ms)) {
      run.json ? append_entry_json(out.buffer(), e) : append_entry_text(out.buffer(), e);
      out.commit();
    }
  });
  if (!at) {
    // The history is a stream of cursors: the count goes to standard error.
    if (run.filter.selects_time()) note("replay", within.summary("cursor(s)"));
    return finish_output(&out, outcome(read_all, reporter.errors()));
  }
  const auto& cursors = at_time.cursors();
  if (cursors.empty()) {
    tell("replay", fmt::format("no cursor was logged at or before --at {}", run.canal.at));
    return worse(outcome(read_all, reporter.errors()), ExitCode::kProblems);
  }
  const std::string destination = canal::destination_of_meta_log(run.paths.front());
  const canal::MetaDat meta = canal::meta_dat_from_log(cursors, destination, nullptr);
  if (run.json) {
    JsonLine(out.buffer(), JsonType::kReport)
        .num("at_ms", *at)
        .str("destination", destination)
        .str("meta_dat", canal::write_meta_dat(meta))
        .finish();
  } else {
    const auto restart = canal::restart_cursor(meta, canal::MetaDatSource{run.paths.front(), destination});
    out.write(fmt::format("at {}, by the log:\n{}", format_time(*at), meta_dat_text(meta, restart)));
  }
  return finish_output(&out, outcome(read_all, reporter.errors()));
}

ExitCode run_canal_stats(const CanalRun& run, StatsModel* model, Reporter* reporter) {
  if (!known_kind(run, "stats")) return ExitCode::kUsage;
  const std::int64_t now = now_ms();
  bool read_all = true;
  if (run.kind == FileKind::kMetaLog) {
    // --binlogs is for the meta.dat files of the same run: a meta.log's
    // last cursors are meta.dat's, or older.
    canal::CursorOrderCheck order;
    canal::MetaLogStats logs(now);
    read_all = read_meta_logs(
        run.paths, local_zone(), reporter,
        [&](const canal::LogEntry& e) {
          order.add(e, reporter);
          logs.add(e);
        },
        [&](const std::string& path, std::uint64_t bytes) { logs.finish_file(path, bytes, model); });
    return read_all ? ExitCode::kOk : ExitCode::kIoError;
  }
  std::optional<canal::BinlogSizes> binlogs;
  std::string text;
  if (!run.canal.binlogs.empty()) {
    read_all = read_whole(run.canal.binlogs, &text, reporter);
    if (read_all) binlogs = canal::read_binlog_list(text, run.canal.binlogs, reporter);
  }
  if (zk_kind(run.kind))
    return zk_stats(run, binlogs ? &*binlogs : nullptr, now, model, reporter) && read_all ? ExitCode::kOk
                                                                                          : ExitCode::kIoError;
  for (const std::string& path : run.paths) {
    MetaDatFile file;
    read_all = load_meta_dat(path, &file, reporter) && read_all;
    if (!file.meta) continue;
    if (binlogs) canal::check_against_binlogs(*file.meta, *binlogs, path, reporter);
    canal::add_meta_dat_stats(*file.meta, file.source, binlogs ? &*binlogs : nullptr, now, model);
    if (const auto report = check_destination(file.source, file.meta, reporter))
      add_destination_stats(*report, *file.meta, model);
  }
  return read_all ? ExitCode::kOk : ExitCode::kIoError;
}

}  // namespace qjt::cli
