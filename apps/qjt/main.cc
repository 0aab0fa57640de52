// qjt: inspect and repair the journals and checkpoints of message queues.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>

#include "byte_size.h"
#include "commands.h"
#include "input_file.h"
#include "interrupt.h"

#ifndef QJT_VERSION
#define QJT_VERSION "unknown"
#endif

namespace {

// --max-input SIZE on every command that reads inputs: how much of a stream
// (standard input, a FIFO, a device) is read before qjt stops with an
// input_too_large finding. Set as it is parsed, before the command runs.
void add_max_input_option(CLI::App* command) {
  command
      ->add_option_function<std::string>(
          "--max-input",
          [](const std::string& text) {
            const auto bytes = qjt::parse_byte_size(text);
            if (!bytes) throw CLI::ValidationError("--max-input", "expected a size such as 65536, 64K, 1M or 4G");
            qjt::InputFile::set_stream_limit(*bytes);
          },
          "Read at most SIZE bytes of standard input, a FIFO or a device (64K, 1M, 4G; default 4G)")
      ->type_name("SIZE");
}

// Files that shrank while the command read them (InputFile::change): one
// file_changed finding each on standard error, and at least exit status 1,
// whatever the command and family.
qjt::ExitCode report_changed_files(qjt::ExitCode status) {
  qjt::StderrReporter reporter;
  for (qjt::Finding& change : qjt::InputFile::take_changes()) {
    reporter.report(std::move(change));
    status = qjt::worse(status, qjt::ExitCode::kProblems);
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  qjt::install_interrupt_handlers(argc, argv);
  CLI::App app{"qjt: inspect, verify, replay, compact and repair message-queue journals", "qjt"};
  app.set_version_flag("--version", "qjt " QJT_VERSION);
  app.require_subcommand(1);
  app.fallthrough(false);

  qjt::ExitCode status = qjt::ExitCode::kOk;
  qjt::app::add_dump_command(&app, &status);
  qjt::app::add_verify_command(&app, &status);
  qjt::app::add_replay_command(&app, &status);
  qjt::app::add_compact_command(&app, &status);
  qjt::app::add_convert_command(&app, &status);
  qjt::app::add_repair_command(&app, &status);
  qjt::app::add_gen_command(&app, &status);
  qjt::app::add_help_command(&app, &status);
  for (const char* reader : {"dump", "verify", "replay", "compact", "convert", "repair"})
    add_max_input_option(app.get_subcommand(reader));

  // --json callers get their errors as JSON too, whatever stops the run.
  const bool json = std::any_of(argv + 1, argv + argc, [](const char* arg) { return std::strcmp(arg, "--json") == 0; });
  qjt::app::set_json_errors(json);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints help, version or the error
    if (code == 0) return 0;
    if (json) qjt::app::write_error_json("", qjt::ExitCode::kUsage, e.what());
    return qjt::to_int(qjt::ExitCode::kUsage);
  } catch (const std::exception& e) {
    // The last resort: no exception (std::bad_alloc included) ends qjt
    // with an abort and a core instead of a message and exit status 3.
    std::fflush(stdout);
    return qjt::to_int(qjt::app::report_error("", qjt::ExitCode::kIoError, fmt::format("stopped: {}", e.what())));
  } catch (...) {
    std::fflush(stdout);
    return qjt::to_int(qjt::app::report_error("", qjt::ExitCode::kIoError, "stopped: an unknown exception"));
  }
  return qjt::to_int(report_changed_files(status));
}
