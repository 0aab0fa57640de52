// Options and output handling shared by the subcommands.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "command_support.h"

#include "clock.h"
#include "colour.h"
#include "input_file.h"
#include "json_line.h"
#include "progress.h"
#include "quiet.h"
#include "run_context.h"
#include "value_set.h"

namespace qjt::cli {
namespace {

struct GlobalOptions {
  bool quiet = false;
  bool no_progress = false;
  std::string colour = "auto";
};

GlobalOptions global;

// Progress is drawn on a terminal only; QJT_PROGRESS=always draws it on
// any standard error, from the start (for tests), =never nowhere.
bool progress_forced() {
  const char* forced = std::getenv("QJT_PROGRESS");
  return forced != nullptr && std::strcmp(forced, "always") == 0;
}

bool progress_wanted() {
  if (global.quiet || global.no_progress) return false;
  const char* forced = std::getenv("QJT_PROGRESS");
  if (forced != nullptr && std::strcmp(forced, "never") == 0) return false;
  return progress_forced() || ::isatty(STDERR_FILENO) == 1;
}

// CLI11 reads "-1" into an unsigned option as its two's complement.
void refuse_negative_counts(const CLI::App& command) {
  for (const CLI::Option* option : command.get_options()) {
    if (option->get_type_name().rfind("UINT", 0) != 0) continue;
    for (const std::string& value : option->results())
      if (!value.empty() && value.front() == '-')
        throw CLI::ValidationError(option->get_name(), fmt::format("expected 0 or more, found {}", value));
  }
}

// -q/--quiet, --no-progress and --color on `where` (a command, or qjt
// itself for the words before the command), bound to `global`.
std::vector<CLI::Option*> declare_global_options(CLI::App* where) {
  return {
      where->add_flag("-q,--quiet", global.quiet,
                      "Only errors on standard error: no warnings, no progress, no summary of a clean run"),
      where->add_flag("--no-progress", global.no_progress, "No progress line on standard error"),
      where
          ->add_option("--color", global.colour,
                       "Colour severities: auto (on a terminal, unless NO_COLOR), always, never")
          ->check(value_set({"auto", "always", "never"})),
  };
}

}  // namespace

void add_global_options(CLI::App* command) {
  declare_global_options(command);
  command->parse_complete_callback([command] {
    refuse_negative_counts(*command);
    set_quiet(global.quiet);
    set_colour_mode(*parse_colour_mode(global.colour));
    Progress::enable(progress_wanted(), progress_forced());
  });
}

void add_global_options_before_command(CLI::App* app) {
  // CLI11 stores the options of qjt itself only once the command's words
  // are parsed too, which would let them override those after the
  // command; stored as they are parsed instead, they come first.
  for (CLI::Option* option : declare_global_options(app)) option->trigger_on_parse();
}

CLI::Option* add_data_option(CLI::App* command, std::string* mode_name) {
  return command
      ->add_option("--data", *mode_name, "Payload rendering: text (UTF-8 as data, else data_b64), base64, hex, none")
      ->check(value_set({"text", "base64", "hex", "none"}));
}

void add_journal_selection(CLI::App* command, std::vector<std::string>* paths, std::string* queue, bool required) {
  auto* path =
      command->add_option("path", *paths,
                          required ? "Journal file(s) (grouped into queues by name), a queue directory, or - for stdin"
                                   : "Journal file(s) (grouped into queues by name), a queue directory, - for stdin, "
                                     "or Flume files");
  if (required) path->required();
  command->add_option("--queue", *queue, "In a directory, only this queue");
}

ExitCode verify_status(const VerifyTally& tally, bool strict) {
  const FindingList& findings = tally.findings;
  const bool problems = findings.count(Severity::kError) > 0 || (strict && findings.count(Severity::kWarning) > 0);
  // A run that read no file checked nothing: it does not pass.
  const bool nothing_verified = tally.files == 0;
  return worse(tally.status, problems || nothing_verified ? ExitCode::kProblems : ExitCode::kOk);
}

void write_verify_report(Output* out, const VerifyTally& tally, ExitCode status, bool json, bool strict, bool quiet,
                         std::string_view unit) {
  const FindingList& findings = tally.findings;
  const std::size_t errors = findings.count(Severity::kError);
  const std::size_t warnings = findings.count(Severity::kWarning);
  const bool ok = status == ExitCode::kOk;
  if (json) {
    JsonLine line(out->buffer(), JsonType::kReport);
    line.boolean("ok", ok).unsigned_num("files", tally.files).unsigned_num("records", tally.records);
    line.unsigned_num("errors", errors).unsigned_num("warnings", warnings);
    line.key("findings");
    write_findings_json(&line, findings.findings());
    for (const auto& [key, value] : tally.json_members) line.raw(key, value);
    line.finish();
    return;
  }
  const bool colour = colour_on(stdout);
  for (const Finding& f : findings.findings())
    if (!quiet || strict || f.severity == Severity::kError) out->write(format_finding(f, colour) + "\n");
  if (!quiet || !ok) {
    out->write(fmt::format("{}{}{}: {} error(s), {} warning(s) in {} file(s), {} record(s){}\n", ok ? "OK" : "FAILED",
                           unit.empty() ? "" : " ", unit, errors, warnings, tally.files, tally.records,
                           tally.files == 0 ? "; nothing verified" : ""));
  }
  out->write(tally.text_lines);
}

void VerifyTally::add(const VerifyTally& other) {
  for (const Finding& f : other.findings.findings()) findings.report(f);
  files += other.files;
  records += other.records;
  status = worse(status, other.status);
  json_members.insert(json_members.end(), other.json_members.begin(), other.json_members.end());
  text_lines += other.text_lines;
}

void add_file_changes(const std::function<VerifyTally*(const Finding&)>& tally_of) {
  for (Finding& change : InputFile::take_changes()) {
    if (change.code != "io_error") StderrReporter().report(change);  // print_io_errors tells those
    VerifyTally* tally = tally_of(change);
    tally->status = worse(tally->status, InputFile::change_status(change));
    tally->findings.report(std::move(change));
  }
}

ExitCode finish_verify(const VerifyTally& tally, bool json, bool strict, bool quiet) {
  // A file that shrank under the read is a finding of the report too, not
  // only of standard error (main() reports what is left there).
  VerifyTally reported = tally;
  add_file_changes([&reported](const Finding&) { return &reported; });
  print_io_errors(reported.findings.findings());
  const ExitCode status = verify_status(reported, strict);
  Output out;
  write_verify_report(&out, reported, status, json, strict, quiet);
  return finish_output(&out, status);
}

void write_verify_json(JsonWriter* out, const FindingList& verified) {
  const std::size_t errors = verified.count(Severity::kError);
  out->begin_object().boolean("ok", errors == 0).unsigned_num("errors", errors);
  out->unsigned_num("warnings", verified.count(Severity::kWarning)).key("findings");
  write_findings_json(out, verified.findings());
  out->end_object();
}

void write_optional_verify_json(JsonWriter* out, const std::optional<FindingList>& verified) {
  if (verified) {
    write_verify_json(out, *verified);
  } else {
    out->null();
  }
}

std::string verify_errors_text(const std::optional<FindingList>& verified) {
  const std::size_t errors = verified ? verified->count(Severity::kError) : 0;
  if (errors == 0) return "";
  std::string text;
  for (const Finding& f : verified->findings())
    if (f.severity == Severity::kError) text += "  " + format_finding(f, colour_on(stdout)) + "\n";
  return text + fmt::format("  verify after the change: {} error(s)\n", errors);
}

void set_json_errors(bool json) { RunContext::process().settings().json_errors = json; }

void write_error_json(std::string_view command, ExitCode status, std::string_view message) {
  std::string line;
  JsonLine(&line, JsonType::kError)
      .str("command", command)
      .num("exit_status", to_int(status))
      .str("message", message)
      .finish();
  Output out;
  out.write(line);
}

void tell(std::string_view command, std::string_view message) {
  if (command.empty()) {
    write_stderr(fmt::format("qjt: {}\n", message));
  } else {
    write_stderr(fmt::format("qjt {}: {}\n", command, message));
  }
}

ExitCode report_error(std::string_view command, ExitCode status, std::string_view message) {
  tell(command, message);
  if (RunContext::current().settings().json_errors) write_error_json(command, status, message);
  return status;
}

void note(std::string_view command, std::string_view message) {
  if (quiet()) return;
  write_stderr(fmt::format("qjt {}: {}\n", command, message));
}

std::int64_t input_time_ms(const std::string& input, std::optional<std::int64_t> given) {
  if (given) return *given;
  struct stat st {};
  const int rc = input == "-" ? ::fstat(STDIN_FILENO, &st) : ::stat(input.c_str(), &st);
  if (rc == 0 && S_ISREG(st.st_mode)) return std::int64_t{st.st_mtim.tv_sec} * 1000 + st.st_mtim.tv_nsec / 1000000;
  return now_ms();
}

std::string reclaimable_skip(std::uint64_t freed, std::uint64_t wanted) {
  return fmt::format("nothing to do: {} bytes would be freed, less than --if-reclaimable {}", freed, wanted);
}

ExitCode finish_output(Output* out, ExitCode status) {
  out->flush();
  if (!out->failed()) return status;
  write_stderr(fmt::format("qjt: cannot write to standard output\n"));
  return worse(status, ExitCode::kIoError);
}

}  // namespace qjt::cli
