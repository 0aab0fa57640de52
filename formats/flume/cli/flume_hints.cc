#include "flume/cli/flume_hints.h"

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "flume/checkpoint_file.h"
#include "path_name.h"

namespace qjt::cli {
namespace {

// {channel}: the channel's directory options; {event}: FILE_ID:OFFSET of
// the record the finding is at; {checkpoint}: how to replace a refused
// checkpoint (the backup when one is named, else a rebuild from the logs).
constexpr HintRule kHints[] = {
    {"crc_mismatch", "qjt repair --apply --drop-event {event} {channel}"},
    {"broken_record", "qjt repair --apply {channel}"},
    {"checkpoint_unusable", "qjt repair --apply {checkpoint} {channel}{capacity}"},
    // A checkpoint or inflight file Flume refuses, told before the refusal.
    {"checkpoint_length", "qjt repair --apply {checkpoint} {channel}{capacity}"},
    {"inflight_checksum", "qjt repair --apply {checkpoint} {channel}{capacity}"},
};

std::string channel_words(const FlumeOptions& flume) {
  std::string words =
      fmt::format("--checkpoint-dir {}",
                  flume.checkpoint_dir.empty() ? std::string("CHECKPOINT_DIR") : shell_word(flume.checkpoint_dir));
  std::string data_dirs;
  for (const std::string& dir : flume.data_dirs) data_dirs += (data_dirs.empty() ? "" : ",") + dir;
  words += fmt::format(" --data-dir {}", data_dirs.empty() ? std::string("DATA_DIR") : shell_word(data_dirs));
  if (!flume.backup_dir.empty()) words += fmt::format(" --backup-dir {}", shell_word(flume.backup_dir));
  for (const std::string& key : flume.keys) words += fmt::format(" --key {}=KEY", key.substr(0, key.find('=')));
  return words;
}

// What the operator fills in, said after the command as a shell comment:
// the key is never printed, and a rebuild without a checkpoint to size it
// needs the channel's capacity.
std::string placeholders(const FlumeOptions& flume, bool capacity_placeholder) {
  std::vector<std::string> notes;
  if (capacity_placeholder)
    notes.emplace_back(
        "CAPACITY: the channel's capacity in the agent's configuration (agent.channels.NAME.capacity; Flume's "
        "default is 1000000)");
  if (!flume.keys.empty())
    notes.emplace_back("KEY: the key in hexadecimal, as given to this run with --key (not printed)");
  if (notes.empty()) return "";
  std::string text = "  # " + notes.front();
  for (std::size_t i = 1; i < notes.size(); ++i) text += "; " + notes[i];
  return text;
}

// Whether --rebuild-checkpoint would find no checkpoint to take the
// capacity from (repair's current_capacity).
bool no_checkpoint_to_size(const FlumeOptions& flume) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(std::filesystem::path(flume.checkpoint_dir) / "checkpoint", ec);
  return ec || !flume::capacity_of_checkpoint_size(size);
}

// "N:OFFSET" of a finding in log-N; "FILE_ID:OFFSET" when unknown.
std::string event_of(const Finding& f) {
  const std::string name = base_name(f.file);
  if (!name.starts_with("log-") || !f.offset) return "FILE_ID:OFFSET";
  return fmt::format("{}:{}", name.substr(4), *f.offset);
}

}  // namespace

HintFor flume_hints(const FlumeOptions& flume) {
  // A hint is a command that runs as printed: without the channel's
  // directories (files given by PATH) there is none.
  const bool channel_named = !flume.checkpoint_dir.empty() && !flume.data_dirs.empty();
  const bool backup = !flume.backup_dir.empty();
  // The rebuild's --capacity: none when the checkpoint there sizes it, the
  // one given, else a placeholder.
  std::string capacity;
  if (channel_named && !backup && no_checkpoint_to_size(flume))
    capacity = flume.capacity ? fmt::format(" --capacity {}", *flume.capacity) : " --capacity CAPACITY";
  const bool capacity_placeholder = capacity.ends_with("CAPACITY");
  return [channel = channel_words(flume), backup, capacity, with_key = placeholders(flume, false),
          with_capacity = placeholders(flume, capacity_placeholder), channel_named](const Finding& f) {
    const std::string_view command = find_hint(kHints, f.code);
    if (command.empty() || !channel_named) return std::string();
    const bool rebuild = command.find("{checkpoint}") != std::string_view::npos;
    return fmt::format(fmt::runtime(command), fmt::arg("channel", channel), fmt::arg("event", event_of(f)),
                       fmt::arg("checkpoint", backup ? "--restore-backup" : "--rebuild-checkpoint"),
                       fmt::arg("capacity", rebuild ? capacity : "")) +
           (rebuild ? with_capacity : with_key);
  };
}

}  // namespace qjt::cli
