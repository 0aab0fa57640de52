// gen for Canal: a meta.dat and a meta.log history under -o DIR, by
// canal/meta_generator.h.
#include "canal/cli/canal_gen.h"

#include <fmt/format.h>

#include "canal/meta_generator.h"
#include "command_support.h"
#include "gen_report.h"
#include "json_line.h"

namespace qjt::cli {
namespace {

// The shared options Canal has no use for.
std::optional<std::string> unused_option(const GenRequest& r) {
  if (r.output == "-") return "-o -: Canal's files are a directory tree; give -o DIR";
  if (r.size) return "--size: Canal's history is counted in updates (--records)";
  if (r.payload_min) return "--payload-size: Canal's files hold cursors, not payloads";
  if (r.open) return "--open: Canal keeps no transaction on disk";
  if (r.segments || r.queue) return "--segments and --queue are not Canal's: give --destination";
  return std::nullopt;
}

void append_report_json(std::string* out, const std::string& dir, const canal::MetaGeneratorOptions& o,
                        const canal::MetaGeneratorReport& r) {
  JsonLine line(out, JsonType::kSummary);
  line.str("format", "canal")
      .str("path", dir)
      .unsigned_num("seed", o.seed)
      .str("destination", o.destination)
      .str("meta_dat", r.meta_dat)
      .unsigned_num("meta_dat_bytes", r.meta_dat_bytes)
      .str("meta_log", r.meta_log)
      .unsigned_num("meta_log_bytes", r.meta_log_bytes)
      .unsigned_num("clients", o.clients)
      .unsigned_num("updates", r.updates)
      .unsigned_num("binlog_rolls", r.binlog_rolls)
      .str("last_time", r.last_time);
  add_damage_json(&line, r.corruption);
  line.finish();
}

void append_report_text(std::string* out, const canal::MetaGeneratorOptions& o, const canal::MetaGeneratorReport& r) {
  *out += fmt::format("wrote {} ({} bytes, {} client(s))\n", r.meta_dat, r.meta_dat_bytes, o.clients);
  *out += fmt::format("wrote {} ({} bytes, {} update(s), {} binlog roll(s), the last at {} UTC)\n", r.meta_log,
                      r.meta_log_bytes, r.updates, r.binlog_rolls, r.last_time);
  *out += damage_text(r.corruption);
}

}  // namespace

void add_canal_gen_options(CLI::App* group, CanalGenOptions* c) {
  group->add_option("--clients", c->clients, "Canal: clients, ids from 1001 (default 2)");
  group->add_option("--destination", c->destination, "Canal: the destination's name (default example)");
}

ExitCode run_canal_gen(const GenRequest& r, const CanalGenOptions& c) {
  if (const auto problem = unused_option(r)) return usage_error("gen", *problem);
  canal::MetaGeneratorOptions o;
  if (r.records) o.updates = *r.records;
  o.clients = c.clients;
  o.destination = c.destination;
  o.seed = r.seed;
  o.start_ms = r.add_time;
  o.corrupt = r.corrupt;
  o.force = r.force;
  canal::MetaGeneratorReport report;
  std::string error;
  const GenerateStatus status = canal::generate_canal_meta(r.output, o, &report, &error);
  return finish_gen(
      status, error, r.json, [&](std::string* out) { append_report_json(out, r.output, o, report); },
      [&](std::string* out) { append_report_text(out, o, report); });
}

}  // namespace qjt::cli
