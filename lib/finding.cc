#include "finding.h"

#include <algorithm>

#include <fmt/format.h>

#include "colour.h"
#include "json_writer.h"
#include "progress.h"
#include "quiet.h"

namespace qjt {

const char* severity_name(Severity severity) { return severity == Severity::kError ? "error" : "warning"; }

std::size_t FindingList::count(Severity severity) const {
  return static_cast<std::size_t>(std::count_if(findings_.begin(), findings_.end(),
                                                [severity](const Finding& f) { return f.severity == severity; }));
}

void StderrReporter::report(Finding finding) {
  if (finding.severity == Severity::kError) ++errors_;
  if (finding.severity != Severity::kError && quiet()) return;
  Progress::clear();
  fmt::print(stderr, "qjt: {}\n", format_finding(finding, colour_on(stderr)));
}

void print_io_errors(const std::vector<Finding>& findings) {
  StderrReporter reporter;
  for (const Finding& f : findings)
    if (f.code == "io_error") reporter.report(f);
}

std::string format_finding(const Finding& finding, bool colour) {
  std::string where = finding.file;
  if (finding.offset) where += fmt::format(":{}", *finding.offset);
  return fmt::format("{}: {}[{}]: {}", where, severity_text(finding.severity, colour), finding.code, finding.message);
}

void write_finding_json(JsonWriter* out, const Finding& finding) {
  out->begin_object().str("severity", severity_name(finding.severity)).str("code", finding.code);
  out->str("file", finding.file);
  if (finding.offset) {
    out->unsigned_num("offset", *finding.offset);
  } else {
    out->null("offset");
  }
  out->str("message", finding.message).end_object();
}

void write_findings_json(JsonWriter* out, const std::vector<Finding>& findings) {
  out->begin_array();
  for (const Finding& finding : findings) write_finding_json(out, finding);
  out->end_array();
}

}  // namespace qjt
