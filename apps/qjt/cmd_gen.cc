// qjt gen FORMAT: deterministic synthetic journals for fixtures and
// benchmarks. The options every family shares are parsed here into a
// GenRequest; FORMAT picks the driver (driver.h), whose own options are a
// group of their own in --help and whose generator lives in formats/.
#include <algorithm>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "byte_size.h"
#include "command_support.h"
#include "command_table.h"
#include "driver.h"
#include "named_output.h"
#include "registry.h"
#include "value_options.h"

namespace qjt::cli {
namespace {

// gen's first add time unless --add-time: fixed, so that fixtures repeat.
constexpr std::int64_t kDefaultAddTime = 1700000000000;

struct GenCommandOptions {
  std::string format;
  std::string size;
  std::string payload_size;
  std::optional<std::int64_t> add_time;
  GenRequest request;
  // Each generating driver and the options it added.
  std::vector<std::pair<Driver*, std::vector<CLI::Option*>>> families;
};

bool usage(const std::string& message) {
  usage_error("gen", message);
  return false;
}

// --size and --payload-size into the request.
bool parse_sizes(GenCommandOptions* c) {
  GenRequest& r = c->request;
  if (!c->size.empty()) {
    const auto size = parse_byte_size(c->size);
    if (!size || *size == 0)
      return usage(fmt::format("--size {}: expected a byte count such as 1048576, 64K, 1M or 1G", c->size));
    r.size = *size;
  }
  if (!c->payload_size.empty()) {
    const auto dash = c->payload_size.find('-');
    const auto min = parse_byte_size(c->payload_size.substr(0, dash));
    const auto max = dash == std::string::npos ? min : parse_byte_size(c->payload_size.substr(dash + 1));
    if (!min || !max || *max > std::numeric_limits<std::uint32_t>::max())
      return usage(fmt::format("--payload-size {}: expected N or MIN-MAX, in bytes", c->payload_size));
    r.payload_min = static_cast<std::uint32_t>(*min);
    r.payload_max = static_cast<std::uint32_t>(*max);
  }
  r.add_time = c->add_time.value_or(kDefaultAddTime);
  return true;
}

// An option of another family than FORMAT's is refused, naming its family.
bool options_match(const GenCommandOptions& c, const Driver* chosen) {
  for (const auto& [driver, owned] : c.families) {
    if (driver == chosen) continue;
    for (const CLI::Option* option : owned)
      if (option->count() > 0)
        return usage(fmt::format("{} is an option for {} ({}), but gen writes {}", option->get_name(), driver->name(),
                                 driver->title(), chosen->name()));
  }
  return true;
}

bool corruption_known(const Driver* driver, const std::string& mode) {
  const auto modes = driver->corruptions();
  if (mode == "none" || std::find(modes.begin(), modes.end(), mode) != modes.end()) return true;
  return usage(fmt::format("--corrupt {}: the modes of {} are none, {}", mode, driver->name(), fmt::join(modes, ", ")));
}

ExitCode run_gen(GenCommandOptions* c) {
  Driver* driver = nullptr;
  for (const auto& family : c->families)
    if (family.first->name() == c->format) driver = family.first;
  if (!parse_sizes(c) || !options_match(*c, driver) || !corruption_known(driver, c->request.corrupt))
    return ExitCode::kUsage;
  // An existing file at -o is refused as every -o refuses it (a directory
  // is the family's to judge: it may be written into).
  std::error_code ec;
  if (!std::filesystem::is_directory(c->request.output, ec)) {
    WriteGuardOptions guard;
    guard.force = c->request.force;
    if (auto refused = refuse_existing_outputs({"gen", guard, registry()}, {c->request.output})) return *refused;
  }
  return driver->gen(c->request);
}

// The names of the families that generate, for FORMAT's check.
std::vector<std::string> generating_names(Registry drivers) {
  std::vector<std::string> names;
  for (const Driver* d : drivers)
    if (!d->generates().empty()) names.emplace_back(d->name());
  return names;
}

// FORMAT's help: each name and what it writes.
std::string formats_written(Registry drivers) {
  std::vector<std::string> entries;
  for (const Driver* d : drivers)
    if (!d->generates().empty()) entries.push_back(fmt::format("{} ({})", d->name(), d->generates()));
  return fmt::format("The format: {}", fmt::join(entries, "; "));
}

}  // namespace

void add_gen_command(CLI::App* app, ExitCode* status) {
  auto c = std::make_shared<GenCommandOptions>();
  GenRequest& r = c->request;
  auto* command = app->add_subcommand("gen", "Write deterministic synthetic journals of every format");
  const auto names = generating_names(registry());
  command->add_option("format", c->format, formats_written(registry()))->required()->check(CLI::IsMember(names));
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
  command->add_option("--corrupt", r.corrupt, "Damage what is written: a mode of the format's (default none)");
  command->add_flag("--force", r.force, "Replace existing files");
  command->add_flag("--json", r.json, "Print the report as one JSON object");
  for (Driver* d : registry()) {
    if (d->generates().empty()) continue;
    const std::size_t before = command->get_options().size();
    d->add_gen_options(command);
    std::vector<CLI::Option*> owned = command->get_options();
    owned.erase(owned.begin(), owned.begin() + static_cast<std::ptrdiff_t>(before));
    for (CLI::Option* option : owned) option->group(std::string(d->title()));
    c->families.emplace_back(d, std::move(owned));
  }
  command->callback([c, status] { *status = run_gen(c.get()); });
}

}  // namespace qjt::cli
