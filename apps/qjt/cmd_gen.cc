// qjt gen: deterministic synthetic journals for fixtures and benchmarks.
// The generation itself is formats/kestrel/journal_generator.
#include <unistd.h>

#include <cstdlib>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "byte_size.h"
#include "commands.h"
#include "durable_file.h"
#include "input_file.h"
#include "interrupt.h"
#include "json_line.h"
#include "kestrel/journal_generator.h"
#include "output.h"
#include "value_options.h"

namespace qjt::app {
namespace {

// gen's first add time unless --add-time: fixed, so that fixtures repeat.
constexpr std::int64_t kDefaultAddTime = 1700000000000;

struct GenCommandOptions {
  std::string format;
  std::string output;
  std::optional<std::uint64_t> records;
  std::string size;
  std::string payload_size;
  std::optional<double> remove_share;
  std::optional<std::uint64_t> live;
  double transactional = 0.5;
  std::uint32_t open = 0;
  std::uint64_t seed = 1;
  std::optional<std::int64_t> add_time;  // default: kDefaultAddTime
  bool binary = false;
  std::optional<std::uint32_t> segments;
  std::optional<std::string> queue;
  std::string corrupt = "none";
  bool force = false;
  bool json = false;
};

bool usage(const std::string& message) {
  usage_error("gen", message);
  return false;
}

bool make_options(const GenCommandOptions& c, kestrel::GeneratorOptions* o) {
  if (c.records) o->records = *c.records;
  if (!c.size.empty()) {
    const auto size = parse_byte_size(c.size);
    if (!size || *size == 0)
      return usage(fmt::format("--size {}: expected a byte count such as 1048576, 64K, 1M or 1G", c.size));
    o->size = *size;
  }
  if (!c.payload_size.empty()) {
    const auto dash = c.payload_size.find('-');
    const auto min = parse_byte_size(c.payload_size.substr(0, dash));
    const auto max = dash == std::string::npos ? min : parse_byte_size(c.payload_size.substr(dash + 1));
    if (!min || !max || *max > std::numeric_limits<std::uint32_t>::max()) {
      return usage(fmt::format("--payload-size {}: expected N or MIN-MAX, in bytes", c.payload_size));
    }
    o->payload_min = static_cast<std::uint32_t>(*min);
    o->payload_max = static_cast<std::uint32_t>(*max);
  }
  if (c.remove_share) o->remove_share = *c.remove_share;
  o->live = c.live;
  o->transactional = c.transactional;
  o->open = c.open;
  o->seed = c.seed;
  o->add_time_ms = c.add_time.value_or(kDefaultAddTime);
  o->binary = c.binary;
  if (c.segments) {
    if (*c.segments == 0) return usage("--segments: expected at least 1");
    o->segments = *c.segments;
  }
  if (c.queue) {
    if (!c.segments) return usage("--queue names the queue of a queue directory: give --segments too");
    o->queue = *c.queue;
  }
  o->corrupt = *kestrel::parse_corruption(c.corrupt);
  o->force = c.force;
  if (auto problem = kestrel::check_generator_options(*o)) return usage(*problem);
  return true;
}

void append_report_json(std::string* out, const std::string& path, const kestrel::GeneratorOptions& o,
                        const kestrel::GeneratorReport& r) {
  JsonLine line(out);
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
  if (r.corruption) {
    line.begin_object("corruption")
        .str("mode", kestrel::corruption_name(r.corruption->mode))
        .str("file", r.corruption->file)
        .unsigned_num("offset", r.corruption->offset)
        .str("description", r.corruption->description)
        .end_object();
  } else {
    line.null("corruption");
  }
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
  if (r.corruption) {
    *out += fmt::format("damaged ({}): {}: {}\n", kestrel::corruption_name(r.corruption->mode), r.corruption->file,
                        r.corruption->description);
  }
}

ExitCode generate(const std::string& path, const kestrel::GeneratorOptions& o, kestrel::GeneratorReport* report) {
  std::string error;
  switch (kestrel::generate_kestrel_journal(path, o, report, &error)) {
    case kestrel::GenerateStatus::kOk:
      return ExitCode::kOk;
    case kestrel::GenerateStatus::kUsage:
      usage(error);
      return ExitCode::kUsage;
    case kestrel::GenerateStatus::kIoError:
      break;
  }
  tell("gen", error);
  return ExitCode::kIoError;
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
  ExitCode status = generate(spool, spooled, &report);
  if (status == ExitCode::kOk) status = copy_to_stdout(spool);
  remove_temp(spool);
  return status;
}

ExitCode run_gen(const GenCommandOptions& c) {
  kestrel::GeneratorOptions o;
  if (!make_options(c, &o)) return ExitCode::kUsage;
  if (c.output == "-") return generate_to_stdout(o, c.json);
  kestrel::GeneratorReport report;
  if (const ExitCode status = generate(c.output, o, &report); status != ExitCode::kOk) return status;
  Output out;
  if (c.json) {
    append_report_json(out.buffer(), c.output, o, report);
  } else {
    append_report_text(out.buffer(), report);
  }
  return finish_output(&out, ExitCode::kOk);
}

}  // namespace

void add_gen_command(CLI::App* app, ExitCode* status) {
  auto c = std::make_shared<GenCommandOptions>();
  auto* command = app->add_subcommand("gen", "Write deterministic synthetic journals");
  command->add_option("format", c->format, "The journal format: kestrel")
      ->required()
      ->check(CLI::IsMember({"kestrel"}));
  command
      ->add_option("-o,--output", c->output,
                   "The journal file to write (- for standard output), or with --segments the queue directory")
      ->required();
  auto* records = command->add_option("--records", c->records, "Target number of records (default 1000)");
  command->add_option("--size", c->size, "Target size in bytes (suffixes K, M, G)")->excludes(records);
  command->add_option("--payload-size", c->payload_size, "Payload bytes: N or MIN-MAX (default 32-256)");
  auto* share =
      command
          ->add_option("--remove-share", c->remove_share, "Fraction of the items added that are removed (default 0.5)")
          ->check(CLI::Range(0.0, 1.0));
  command->add_option("--live", c->live, "Instead: keep this many items queued, removing the rest")->excludes(share);
  command->add_option("--transactional", c->transactional, "Fraction of removes made in transactions (default 0.5)")
      ->check(CLI::Range(0.0, 1.0));
  command->add_option("--open", c->open, "Transactions left open at the end (default 0)");
  command->add_option("--seed", c->seed, "Seed: the same seed and options give the same bytes (default 1)");
  add_time_option(command, "--add-time", &c->add_time,
                  "Add time of the first item (epoch ms, ISO 8601, -2h; default 1700000000000); +1 ms per item");
  command->add_flag("--binary", c->binary, "Payload bytes 0-255 instead of printable ASCII");
  command->add_option("--segments", c->segments, "Write a queue directory: N-1 archived segments and the live file");
  command->add_option("--queue", c->queue, "With --segments, the queue's name (default q)");
  command->add_option("--corrupt", c->corrupt, "Damage the journal: truncate, flip or garbage")
      ->check(CLI::IsMember({"none", "truncate", "flip", "garbage"}));
  command->add_flag("--force", c->force, "Replace existing files");
  command->add_flag("--json", c->json, "Print the report as one JSON object");
  command->callback([c, status] { *status = run_gen(*c); });
}

}  // namespace qjt::app
