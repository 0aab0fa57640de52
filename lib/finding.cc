#include "finding.h"

#include <algorithm>

#include <fmt/format.h>

#include "json_writer.h"

namespace qjt {

const char* severity_name(Severity severity) { return severity == Severity::kError ? "error" : "warning"; }

std::size_t FindingList::count(Severity severity) const {
  return static_cast<std::size_t>(std::count_if(findings_.begin(), findings_.end(),
                                                [severity](const Finding& f) { return f.severity == severity; }));
}

void StderrReporter::report(Finding finding) {
  if (finding.severity == Severity::kError) ++errors_;
  fmt::print(stderr, "qjt: {}\n", format_finding(finding));
}

void print_io_errors(const std::vector<Finding>& findings) {
  for (const Finding& f : findings)
    if (f.code == "io_error") fmt::print(stderr, "qjt: {}\n", format_finding(f));
}

bool has_io_error(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(), [](const Finding& f) { return f.code == "io_error"; });
}

std::string format_finding(const Finding& finding) {
  std::string where = finding.file;
  if (finding.offset) where += fmt::format(":{}", *finding.offset);
  return fmt::format("{}: {}[{}]: {}", where, severity_name(finding.severity), finding.code, finding.message);
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
