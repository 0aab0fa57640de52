#include "stats_report.h"

#include <fstream>

#include <fmt/format.h>

#include "command_support.h"
#include "durable_file.h"
#include "interrupt.h"
#include "named_output.h"
#include "output.h"
#include "stats_json.h"
#include "stats_prometheus.h"
#include "stats_text.h"

namespace qjt::cli {
namespace {

// Whether `path` holds a Prometheus or JSON report of qjt stats, which the
// next run replaces without --force.
bool holds_stats_report(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(64, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return head.starts_with(kStatsMarker) || head.starts_with(R"({"type":"stats")");
}

std::string render(const StatsModel& model, const std::vector<Finding>& findings, StatsStyle style,
                   std::string_view units) {
  std::string text;
  switch (style) {
    case StatsStyle::kText:
      render_stats_text(model, &text);
      break;
    case StatsStyle::kJson:
      render_stats_json(model, findings, &text, units);
      break;
    case StatsStyle::kPrometheus:
      text = fmt::format("{}: what the queues named hold (man qjt-stats)\n", kStatsMarker);
      render_stats_prometheus(model, &text);
      break;
  }
  return text;
}

// A report of qjt stats replaced by the next: renamed over it whatever
// reads it, as the textfile collector requires (it reads a whole file, old
// or new, never half of one).
ExitCode replace_report(std::string_view command, const std::string& path, const FileContent& content) {
  std::string error;
  auto file = ReplacementFile::write(path, Ownership::kNewOutput, content, &error);
  if (file) {
    CommitSection commit;
    if (file->install(&error)) return ExitCode::kOk;
  }
  tell(command, error);
  return ExitCode::kIoError;
}

}  // namespace

std::optional<ExitCode> refuse_stats_output(std::string_view command, const StatsOutput& output) {
  if (output.path == "-" || holds_stats_report(output.path)) return std::nullopt;
  return refuse_existing_outputs(NamedOutput{command, output.guard, {}}, {output.path});
}

ExitCode write_stats_report(std::string_view command, const StatsModel& model, const std::vector<Finding>& findings,
                            const StatsOutput& output, std::string_view units) {
  if (output.style != StatsStyle::kJson) {
    StderrReporter diagnostics;
    for (const Finding& f : findings) diagnostics.report(f);
  }
  const std::string report = render(model, findings, output.style, units);
  if (output.path == "-") {
    // Through the run's sink, as every report is: main() then knows that
    // --json got its object.
    Output out;
    out.write(report);
    return finish_output(&out, ExitCode::kOk);
  }
  const FileContent content = [&report](FileWriter* out, std::string* error) {
    return out->append(ByteSpan(report), error);
  };
  if (holds_stats_report(output.path)) return replace_report(command, output.path, content);
  if (auto refused = refuse_stats_output(command, output)) return *refused;
  return write_named_output(NamedOutput{command, output.guard, {}}, output.path, content);
}

}  // namespace qjt::cli
