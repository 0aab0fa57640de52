// gen for Flume: a file channel (checkpoint dir and data dirs) under -o DIR,
// by flume/channel_generator.h.
#include "flume/cli/flume_gen.h"

#include <fmt/format.h>

#include "byte_size.h"
#include "command_support.h"
#include "flume/cli/flume_input.h"
#include "gen_report.h"
#include "json_line.h"

namespace qjt::cli {
namespace {

bool usage(const std::string& message) {
  usage_error("gen", message);
  return false;
}

bool parse_size_option(const std::string& name, const std::string& text, std::uint64_t* value) {
  if (text.empty()) return true;
  const auto size = parse_byte_size(text);
  if (!size) return usage(fmt::format("{} {}: expected a byte count such as 100, 64K or 1M", name, text));
  *value = *size;
  return true;
}

bool make_options(const GenRequest& r, const FlumeGenOptions& f, flume::ChannelGeneratorOptions* o) {
  *o = f.channel;
  if (r.output == "-") return usage("-o -: a Flume channel is directories; give -o DIR");
  if (r.segments || r.queue) return usage("--segments and --queue are not Flume's: a channel has data dirs");
  if (r.records) o->events = *r.records;
  if (r.size) o->size = *r.size;
  if (r.payload_min) {
    o->payload_min = *r.payload_min;
    o->payload_max = *r.payload_max;
  }
  o->open = r.open.value_or(0);
  o->seed = r.seed;
  o->start_ms = r.add_time;
  o->corrupt = r.corrupt;
  o->force = r.force;
  std::uint64_t header_size = o->header_size;
  if (!parse_size_option("--max-log-size", f.max_log_size, &o->max_log_size) ||
      !parse_size_option("--header-size", f.header_size, &header_size))
    return false;
  if (header_size > 1 << 20) return usage("--header-size: expected at most 1M");
  o->header_size = static_cast<std::uint32_t>(header_size);
  if (f.key) {
    std::string error;
    const auto ring = parse_keys({*f.key}, &error);
    if (!ring) return usage(error);
    o->key_alias = ring->begin()->first;
    o->key = ring->begin()->second;
    if (o->key.size() != 16 && o->key.size() != 24 && o->key.size() != 32)
      return usage(fmt::format("--key {}: an AES key is 16, 24 or 32 bytes, not {}", *f.key, o->key.size()));
  }
  if (auto problem = flume::check_channel_options(*o)) return usage(*problem);
  return true;
}

void append_report_json(std::string* out, const std::string& dir, const flume::ChannelGeneratorOptions& o,
                        const flume::ChannelGeneratorReport& r) {
  JsonLine line(out, JsonType::kSummary);
  line.str("format", "flume")
      .str("path", dir)
      .unsigned_num("seed", o.seed)
      .str("checkpoint_dir", r.checkpoint_dir)
      .begin_array("data_dirs");
  for (const auto& d : r.data_dirs) line.string(d);
  line.end_array().num("checkpoint_version", o.checkpoint_version).begin_array("files");
  for (const auto& log : r.logs) {
    line.begin_object()
        .str("path", log.path)
        .num("file_id", log.file_id)
        .unsigned_num("bytes", log.bytes)
        .unsigned_num("records", log.records)
        .end_object();
  }
  line.end_array()
      .unsigned_num("records", r.records)
      .unsigned_num("bytes", r.bytes)
      .unsigned_num("transactions", r.transactions)
      .unsigned_num("rollbacks", r.rollbacks)
      .unsigned_num("events_put", r.events_put)
      .unsigned_num("events_committed", r.events_committed)
      .unsigned_num("events_taken", r.events_taken)
      .unsigned_num("queued", r.queued)
      .unsigned_num("open_transactions", r.open_transactions)
      .unsigned_num("in_flight_puts", r.in_flight_puts)
      .unsigned_num("in_flight_takes", r.in_flight_takes)
      .unsigned_num("queue_length", r.queue_length)
      .num("capacity", r.capacity)
      .num("checkpoint_write_order_id", r.checkpoint_write_order_id)
      .boolean("encrypted", o.key_alias.has_value());
  add_damage_json(&line, r.corruption);
  line.finish();
}

void append_report_text(std::string* out, const flume::ChannelGeneratorOptions& o,
                        const flume::ChannelGeneratorReport& r) {
  for (const auto& log : r.logs)
    *out += fmt::format("wrote {} ({} bytes, {} records)\n", log.path, log.bytes, log.records);
  *out += fmt::format("wrote the V{} checkpoint in {} (capacity {}, write order id {})\n", o.checkpoint_version,
                      r.checkpoint_dir, r.capacity, r.checkpoint_write_order_id);
  *out += fmt::format(
      "{} records, {} bytes of logs: {} transaction(s) ({} rolled back), {} event(s) put, {} committed, {} taken; "
      "{} queued, {} open transaction(s) ({} put(s), {} take(s) in flight); replay expects {} event(s) queued\n",
      r.records, r.bytes, r.transactions, r.rollbacks, r.events_put, r.events_committed, r.events_taken, r.queued,
      r.open_transactions, r.in_flight_puts, r.in_flight_takes, r.queue_length);
  *out += damage_text(r.corruption);
}

}  // namespace

void add_flume_gen_options(CLI::App* group, FlumeGenOptions* f) {
  flume::ChannelGeneratorOptions& o = f->channel;
  group->add_option("--data-dirs", o.data_dirs, "Flume: data directories data1..dataN (default 1)");
  group->add_option("--checkpoint-version", o.checkpoint_version, "Flume: checkpoint version, 2 or 3 (default 3)");
  group->add_option("--capacity", o.capacity, "Flume: the channel's capacity (default: the events put)");
  group->add_option("--batch", o.batch, "Flume: events per transaction, at most (default 100)");
  group->add_option("--take-share", o.take_share, "Flume: fraction of the committed events taken (default 0.5)")
      ->check(CLI::Range(0.0, 1.0));
  group->add_option("--rollback-share", o.rollback_share, "Flume: fraction of transactions rolled back (default 0.05)")
      ->check(CLI::Range(0.0, 1.0));
  group->add_option("--headers", o.headers, "Flume: headers per event beside timestamp (default 0)");
  group->add_option("--header-size", f->header_size, "Flume: bytes of each such header's value (default 16)");
  group->add_option("--max-log-size", f->max_log_size, "Flume: roll to a new log past this size (default 64M)");
  group->add_option("--key", f->key, "Flume: encrypt the logs (AES-CTR) with this key, ALIAS=HEX");
}

ExitCode run_flume_gen(const GenRequest& r, const FlumeGenOptions& f) {
  flume::ChannelGeneratorOptions o;
  if (!make_options(r, f, &o)) return ExitCode::kUsage;
  flume::ChannelGeneratorReport report;
  std::string error;
  const GenerateStatus status = flume::generate_flume_channel(r.output, o, &report, &error);
  return finish_gen(
      status, error, r.json, [&](std::string* out) { append_report_json(out, r.output, o, report); },
      [&](std::string* out) { append_report_text(out, o, report); });
}

}  // namespace qjt::cli
