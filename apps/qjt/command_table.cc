#include "command_table.h"

namespace qjt::cli {
namespace {

constexpr CommandRow kCommands[] = {
    {"dump", add_dump_command, kReadsInputs | kWalksPaths | kShowsValues | kRunsJobs | kByFamilies},
    {"verify", add_verify_command, kReadsInputs | kWalksPaths | kShowsValues | kRunsJobs | kByFamilies},
    {"replay", add_replay_command, kReadsInputs | kWalksPaths | kShowsValues | kRunsJobs | kByFamilies},
    {"stats", add_stats_command, kReadsInputs | kWalksPaths | kShowsValues | kRunsJobs | kByFamilies},
    {"compact", add_compact_command, kReadsInputs | kShowsValues | kRunsJobs | kByFamilies},
    {"convert", add_convert_command, kReadsInputs | kShowsValues | kByFamilies},
    {"repair", add_repair_command, kReadsInputs | kShowsValues | kRunsJobs | kByFamilies},
    {"gen", add_gen_command, kShowsValues | kByFamilies},
    {"help", add_help_command, 0},
    {"completion", add_completion_command, 0},
};

}  // namespace

std::span<const CommandRow> command_table() { return kCommands; }

std::vector<std::string_view> family_commands() {
  std::vector<std::string_view> names;
  for (const CommandRow& row : kCommands)
    if ((row.takes & kByFamilies) != 0) names.push_back(row.name);
  return names;
}

}  // namespace qjt::cli
