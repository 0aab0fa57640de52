// What every command shares, whatever the family: the global options, the
// PATH selection, verify's tally and report, and the one path for errors
// and remarks. The commands (apps/qjt) and the families' drivers
// (formats/*/cli) build on it.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "exit_code.h"
#include "finding.h"
#include "json_writer.h"
#include "output.h"

namespace qjt::cli {

// The options every command takes, added by main() to each subcommand so
// that a new command gets them too: -q/--quiet (only errors on standard
// error, quiet.h), --no-progress and --color=auto|always|never
// (progress.h, colour.h), set before the command runs. Also refuses
// (exit 2) a negative value of any unsigned option, which CLI11 would
// otherwise wrap around.
void add_global_options(CLI::App* command);
// The same options on qjt itself, for the words before the command
// (`qjt -q verify PATH`), with the same effect. Given both before and after
// the command, the one after wins (as in git and ripgrep, the option
// nearer the command line's end).
void add_global_options_before_command(CLI::App* app);

// Adds --data=text|base64|hex|none bound to *mode_name.
CLI::Option* add_data_option(CLI::App* command, std::string* mode_name);

// Adds the PATH... arguments and --queue that select journals. PATH is
// optional for the commands that also take a Flume channel's directories.
void add_journal_selection(CLI::App* command, std::vector<std::string>* paths, std::string* queue, bool required);

// What verify found in the inputs of one family. A run over PATHs of
// several families adds the tallies up into one report.
struct VerifyTally {
  FindingList findings;
  std::uint64_t files = 0, records = 0;
  ExitCode status = ExitCode::kOk;  // kIoError when something could not be read
  // What a family adds to the report (Canal's --metrics stores): members of
  // the JSON object (a key and its rendered value), and lines after the text.
  std::vector<std::pair<std::string, std::string>> json_members;
  std::string text_lines;
  void add(const VerifyTally& other);
};

// verify's exit status over `tally`: the tally's own, or kProblems when it
// has an error (a warning too when `strict`) or read no file at all
// (nothing verified is no pass).
ExitCode verify_status(const VerifyTally& tally, bool strict);

// verify's report for any format, whose run ends with `status`
// (verify_status): one JSON object ({"ok","files","records","errors",
// "warnings","findings"} and the tally's json_members; "ok" only when
// `status` is kOk) or one line per finding and a summary, OK only when
// `status` is kOk and saying "nothing verified" when no file was read
// (with `quiet`, no warning unless `strict`, and no summary when all is
// well), then the tally's text_lines.
// With `unit` (a walk's, walk_report.h), the text summary names it:
// "OK UNIT: ...".
void write_verify_report(Output* out, const VerifyTally& tally, ExitCode status, bool json, bool strict, bool quiet,
                         std::string_view unit = "");

// The file_changed findings of the files read (InputFile::take_changes):
// each told on standard error (but io_error findings, which the report's
// print_io_errors tells) and added, with its exit status, to the tally
// `tally_of` names for it.
void add_file_changes(const std::function<VerifyTally*(const Finding&)>& tally_of);

// write_verify_report over `tally` and the file_changed findings of the
// files it read (InputFile::take_changes; also on standard error), then
// the exit status. The io_error findings also go to standard error, in
// every mode (print_io_errors).
ExitCode finish_verify(const VerifyTally& tally, bool json, bool strict, bool quiet);

// The value of a repair report's "verify" member: {"ok","errors",
// "warnings","findings"} over what verify found after the repair.
void write_verify_json(JsonWriter* out, const FindingList& verified);
// The same, or null when nothing was changed (nothing verified).
void write_optional_verify_json(JsonWriter* out, const std::optional<FindingList>& verified);
// For a writer whose text report says nothing of a clean verify: each
// error found after the change, a line each, then their count; "" when
// there is none.
std::string verify_errors_text(const std::optional<FindingList>& verified);

// The one path for an error that ends a command before or instead of its
// output (a usage error, a refusal): "qjt COMMAND: MESSAGE" on stderr
// ("qjt: MESSAGE" when `command` is empty) and, when --json is on the
// command line (set_json_errors), one JSON object on stdout as well, so that
// a caller piping into jq always gets JSON (qjt-json(5)):
//   {"type":"error","command":C,"exit_status":N,"message":M}
// Returns `status`.
ExitCode report_error(std::string_view command, ExitCode status, std::string_view message);
inline ExitCode usage_error(std::string_view command, std::string_view message) {
  return report_error(command, ExitCode::kUsage, message);
}
// An error told on standard error only ("qjt COMMAND: MESSAGE", "qjt:
// MESSAGE" when `command` is empty), never left out by --quiet, for a
// command whose report (or report_error's JSON) still follows.
void tell(std::string_view command, std::string_view message);
// A remark on standard error that is no error ("qjt COMMAND: MESSAGE"):
// left out with --quiet (quiet.h).
void note(std::string_view command, std::string_view message);

// The JSON object alone, for errors already printed (CLI11's parse errors).
void write_error_json(std::string_view command, ExitCode status, std::string_view message);
// Set once by main(), from the command line, before anything runs.
void set_json_errors(bool json);

// The time of an input's legacy items, which carry none (Kestrel 1.x ADDs),
// in epoch ms: `given` (--add-time) when set, else INPUT's modification
// time, else (a pipe, a device) now.
std::int64_t input_time_ms(const std::string& input, std::optional<std::int64_t> given);

// compact --if-reclaimable: why a compaction that would free `freed` bytes
// is skipped, "nothing to do: ..." (man/qjt-compact.1).
std::string reclaimable_skip(std::uint64_t freed, std::uint64_t wanted);

// Flushes `out`; a failed write to stdout makes the status an I/O error.
ExitCode finish_output(Output* out, ExitCode status);

}  // namespace qjt::cli
