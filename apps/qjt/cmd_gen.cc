// qjt gen FORMAT: deterministic synthetic journals for fixtures and
// benchmarks. The options every family shares are parsed here into a
// GenRequest; FORMAT picks the driver (driver.h), whose own options are a
// group of their own in --help and whose generator lives in formats/.
#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "byte_size.h"
#include "command_support.h"
#include "command_table.h"
#include "dispatch.h"
#include "named_output.h"
#include "path_name.h"
#include "registry.h"
#include "value_options.h"
#include "value_set.h"

namespace qjt::cli {
namespace {

// gen's first add time unless --add-time: fixed, so that fixtures repeat.
constexpr std::int64_t kDefaultAddTime = 1700000000000;

struct GenCommandOptions {
  std::string_view name;
  std::string format;
  std::string size;
  std::string payload_size;
  std::optional<std::int64_t> add_time;
  GenRequest request;
};

bool usage(const GenCommandOptions& c, const std::string& message) {
  usage_error(c.name, message);
  return false;
}

// --size and --payload-size into the request.
bool parse_sizes(GenCommandOptions* c) {
  GenRequest& r = c->request;
  if (!c->size.empty()) {
    const auto size = parse_byte_size(c->size);
    if (!size || *size == 0)
      return usage(*c, fmt::format("--size {}: expected a byte count such as 1048576, 64K, 1M or 1G", c->size));
    r.size = *size;
  }
  if (!c->payload_size.empty()) {
    const auto dash = c->payload_size.find('-');
    const auto min = parse_byte_size(c->payload_size.substr(0, dash));
    const auto max = dash == std::string::npos ? min : parse_byte_size(c->payload_size.substr(dash + 1));
    if (!min || !max || *max > std::numeric_limits<std::uint32_t>::max())
      return usage(*c, fmt::format("--payload-size {}: expected N or MIN-MAX, in bytes", c->payload_size));
    r.payload_min = static_cast<std::uint32_t>(*min);
    r.payload_max = static_cast<std::uint32_t>(*max);
  }
  r.add_time = c->add_time.value_or(kDefaultAddTime);
  return true;
}

ExitCode run_gen(GenCommandOptions* c, const FamilyOptions& families) {
  if (!parse_sizes(c)) return ExitCode::kUsage;
  // An existing file at -o is refused as every -o refuses it (a directory
  // is the family's to judge: it may be written into).
  if (!is_directory(c->request.output)) {
    WriteGuardOptions guard;
    guard.force = c->request.force;
    if (auto refused = refuse_existing_outputs({c->name, guard, families.drivers()}, {c->request.output}))
      return *refused;
  }
  return run_gen_command(c->request, c->format, families);
}

// FORMAT's help: each name and what it writes.
std::string formats_written(const std::vector<Generator>& generators) {
  std::vector<std::string> entries;
  for (const Generator& g : generators) entries.push_back(fmt::format("{} ({})", g.name, g.writes));
  return fmt::format("The format: {}", fmt::join(entries, "; "));
}

// --corrupt's help: the modes of each format.
std::string corruptions_help(const std::vector<Generator>& generators) {
  std::vector<std::string> entries;
  for (const Generator& g : generators)
    entries.push_back(fmt::format("{}: {}", g.name, fmt::join(g.corruptions, ", ")));
  return fmt::format("Damage what is written, by a mode of the format's (default none): {}", fmt::join(entries, "; "));
}

// What --corrupt takes: none, and every format's modes.
std::vector<std::string> corruption_values(const std::vector<Generator>& generators) {
  std::vector<std::string> modes{"none"};
  for (const Generator& g : generators) modes.insert(modes.end(), g.corruptions.begin(), g.corruptions.end());
  return modes;
}

}  // namespace

void add_gen_command(CLI::App* app, std::string_view name, ExitCode* status) {
  auto c = std::make_shared<GenCommandOptions>();
  c->name = name;
  GenRequest& r = c->request;
  auto* command = app->add_subcommand(std::string(name), "Write deterministic synthetic journals of every format");
  const auto written = generators(registry(), name);
  std::vector<std::string> names;
  for (const Generator& g : written) names.emplace_back(g.name);
  command->add_option("format", c->format, formats_written(written))->required()->check(value_set(names));
  command
      ->add_option("-o,--output", r.output,
                   "Where to write: the journal file (kestrel; - for standard output) or directory")
      ->required();
  auto* records = command->add_option(
      "--records", r.records,
      "Target: records (kestrel), events put (flume), items (libkestrel), updates (canal); default 1000");
  command->add_option("--size", c->size, "Target size in bytes (suffixes K, M, G)")->excludes(records);
  command->add_option("--payload-size", c->payload_size, "Payload bytes: N or MIN-MAX (default 32-256)");
  command->add_option("--open", r.open, "Transactions left open at the end (default 0)");
  command->add_option("--segments", r.segments,
                      "Write a queue directory: kestrel N-1 archived segments and the live file, libkestrel N "
                      "segments");
  command->add_option("--queue", r.queue, "With --segments (libkestrel: always), the queue's name (default q)");
  command->add_option("--seed", r.seed, "Seed: the same seed and options give the same bytes (default 1)");
  add_time_option(command, "--add-time", &c->add_time,
                  "Time of the first item (epoch ms, ISO 8601, -2h; default 1700000000000); +1 ms per item");
  command->add_option("--corrupt", r.corrupt, corruptions_help(written))->check(value_set(corruption_values(written)));
  command->add_flag("--force", r.force, "Replace existing files");
  command->add_flag("--json", r.json, "Print the report as one JSON object");
  auto families = std::make_shared<FamilyOptions>(command, name, Inputs::kNone, registry());
  command->callback([c, families, status] { *status = run_gen(c.get(), *families); });
}

}  // namespace qjt::cli
