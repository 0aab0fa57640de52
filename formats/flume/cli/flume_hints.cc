#include "flume/cli/flume_hints.h"

#include <fmt/format.h>

#include "path_name.h"

namespace qjt::cli {
namespace {

// {channel}: the channel's directory options; {event}: FILE_ID:OFFSET of
// the record the finding is at; {checkpoint}: how to replace a refused
// checkpoint (the backup when one is named, else a rebuild from the logs).
constexpr HintRule kHints[] = {
    {"crc_mismatch", "qjt repair --apply --drop-event {event} {channel}"},
    {"broken_record", "qjt repair --apply {channel}"},
    {"checkpoint_unusable", "qjt repair --apply {checkpoint} {channel}"},
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
  return [channel = channel_words(flume), backup = !flume.backup_dir.empty(), channel_named](const Finding& f) {
    const std::string_view command = find_hint(kHints, f.code);
    if (command.empty() || !channel_named) return std::string();
    return fmt::format(fmt::runtime(command), fmt::arg("channel", channel), fmt::arg("event", event_of(f)),
                       fmt::arg("checkpoint", backup ? "--restore-backup" : "--rebuild-checkpoint"));
  };
}

}  // namespace qjt::cli
