// The files a command writes at a PATH the user names (convert -o,
// compact -o): the one rule for all of them.
//
//   - A PATH that exists is refused (kUsage, no byte changed) unless
//     --force: before any work (refuse_existing_outputs), and again at the
//     rename, which never replaces a file that appeared meanwhile
//     (RENAME_NOREPLACE).
//   - With --force over an existing file, the replacement goes through
//     guarded_replace: refused (kInUse) while another process has the file
//     open or holds the lock of its directory's owner (Flume's in_use.lock),
//     whatever --force says (replacing a file under its owner loses what it
//     writes next); a file a family positively claims (a journal, a queue's
//     segment or bookmark, a Flume file, a Canal cursor) is copied first to
//     a backup (--backup-to, --no-backup, --keep-backups as compact's), a
//     file no family claims is just replaced.
//   - Either way the new files are complete and fsynced before the first
//     rename, and the renames are one CommitSection (interrupt.h).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "driver.h"
#include "durable_file.h"
#include "exit_code.h"
#include "guarded_replace.h"

namespace qjt::cli {

struct NamedOutput {
  std::string_view command;  // for the messages: "convert"
  WriteGuardOptions guard;   // --force, --backup-to, --no-backup, --keep-backups
  Registry drivers{};        // which files a family claims
};

// kUsage (told on stderr) when one of `paths` exists and --force was not
// given; nullopt when the command may go on. "-" is standard output.
std::optional<ExitCode> refuse_existing_outputs(const NamedOutput& output, const std::vector<std::string>& paths);

// Installs `files` (written and fsynced, each at its path()) in order, by
// the rule above; on any failure none of them is installed and the
// reason is told on stderr (an io_error, a refusal). A verify failure
// cannot happen here: what is installed is what the command wrote.
ExitCode install_outputs(const NamedOutput& output, std::vector<std::unique_ptr<ReplacementFile>> files);

// One file output: "-" for standard output (written as the content comes),
// else ReplacementFile::write and install_outputs.
ExitCode write_named_output(const NamedOutput& output, const std::string& path, const FileContent& content);

}  // namespace qjt::cli
