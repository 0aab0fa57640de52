#include "walk_report.h"

#include <fmt/format.h>

#include "colour.h"
#include "json_line.h"
#include "output.h"
#include "path_name.h"

namespace qjt::cli {
namespace {

// What a unit is, in a word or a few: a site's own words, else how the
// walk took it.
std::string what_of(const ReadUnit& unit) {
  if (unit.site_driver != nullptr) return unit.what;
  if (unit.paths.size() == 1 && unit.paths.front() == unit.path) return is_directory(unit.path) ? "directory" : "file";
  return "files";
}

std::string settings_text(const Settings& settings) {
  std::string text;
  for (const auto& [option, value] : settings) text += fmt::format("{}{} {}", text.empty() ? "" : " ", option, value);
  return text;
}

std::string verdict_counts(const VerifyTally& tally) {
  return fmt::format("{} error(s), {} warning(s) in {} file(s), {} record(s)", tally.findings.count(Severity::kError),
                     tally.findings.count(Severity::kWarning), tally.files, tally.records);
}

}  // namespace

FindingList skipped_findings(const std::vector<std::string>& files) {
  FindingList findings;
  for (const std::string& file : files)
    findings.report(Finding{Severity::kError, "unknown_format", file, std::nullopt,
                            "expected a file of a format qjt reads, found none (skipped by the walk; --strict)"});
  return findings;
}

namespace {

void write_walk_summary(Output* out, const VerifyTally& total, std::size_t units, std::size_t failed,
                        const Expansion& expansion, const FindingList& strict_errors, bool json) {
  const bool ok = failed == 0 && strict_errors.findings().empty();
  if (json) {
    JsonLine line(out->buffer(), JsonType::kSummary);
    line.str("command", "verify").boolean("ok", ok).unsigned_num("units", units).unsigned_num("failed", failed);
    line.unsigned_num("files", total.files).unsigned_num("records", total.records);
    line.unsigned_num("errors", total.findings.count(Severity::kError) + strict_errors.count(Severity::kError));
    line.unsigned_num("warnings", total.findings.count(Severity::kWarning)).begin_array("skipped");
    for (const std::string& file : expansion.skipped) line.string(file);
    line.end_array().key("findings");
    write_findings_json(&line, strict_errors.findings());
    line.finish();
    return;
  }
  for (const Finding& f : strict_errors.findings()) out->write(format_finding(f, colour_on(stdout)) + "\n");
  const std::string skipped =
      expansion.skipped.empty() ? "" : fmt::format("; skipped {} file(s) of no known format", expansion.skipped.size());
  out->write(fmt::format("{}: {} of {} unit(s) failed; {}{}\n", ok ? "OK" : "FAILED", failed, units,
                         verdict_counts(total), skipped));
}

}  // namespace

std::string unit_title(const ReadUnit& unit) {
  if (unit.site_driver == nullptr) return unit.path;
  if (unit.settings.empty()) return fmt::format("{}: {}", unit.path, unit.what);
  return fmt::format("{}: {} ({})", unit.path, unit.what, settings_text(unit.settings));
}

void write_unit_json(JsonWriter* out, const ReadUnit& unit) {
  out->begin_object().str("path", unit.path).str("what", what_of(unit)).begin_array("options");
  for (const auto& [option, value] : unit.settings) out->string(option).string(value);
  out->end_array().begin_array("files");
  for (const std::string& path : unit.paths) out->string(path);
  out->end_array().end_object();
}

std::string units_json(const Expansion& expansion) {
  if (!expansion.found) return "";
  std::string array;
  JsonWriter out(&array);
  out.begin_array();
  for (const ReadUnit& unit : expansion.units) write_unit_json(&out, unit);
  out.end_array();
  return array;
}

std::string unit_header(const ReadUnit& unit, bool json) {
  if (!json) return fmt::format("# {}\n", unit_title(unit));
  std::string line;
  JsonLine object(&line, JsonType::kUnit);
  object.key("unit");
  write_unit_json(&object, unit);
  object.finish();
  return line;
}

void note_walk(std::string_view command, const Expansion& expansion, bool sites) {
  if (sites)
    for (const ReadUnit& unit : expansion.units)
      if (unit.site_driver != nullptr) note(command, fmt::format("found {}", unit_title(unit)));
  if (!expansion.skipped.empty())
    note(command, fmt::format("skipped {} file(s) of no known format", expansion.skipped.size()));
}

std::size_t unit_of_file(const Expansion& expansion, const std::string& file) {
  std::size_t best = 0, best_length = 0;
  for (std::size_t u = 0; u < expansion.units.size(); ++u) {
    const ReadUnit& unit = expansion.units[u];
    for (const std::string& path : unit.paths)
      if (path == file) return u;
    const std::string dir = unit.path + "/";
    if (file.starts_with(dir) && dir.size() > best_length) {
      best = u;
      best_length = dir.size();
    }
  }
  return best;
}

ExitCode finish_walk_verify(const Expansion& expansion, const std::vector<VerifyTally>& units, bool json, bool strict,
                            bool quiet) {
  std::vector<VerifyTally> reported = units;
  // A file that shrank under the read is a finding of its unit too.
  add_file_changes([&](const Finding& change) { return &reported[unit_of_file(expansion, change.file)]; });
  Output out;
  VerifyTally total;
  ExitCode status = ExitCode::kOk;
  std::size_t failed = 0;
  for (std::size_t u = 0; u < reported.size(); ++u) {
    VerifyTally& tally = reported[u];
    print_io_errors(tally.findings.findings());
    const ExitCode unit_status = verify_status(tally, strict);
    if (unit_status != ExitCode::kOk) ++failed;
    status = worse(status, unit_status);
    total.add(tally);
    std::string unit;
    JsonWriter writer(&unit);
    write_unit_json(&writer, expansion.units[u]);
    tally.json_members.emplace_back("unit", unit);
    write_verify_report(&out, tally, unit_status, json, strict, quiet, unit_title(expansion.units[u]));
  }
  const FindingList strict_errors = strict ? skipped_findings(expansion.skipped) : FindingList{};
  if (!strict_errors.findings().empty()) status = worse(status, ExitCode::kProblems);
  if (json || !quiet || status != ExitCode::kOk)
    write_walk_summary(&out, total, reported.size(), failed, expansion, strict_errors, json);
  return finish_output(&out, status);
}

}  // namespace qjt::cli
