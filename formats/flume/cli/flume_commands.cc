#include "flume/cli/flume_commands.h"

#include <fmt/format.h>

#include <functional>

#include "command_support.h"
#include "flume/channel_replay.h"
#include "flume/channel_stats.h"
#include "flume/cli/flume_hints.h"
#include "flume/event_json.h"
#include "flume/file_dump.h"
#include "json_line.h"
#include "output.h"
#include "reporters.h"
#include "whole_number.h"

namespace qjt::cli {
namespace {

struct Inputs {
  std::vector<FlumeFile> files;
  std::optional<flume::ChannelLayout> layout;
  flume::KeyRing keys;
  ExitCode status = ExitCode::kOk;
  bool channel_missing = false;  // a directory of the channel is not there
};

// The files to read: the channel's (layout findings to `reporter`) or the
// PATHs named. nullopt on a usage error (already printed).
std::optional<Inputs> gather(const FlumeRun& run, Reporter* reporter) {
  std::string error;
  auto keys = parse_keys(run.flume.keys, &error);
  if (!keys) {
    usage_error("", error);
    return std::nullopt;
  }
  Inputs in;
  in.keys = std::move(*keys);
  if (names_channel(run.flume)) {
    if (!run.paths.empty()) {
      usage_error("", "give either PATHs or --checkpoint-dir/--data-dir/--backup-dir, not both");
      return std::nullopt;
    }
    CodeWatch missing(reporter, "missing_directory");
    in.layout = flume::discover_channel(channel_dirs(run.flume), &missing);
    in.files = channel_files(*in.layout);
    in.channel_missing = missing.seen();
    if (in.channel_missing) in.status = ExitCode::kIoError;
  } else {
    in.files = named_files(run.paths, run.flume.format);
  }
  if (!open_files(&in.files, reporter)) in.status = ExitCode::kIoError;
  return in;
}

DataMode data_mode(const FlumeRun& run, bool json) {
  return *parse_data_mode(run.data.empty() ? (json ? "text" : "none") : run.data);
}

// A put's event time (flume/event_json.h): its "timestamp" header.
std::optional<std::int64_t> event_time(const flume::LogRecord& r) { return flume::event_time_ms(r); }

// Whether a log record passes dump's filters. Only puts have a time, and
// only those whose event carries one.
bool accepts(const ReadFilter& filter, const flume::LogRecord& r) {
  const bool transactional = r.type == flume::LogRecordType::kPut || r.type == flume::LogRecordType::kTake ||
                             r.type == flume::LogRecordType::kRollback || r.type == flume::LogRecordType::kCommit;
  if (!filter.offset_in(r.offset) || !filter.op_in(flume::log_record_type_name(r.type))) return false;
  if (filter.xid && !(transactional && filter.xid_is(r.transaction_id))) return false;
  return filter.time_passes(event_time(r));
}

ExitCode outcome(ExitCode io, std::size_t errors) {
  return worse(io, errors > 0 ? ExitCode::kProblems : ExitCode::kOk);
}

}  // namespace

ExitCode run_flume_dump(const FlumeRun& run) {
  StderrReporter counting;  // counts the errors it prints
  HintingReporter hinting(flume_hints(run.flume), &counting);
  UniqueFindings reporter(&hinting);
  auto in = gather(run, &reporter);
  if (!in) return ExitCode::kUsage;
  flume::FileDumpOptions options;
  options.json = run.json;
  options.mode = data_mode(run, run.json);
  options.keys = &in->keys;
  options.log_filter = [&filter = run.filter](const flume::LogRecord& r) { return accepts(filter, r); };
  Output out;
  std::uint64_t printed = 0;
  for (const FlumeFile& f : in->files) {
    if (!f.input) continue;
    if (run.limit && printed >= *run.limit) break;
    if (run.limit) options.limit = *run.limit - printed;
    if (!run.json && in->files.size() > 1) out.write(fmt::format("# {}\n", f.path));
    printed += flume::dump_file(
        f.path, *f.input, f.kind, options, out.buffer(), [&out] { out.commit(); }, &reporter);
    out.commit();
  }
  if (run.printed != nullptr) *run.printed += printed;
  return finish_output(&out, outcome(in->status, counting.errors()));
}

namespace {

// The file id of the channel's data log at `path`; nullopt for its other
// files, or without a channel.
std::optional<std::int32_t> channel_log_id(const std::optional<flume::ChannelLayout>& layout, const std::string& path) {
  if (!layout) return std::nullopt;
  for (const flume::DataLog& log : layout->logs)
    if (log.path == path) return log.file_id;
  return std::nullopt;
}

}  // namespace

std::optional<VerifyTally> check_flume(const FlumeRun& run) {
  VerifyTally check;
  UniqueFindings reporter(&check.findings);
  auto in = gather(run, &reporter);
  if (!in) return std::nullopt;
  check.status = in->status;
  check.files = in->files.size();
  flume::FileDumpOptions options;
  options.mode = DataMode::kNone;
  options.records_unprinted = true;  // verify counts records; formatting them was a third of its time
  options.keys = &in->keys;
  // The channel's intact puts, as the scan of each log meets them: the
  // queue's pointers are checked against them, not read a second time.
  flume::IntactPuts intact;
  std::optional<std::int32_t> file_id;
  options.on_log_record = [&](const flume::LogRecord& r) {
    if (file_id) intact.add(*file_id, r);
  };
  std::string discard;
  for (const FlumeFile& f : in->files) {
    if (!f.input) continue;
    file_id = channel_log_id(in->layout, f.path);
    check.records += flume::dump_file(
        f.path, *f.input, f.kind, options, &discard, [&discard] { discard.clear(); }, &reporter);
    discard.clear();
  }
  intact.seal();
  if (in->layout) {
    flume::ChannelLogs logs(in->layout->logs, in->keys, &reporter);
    flume::ChannelReplay replay =
        flume::replay_channel(*in->layout, logs, flume::ChannelReplayOptions{run.flume.capacity}, &reporter);
    if (replay.queue) {
      flume::check_queued_events(*replay.queue, logs, in->layout->checkpoint.dir, intact, &reporter);
      flume::check_log_retention(logs, *replay.queue, &reporter);
    }
  }
  return check;
}

FindingList verify_channel(const FlumeOptions& flume) {
  FlumeRun run;
  run.flume = flume;
  auto check = check_flume(run);
  return check ? std::move(check->findings) : FindingList{};
}

namespace {

void append_counts(JsonWriter* line, const flume::ReplayCounts& c) {
  line->begin_object("counts")
      .unsigned_num("read", c.read)
      .unsigned_num("puts", c.puts)
      .unsigned_num("takes", c.takes)
      .unsigned_num("rollbacks", c.rollbacks)
      .unsigned_num("commits", c.commits)
      .unsigned_num("skipped", c.skipped)
      .unsigned_num("noops", c.noops)
      .unsigned_num("uncommitted_takes", c.uncommitted_takes)
      .unsigned_num("pending_takes", c.pending_takes)
      .end_object();
}

// The queue's events as replay reads them: how many deliver, their body
// bytes, and those within --since/--until.
struct QueueWalk {
  explicit QueueWalk(const ReadFilter& filter) : within(filter) {}

