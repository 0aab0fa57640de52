#include "stats_report.h"

#include <algorithm>
#include <fstream>

#include <fmt/format.h>

#include "clock.h"
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

constexpr StatsMetric kUp{"up", StatsUnit::kCount, "1 when qjt read the unit, 0 when it could not (no other figures)."};
constexpr StatsMetric kFindings{"findings", StatsUnit::kCount, "The unit's findings of the severity."};
constexpr StatsMetric kStarted{"started", StatsUnit::kTime, "When the run of qjt stats that wrote the report started."};

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

void StatsHealth::unit(const std::string& name, bool read, const std::vector<Finding>& findings) {
  auto it = std::find_if(units_.begin(), units_.end(), [&](const Unit& u) { return u.name == name; });
  if (it == units_.end()) it = units_.insert(units_.end(), Unit{name});
  it->read = it->read && read;
  for (const Finding& f : findings) ++(f.severity == Severity::kError ? it->errors : it->warnings);
}

bool StatsHealth::read_any() const {
  return std::any_of(units_.begin(), units_.end(), [](const Unit& u) { return u.read; });
}

void StatsHealth::add_to(StatsModel* model, std::int64_t started_ms) const {
  model->entity("run", {}).set(kStarted, StatsValue::milliseconds(started_ms));
  for (const Unit& u : units_) {
    StatsEntity& unit = model->entity("unit", {{"path", u.name}});
    unit.set(kUp, StatsValue::whole(u.read ? 1 : 0));
    StatsTable& findings = unit.table("unit", {"severity"}, {kFindings});
    findings.add_row({severity_name(Severity::kError)}, {StatsValue::whole(u.errors)});
    findings.add_row({severity_name(Severity::kWarning)}, {StatsValue::whole(u.warnings)});
  }
}

std::optional<ExitCode> refuse_stats_output(std::string_view command, const StatsOutput& output) {
  if (output.path == "-" || holds_stats_report(output.path)) return std::nullopt;
  return refuse_existing_outputs(NamedOutput{command, output.guard, {}}, {output.path});
}

ExitCode write_stats_report(std::string_view command, const StatsModel& model, const std::vector<Finding>& findings,
                            const StatsOutput& output, std::string_view units, const StatsHealth* health) {
  if (output.style != StatsStyle::kJson) {
    StderrReporter diagnostics;
    for (const Finding& f : findings) diagnostics.report(f);
  }
  if (health != nullptr && !health->read_any() && output.path != "-") {
    tell(command, fmt::format("nothing was read: {} left as it was", output.path));
    return ExitCode::kIoError;
  }
  std::string report;
  if (health != nullptr && output.style == StatsStyle::kPrometheus) {
    StatsModel with_health = model;
    health->add_to(&with_health, now_ms());
    report = render(with_health, findings, output.style, units);
  } else {
    report = render(model, findings, output.style, units);
  }
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
