#include "finding.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <utility>

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

std::string_view find_hint(std::span<const HintRule> table, std::string_view code) {
  for (const HintRule& rule : table)
    if (rule.code == code) return rule.command;
  return "";
}

std::string shell_word(std::string_view word) {
  const bool safe = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("/._-+,:=@%", c) != nullptr;
  });
  if (safe) return std::string(word);
  std::string quoted = "'";
  for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

void FindingList::add_hints(const HintFor& hint_for) {
  for (Finding& f : findings_)
    if (f.hint.empty()) f.hint = hint_for(f);
}

void HintingReporter::report(Finding finding) {
  if (finding.hint.empty()) finding.hint = hint_for_(finding);
  next_->report(std::move(finding));
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

bool has_io_error(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(), [](const Finding& f) { return f.code == "io_error"; });
}

std::string format_finding(const Finding& finding, bool colour) {
  std::string where = finding.file;
  if (finding.offset) where += fmt::format(":{}", *finding.offset);
  std::string text =
      fmt::format("{}: {}[{}]: {}", where, severity_text(finding.severity, colour), finding.code, finding.message);
  if (!finding.hint.empty()) text += fmt::format("\n  hint: {}", finding.hint);
  return text;
}

void write_finding_json(JsonWriter* out, const Finding& finding) {
  out->begin_object().str("severity", severity_name(finding.severity)).str("code", finding.code);
  out->str("file", finding.file);
  if (finding.offset) {
    out->unsigned_num("offset", *finding.offset);
  } else {
    out->null("offset");
  }
  out->str("message", finding.message);
  if (!finding.hint.empty()) out->str("hint", finding.hint);
  out->end_object();
}

void write_findings_json(JsonWriter* out, const std::vector<Finding>& findings) {
  out->begin_array();
  for (const Finding& finding : findings) write_finding_json(out, finding);
  out->end_array();
}

}  // namespace qjt
