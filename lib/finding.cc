#include "finding.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "colour.h"
#include "json_writer.h"
#include "output.h"
#include "quiet.h"
#include "run_context.h"

namespace qjt {

const char* severity_name(Severity severity) { return severity == Severity::kError ? "error" : "warning"; }

namespace {

// The cause of the entry that counts a code's findings beyond the first
// kDistinctPerCode entries of it.
std::string overflow_cause(const std::string& code) {
  return fmt::format("more {} findings, beyond the first {} listed (--all-findings lists them)", code,
                     FindingFolder::kDistinctPerCode);
}

// Adds what `more` stands for to the entry `into`, which it folds into.
void fold_into(Finding* into, const Finding& more) {
  into->count += more.count;
  const std::optional<std::uint64_t> last = more.last_offset ? more.last_offset : more.offset;
  if (last) into->last_offset = last;
}
}  // namespace

void set_all_findings(bool all) { RunContext::process().settings().all_findings = all; }
bool all_findings() { return RunContext::current().settings().all_findings; }

std::string finding_message(const Finding& finding) {
  if (finding.count > 1 && !finding.cause.empty()) return fmt::format("{} {}", finding.count, finding.cause);
  return finding.message;
}

FindingFolder::Added FindingFolder::add(Finding finding) {
  if (!fold_) {
    entries_.push_back(std::move(finding));
    return {entries_.size() - 1, true, false};
  }
  Key key{finding.severity, finding.code, finding.file, finding.cause.empty() ? finding.message : finding.cause};
  if (const auto known = index_.find(key); known != index_.end()) {
    fold_into(&entries_[known->second], finding);
    return {known->second, false, overflow_[known->second]};
  }
  const bool overflow = distinct_per_code_[finding.code] >= kDistinctPerCode;
  if (overflow) {
    std::get<3>(key) = overflow_cause(finding.code);
    if (const auto known = index_.find(key); known != index_.end()) {
      fold_into(&entries_[known->second], finding);
      return {known->second, false, true};
    }
    finding.cause = std::get<3>(key);
  } else {
    ++distinct_per_code_[finding.code];
  }
  index_.emplace(std::move(key), entries_.size());
  entries_.push_back(std::move(finding));
  overflow_.push_back(overflow);
  return {entries_.size() - 1, true, overflow};
}

std::size_t FindingList::count(Severity severity) const {
  std::size_t total = 0;
  for (const Finding& f : findings())
    if (f.severity == severity) total += f.count;
  return total;
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
  for (Finding& f : folder_.entries())
    if (f.hint.empty()) f.hint = hint_for(f);
}

void HintingReporter::report(Finding finding) {
  if (finding.hint.empty()) finding.hint = hint_for_(finding);
  next_->report(std::move(finding));
}

StderrReporter::~StderrReporter() {
  const std::vector<Finding>& entries = folder_.entries();
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (entries[i].count > printed_counts_[i]) print(entries[i]);
}

void StderrReporter::report(Finding finding) {
  if (finding.severity == Severity::kError) errors_ += finding.count;
  if (finding.severity != Severity::kError && quiet()) return;
  const FindingFolder::Added added = folder_.add(std::move(finding));
  if (!added.is_new || added.overflow) {
    if (added.is_new) printed_counts_.push_back(0);  // printed, counted, when the reporter ends
    return;
  }
  const Finding& entry = folder_.entries()[added.index];
  printed_counts_.push_back(entry.count);
  print(entry);
}

void StderrReporter::print(const Finding& finding) {
  write_stderr(fmt::format("qjt: {}\n", format_finding(finding, colour_on(stderr))));
}

void print_io_errors(const std::vector<Finding>& findings) {
  if (stdout_is_stderr_terminal()) return;
  StderrReporter reporter;
  for (const Finding& f : findings)
    if (f.code == "io_error") reporter.report(f);
}

bool has_io_error(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(), [](const Finding& f) { return f.code == "io_error"; });
}

// What a folded finding adds after its sentence: how many there are, when
// the sentence does not say, and where the last one is.
std::string folded_suffix(const Finding& finding) {
  if (finding.count <= 1) return "";
  std::vector<std::string> parts;
  if (finding.cause.empty()) parts.push_back(fmt::format("{} findings alike", finding.count));
  if (finding.last_offset) parts.push_back(fmt::format("the last at offset {}", *finding.last_offset));
  return parts.empty() ? "" : fmt::format(" ({})", fmt::join(parts, "; "));
}

std::string format_finding(const Finding& finding, bool colour) {
  std::string where = finding.file;
  if (finding.offset) where += fmt::format(":{}", *finding.offset);
  std::string text = fmt::format("{}: {}[{}]: {}{}", where, severity_text(finding.severity, colour), finding.code,
                                 finding_message(finding), folded_suffix(finding));
  if (!finding.hint.empty()) text += fmt::format("\n  hint: {}", finding.hint);
  return text;
}

void write_finding_json(JsonWriter* out, const Finding& finding) {
  out->begin_object()
      .type(JsonType::kFinding)
      .str("severity", severity_name(finding.severity))
      .str("code", finding.code);
  out->str("file", finding.file);
  if (finding.offset) {
    out->unsigned_num("offset", *finding.offset);
  } else {
    out->null("offset");
  }
  out->str("message", finding_message(finding));
  if (!finding.hint.empty()) out->str("hint", finding.hint);
  if (finding.count > 1) {
    out->unsigned_num("count", finding.count);
    if (finding.last_offset) {
      out->unsigned_num("last_offset", *finding.last_offset);
    } else {
      out->null("last_offset");
    }
  }
  out->end_object();
}

void write_findings_json(JsonWriter* out, const std::vector<Finding>& findings) {
  out->begin_array();
  for (const Finding& finding : findings) write_finding_json(out, finding);
  out->end_array();
}

}  // namespace qjt
