#include "finding.h"

#include <algorithm>

#include <fmt/format.h>

#include "json_line.h"

namespace qjt {

const char* severity_name(Severity severity) {
  return severity == Severity::kError ? "error" : "warning";
}

std::size_t FindingList::count(Severity severity) const {
  return static_cast<std::size_t>(std::count_if(
      findings_.begin(), findings_.end(),
      [severity](const Finding& f) { return f.severity == severity; }));
}

void StderrReporter::report(Finding finding) {
  if (finding.severity == Severity::kError) ++errors_;
  fmt::print(stderr, "qjt: {}\n", format_finding(finding));
}

std::string format_finding(const Finding& finding) {
  std::string where = finding.file;
  if (finding.offset) where += fmt::format(":{}", *finding.offset);
  return fmt::format("{}: {}[{}]: {}", where, severity_name(finding.severity), finding.code,
                     finding.message);
}

void append_finding_json(std::string* out, const Finding& finding) {
  JsonLine line(out);
  line.str("severity", severity_name(finding.severity)).str("code", finding.code).str("file", finding.file);
  if (finding.offset) {
    line.unsigned_num("offset", *finding.offset);
  } else {
    line.null("offset");
  }
  line.str("message", finding.message);
  line.close();
}

void append_findings_json(std::string* out, const std::vector<Finding>& findings) {
  out->push_back('[');
  for (std::size_t i = 0; i < findings.size(); ++i) {
    if (i > 0) out->push_back(',');
    append_finding_json(out, findings[i]);
  }
  out->push_back(']');
}

}  // namespace qjt
