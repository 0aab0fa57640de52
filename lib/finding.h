// Finding: one problem found in the input, and Reporter: the sink decoders
// and replay state machines tell them to (reporters.h has the decorators
// that filter or watch findings on their way).
//
// Decoders never throw on bad input. They report a Finding (file, byte
// offset, a stable snake_case code, and a sentence saying what was expected
// and what was found) and carry on where the format allows it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace qjt {

class JsonWriter;

enum class Severity { kError, kWarning };

const char* severity_name(Severity severity);  // "error" or "warning"

struct Finding {
  Severity severity = Severity::kError;
  std::string code;                     // stable identifier, e.g. "broken_record"
  std::string file;                     // path as the user named it
  std::optional<std::uint64_t> offset;  // byte offset in `file`, when one applies
  std::string message;                  // one sentence: expected ..., found ...
  std::string hint{};                   // the command that remedies it; empty when none is known
};

// A family's remedies: the hint for `finding` (a qjt command line, with the
// user's own paths where they are known), or "" when it has none. Each
// family keeps its table in formats/<family>/cli.
using HintFor = std::function<std::string(const Finding& finding)>;

// One row of a family's table of remedies: a finding code and the command
// that remedies it, a template whose {names} the family fills in.
struct HintRule {
  std::string_view code;
  std::string_view command;
};
// The command of `code` in `table`; "" when it has none.
std::string_view find_hint(std::span<const HintRule> table, std::string_view code);
// `word` as one shell word: as it is when it is safe, else single-quoted.
std::string shell_word(std::string_view word);

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void report(Finding finding) = 0;
};

// Keeps every finding, in the order reported.
class FindingList : public Reporter {
 public:
  void report(Finding finding) override { findings_.push_back(std::move(finding)); }

  const std::vector<Finding>& findings() const { return findings_; }
  std::size_t count(Severity severity) const;
  // Gives each finding without a hint the one `hint_for` knows.
  void add_hints(const HintFor& hint_for);

 private:
  std::vector<Finding> findings_;
};

// Forwards each finding to `next`, which must outlive it, with the hint
// `hint_for` knows when it has none: for findings printed as they arrive.
class HintingReporter : public Reporter {
 public:
  HintingReporter(HintFor hint_for, Reporter* next) : hint_for_(std::move(hint_for)), next_(next) {}
  void report(Finding finding) override;

 private:
  HintFor hint_for_;
  Reporter* next_;
};

// Prints each finding to standard error as it arrives, prefixed "qjt: ",
// its severity coloured when standard error is (colour.h); with --quiet
// (quiet.h) only the errors.
class StderrReporter : public Reporter {
 public:
  void report(Finding finding) override;
  std::size_t errors() const { return errors_; }

 private:
  std::size_t errors_ = 0;
};

// Prints on standard error, as StderrReporter does, each "io_error" finding
// (a file that cannot be opened, read or written): what a command whose
// findings go into a report on standard output (verify; replay --json)
// still owes standard error, where qjt(1) promises every diagnostic.
void print_io_errors(const std::vector<Finding>& findings);
// Whether any of `findings` is an "io_error": the run owes exit status 3.
bool has_io_error(const std::vector<Finding>& findings);

// "file:offset: severity[code]: message", the one-line human form, the
// severity in its colour when `colour` (colour_on() of the stream); when
// the finding has a hint, a second line "  hint: COMMAND".
std::string format_finding(const Finding& finding, bool colour = false);

// {"severity":..,"code":..,"file":..,"offset":N|null,"message":..}, and
// "hint":.. after the message when there is one.
void write_finding_json(JsonWriter* out, const Finding& finding);
// A JSON array of findings.
void write_findings_json(JsonWriter* out, const std::vector<Finding>& findings);

}  // namespace qjt
