// qjt convert: a journal or log to JSON Lines and back, and version
// upgrades; by the driver that writes the --to target (--to jsonl: the
// driver of INPUT's family). A file output is written beside OUTPUT and
// renamed over it: OUTPUT is either the old file or the whole new one. An
// existing OUTPUT is refused without --force (named_output.h).
#include <filesystem>

#include <fmt/format.h>

#include "command_support.h"
#include "command_table.h"
#include "dispatch.h"
#include "named_output.h"
#include "output.h"
#include "registry.h"
#include "value_options.h"
#include "value_set.h"

namespace qjt::cli {
namespace {

bool same_file(const std::string& a, const std::string& b) {
  if (a == b) return true;
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec) && !ec;
}

// What holds for every family: the output never overwrites the input nor,
// without --force, any existing file, and binary output never goes to a
// terminal. (--to libkestrel writes into the directory OUTPUT; flume-v3
// has no OUTPUT.)
ExitCode run_convert(const ConvertRequest& r, const FamilyOptions& families) {
  if (!r.data.empty() && r.to != "jsonl") return usage_error("convert", "--data applies to --to jsonl only");
  if (r.add_time && r.to != "kestrel2" && r.to != "libkestrel")
    return usage_error("convert", "--add-time applies to --to kestrel2 and libkestrel only");
  if (r.output != "-" && r.input != "-" && !r.input.empty() && same_file(r.input, r.output))
    return usage_error("convert", fmt::format("refusing to write the output over the input {}", r.input));
  if (r.to != "libkestrel" && r.to != "flume-v3")
    if (auto refused = refuse_existing_outputs({"convert", r.guard, families.drivers()}, {r.output})) return *refused;
  if (r.output == "-" && r.to != "jsonl" && r.to != "flume-v3" && stdout_is_terminal())
    return usage_error("convert", "refusing to write a binary journal to a terminal: use -o OUTPUT or a redirect");
  return run_convert_command(r, families);
}

}  // namespace

void add_convert_command(CLI::App* app, std::string_view name, ExitCode* status) {
  auto request = std::make_shared<ConvertRequest>();
  auto* command = app->add_subcommand(
      std::string(name),
      "Convert a journal, a Kestrel 3 queue or a Flume log to JSON Lines (and back, but for Kestrel 3), a 1.x journal "
      "to 2.x opcodes, a classic queue to Kestrel 3 and back, or a Flume V2 checkpoint to V3");
  command
      ->add_option("--to", request->to,
                   "jsonl, kestrel (from JSON Lines), kestrel2 (upgrade 1.x), libkestrel or classic (Kestrel 3), "
                   "flume-log (from JSON Lines) or flume-v3 (upgrade a V2 checkpoint)")
      ->required()
      ->check(value_set(convert_targets(registry(), name)));
  command->add_option("input", request->input,
                      "The journal, queue directory or Flume log (JSON Lines for --to kestrel and flume-log), or - "
                      "for stdin; none for flume-v3");
  command->add_option("-o,--output", request->output, "Write here, atomically (default: - for standard output)");
  add_data_option(command, &request->data);
  add_write_guard_options(command, &request->guard,
                          "Replace an existing OUTPUT (never one in use; a journal, queue or channel file is backed "
                          "up first); flume-v3: upgrade although the channel is in use");
  add_time_option(
      command, "--add-time", &request->add_time,
      "kestrel2, libkestrel: add time of legacy ADDs (any form of qjt(1)'s TIME VALUES; default: the input's mtime)");
  auto families = std::make_shared<FamilyOptions>(command, name, Inputs::kRead, registry());
  command->callback([request, families, status] { *status = run_convert(*request, *families); });
}

}  // namespace qjt::cli