  // Reads the queue's events, counting them; `shown` (may be empty) gets
  // each within --since/--until.
  using Shown = std::function<void(flume::EventPointer, const flume::LogRecord&)>;
  void read(const flume::EventQueue& queue, const flume::ChannelLogs& logs, const std::string& where,
            Reporter* reporter, const Shown& shown = nullptr) {
    events = flume::for_each_queued_event(queue, logs, where, reporter,
                                          [&](std::size_t, flume::EventPointer p, const flume::LogRecord& put) {
                                            bytes += put.body.size();
                                            if (within.show(event_time(put)) && shown) shown(p, put);
                                          });
  }

  std::uint64_t events = 0, bytes = 0;
  TimeRangeCount within;
};

// The report as one JSON object whose "queue" is written to `out` as the
// events are read, never held: memory stays that of the replay, whatever
// the queue's bytes. So "size", which counts the events that deliver,
// follows the queue.
void write_replay_json(const FlumeRun& run, const flume::ChannelReplay& replay, const flume::ChannelLogs& logs,
                       const std::string& where, QueueWalk* walk, const FindingList& findings, Reporter* reporter,
                       Output* out) {
  const DataMode mode = data_mode(run, true);
  JsonLine line(out->buffer(), JsonType::kReport);
  line.str("source", flume::replay_source_name(replay.source));
  line.num("checkpoint_version", replay.checkpoint_version);
  line.num("checkpoint_write_order_id", replay.checkpoint_write_order_id);
  line.num("capacity", replay.queue ? replay.queue->capacity() : 0);
  line.begin_array("queue");
  if (replay.queue) {
    walk->read(*replay.queue, logs, where, reporter, [&](flume::EventPointer p, const flume::LogRecord& put) {
      line.begin_object().num("file_id", p.file_id).num("offset", p.offset);
      flume::add_event_fields(&line, put, mode);
      line.end_object();
      out->commit();
    });
  }
  line.end_array();
  line.unsigned_num("size", walk->events);
  append_counts(&line, replay.counts);
  line.num("max_transaction_id", replay.max_transaction_id).num("max_write_order_id", replay.max_write_order_id);
  line.key("findings");
  write_findings_json(&line, findings.findings());
  walk->within.write_json(&line);
  line.finish();
}

void write_replay_text(const flume::ChannelReplay& replay, const std::string& where, const QueueWalk& walk,
                       Output* out) {
  out->write(fmt::format("channel {}: {} event(s), {} body byte(s), from the {} (write order id {}); capacity {}\n",
                         where, walk.events, walk.bytes, flume::replay_source_name(replay.source),
                         replay.checkpoint_write_order_id, replay.queue ? replay.queue->capacity() : 0));
  const auto& c = replay.counts;
  out->write(fmt::format(
      "  records read {}: {} put, {} take, {} rollback, {} commit, {} skipped (at or before "
      "the checkpoint), {} noop; {} uncommitted take(s) restored, {} pending take(s)\n",
      c.read, c.puts, c.takes, c.rollbacks, c.commits, c.skipped, c.noops, c.uncommitted_takes, c.pending_takes));
  out->write(walk.within.text("  ", "event(s)"));
}

}  // namespace

ExitCode run_flume_replay(const FlumeRun& run) {
  if (!names_channel(run.flume)) {
    return usage_error("replay", "a Flume channel is named by --checkpoint-dir and --data-dir");
  }
  FindingList findings;
  UniqueFindings reporter(&findings);
  auto in = gather(run, &reporter);
  if (!in) return ExitCode::kUsage;
  if (in->channel_missing) {  // nothing on standard output for what is not there
    StderrReporter diagnostics;
    for (const Finding& f : findings.findings()) diagnostics.report(f);
    return ExitCode::kIoError;
  }
  flume::ChannelLogs logs(in->layout->logs, in->keys, &reporter);
  flume::ChannelReplay replay =
      flume::replay_channel(*in->layout, logs, flume::ChannelReplayOptions{run.flume.capacity}, &reporter);
  if (has_io_error(findings.findings())) {  // no queue computed without all of its files
    StderrReporter diagnostics;
    for (const Finding& f : findings.findings()) diagnostics.report(f);
    return ExitCode::kIoError;
  }
  const std::string& where = in->layout->checkpoint.dir;
  Output out;
  QueueWalk walk{run.filter};
  if (run.json) {
    write_replay_json(run, replay, logs, where, &walk, findings, &reporter, &out);
  } else {
    if (replay.queue) walk.read(*replay.queue, logs, where, &reporter);
    StderrReporter diagnostics;
    for (const Finding& f : findings.findings()) diagnostics.report(f);
    write_replay_text(replay, where, walk, &out);
  }
  const std::size_t errors = findings.count(Severity::kError);
  return finish_output(&out, outcome(in->status, errors));
}

void add_flume_stats_options(CLI::App* group, FlumeStatsOptions* o) {
  add_channel_options(group, &o->flume, true);
  group
      ->add_option("--by-header", o->by_header,
                   "Queued events and bytes per value of this event header: the top 100, then other (repeatable)")
      ->allow_extra_args(false);
}

ExitCode run_flume_stats(const FlumeRun& run, const std::vector<std::string>& by_header, StatsModel* model,
                         Reporter* findings) {
  if (!names_channel(run.flume)) {
    return usage_error("stats", "a Flume channel is named by --checkpoint-dir and --data-dir");
  }
  UniqueFindings reporter(findings);
  auto in = gather(run, &reporter);
  if (!in) return ExitCode::kUsage;
  if (in->channel_missing) return ExitCode::kIoError;
  flume::ChannelLogs logs(in->layout->logs, in->keys, &reporter);
  flume::ChannelReplay replay =
      flume::replay_channel(*in->layout, logs, flume::ChannelReplayOptions{run.flume.capacity}, &reporter);
  flume::ChannelStats stats(by_header);
  if (replay.queue) {
    flume::for_each_queued_event(
        *replay.queue, logs, in->layout->checkpoint.dir, &reporter,
        [&stats](std::size_t, flume::EventPointer p, const flume::LogRecord& put) { stats.add_event(p, put); });
    flume::check_log_retention(logs, *replay.queue, &reporter);
  }
  stats.fill(*in->layout, logs, replay, model);
  return in->status;
}

}  // namespace qjt::cli
