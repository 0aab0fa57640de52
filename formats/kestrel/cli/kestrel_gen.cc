// gen for classic Kestrel: a journal file (or - for standard output), or
// with --segments a queue directory, by kestrel/journal_generator.h.
#include "kestrel/cli/kestrel_gen.h"

#include <unistd.h>

#include <cstdlib>

#include <fmt/format.h>

#include "command_support.h"
#include "durable_file.h"
#include "gen_report.h"
#include "input_file.h"
#include "interrupt.h"
#include "json_line.h"
#include "kestrel/journal_generator.h"
#include "output.h"

namespace qjt::cli {
namespace {

bool usage(const std::string& message) {
  usage_error("gen", message);
  return false;
}

std::optional<GeneratedDamage> damage(const kestrel::GeneratorReport& r) {
  if (!r.corruption) return std::nullopt;
  const auto& c = *r.corruption;
  return GeneratedDamage{kestrel::corruption_name(c.mode), c.file, c.offset, c.description};
}

bool make_options(const GenRequest& r, const KestrelGenOptions& k, kestrel::GeneratorOptions* o) {
  if (r.records) o->records = *r.records;
  if (r.size) o->size = *r.size;
  if (r.payload_min) {
    o->payload_min = *r.payload_min;
    o->payload_max = *r.payload_max;
  }
  if (k.remove_share) o->remove_share = *k.remove_share;
  o->live = k.live;
  o->transactional = k.transactional;
  o->open = r.open.value_or(0);
  o->seed = r.seed;
  o->add_time_ms = r.add_time;
  o->binary = k.binary;
  if (r.segments) {
    if (*r.segments == 0) return usage("--segments: expected at least 1");
    o->segments = *r.segments;
  }
  if (r.queue) {
    if (!r.segments) return usage("--queue names the queue of a queue directory: give --segments too");
    o->queue = *r.queue;
  }
  o->corrupt = *kestrel::parse_corruption(r.corrupt);
  o->force = r.force;
  if (auto problem = kestrel::check_generator_options(*o)) return usage(*problem);
  return true;
}

void append_report_json(std::string* out, const std::string& path, const kestrel::GeneratorOptions& o,
                        const kestrel::GeneratorReport& r) {
  JsonLine line(out, JsonType::kSummary);
  line.str("format", "kestrel").str("path", path).unsigned_num("seed", o.seed).begin_array("files");
  for (const auto& f : r.files) {
    line.begin_object()
        .str("path", f.path)
        .str("role", kestrel::file_role_name(f.role))
        .unsigned_num("bytes", f.bytes)
        .unsigned_num("records", f.records)
        .end_object();
  }
  line.end_array()
      .unsigned_num("records", r.records)
      .unsigned_num("bytes", r.bytes)
      .unsigned_num("items_added", r.items_added)
      .unsigned_num("removes", r.removes)
      .unsigned_num("transactional_removes", r.transactional_removes)
      .unsigned_num("unremoves", r.unremoves)
      .unsigned_num("queue_length", r.queue_length)
      .unsigned_num("open_transactions", r.open_transactions)
      .num("xid_counter", r.xid_counter);
  add_damage_json(&line, damage(r));
  line.finish();
}

void append_report_text(std::string* out, const kestrel::GeneratorReport& r) {
  for (const auto& f : r.files) {
    *out += fmt::format("wrote {} ({}, {} bytes, {} records)\n", f.path, kestrel::file_role_name(f.role), f.bytes,
                        f.records);
  }
  *out += fmt::format(
      "{} records, {} bytes: {} item(s) added, {} removed ({} in transactions, "
      "{} unremove(s)); replay expects {} item(s) queued, {} open transaction(s), "
      "xid counter {}\n",
      r.records, r.bytes, r.items_added, r.removes, r.transactional_removes, r.unremoves, r.queue_length,
      r.open_transactions, r.xid_counter);
  *out += damage_text(damage(r));
}

ExitCode copy_to_stdout(const std::string& path) {
  std::string error;
  const auto input = InputFile::open(path, &error);
  const auto out = FileWriter::standard_output();
  if (input && out->append(input->bytes(), &error) && out->sync(&error)) return ExitCode::kOk;
  tell("gen", error);
  return ExitCode::kIoError;
}

// -o -: the journal is made in a temp file under $TMPDIR (damage is done
// to a whole file), then copied to standard output; the report is not
// printed, since standard output holds the journal.
ExitCode generate_to_stdout(const kestrel::GeneratorOptions& o, bool json) {
  if (o.segments > 0) return usage_error("gen", "-o - writes one journal file: --segments writes a directory");
  if (json) return usage_error("gen", "-o - writes the journal to standard output, which leaves no room for --json");
  if (stdout_is_terminal()) return usage_error("gen", "-o - would write a binary journal to the terminal; redirect it");
  const char* dir = std::getenv("TMPDIR");
  const std::string spool = fmt::format("{}/qjt-gen.{}", dir != nullptr && *dir != '\0' ? dir : "/tmp", ::getpid());
  track_temp(spool);
  kestrel::GeneratorOptions spooled = o;
  spooled.force = true;  // a file left by a killed run of the same pid is ours
  kestrel::GeneratorReport report;
  std::string error;
  const GenerateStatus status = kestrel::generate_kestrel_journal(spool, spooled, &report, &error);
  const ExitCode code =
      status == GenerateStatus::kOk ? copy_to_stdout(spool) : finish_gen(status, error, false, {}, {});
  remove_temp(spool);
  return code;
}

}  // namespace

void add_kestrel_gen_options(CLI::App* group, KestrelGenOptions* k) {
  auto* share =
      group->add_option("--remove-share", k->remove_share, "Fraction of the items added that are removed (default 0.5)")
          ->check(CLI::Range(0.0, 1.0));
  group->add_option("--live", k->live, "Instead: keep this many items queued, removing the rest")->excludes(share);
  group->add_option("--transactional", k->transactional, "Fraction of removes made in transactions (default 0.5)")
      ->check(CLI::Range(0.0, 1.0));
  group->add_flag("--binary", k->binary, "Payload bytes 0-255 instead of printable ASCII");
}

std::vector<std::string_view> kestrel_corruptions() { return {"truncate", "flip", "garbage"}; }

ExitCode run_kestrel_gen(const GenRequest& r, const KestrelGenOptions& k) {
  kestrel::GeneratorOptions o;
  if (!make_options(r, k, &o)) return ExitCode::kUsage;
  if (r.output == "-") return generate_to_stdout(o, r.json);
  kestrel::GeneratorReport report;
  std::string error;
  const GenerateStatus status = kestrel::generate_kestrel_journal(r.output, o, &report, &error);
  return finish_gen(
      status, error, r.json, [&](std::string* out) { append_report_json(out, r.output, o, report); },
      [&](std::string* out) { append_report_text(out, report); });
}

}  // namespace qjt::cli
