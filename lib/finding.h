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
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
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
  // When one fault makes many findings of this code in this file: what they
  // share, a plural phrase read after their count ("queue elements point
  // into log-1, which cannot be read"). FindingFolder folds them into one.
  std::string cause{};
  // How many findings this one stands for once folded: `offset` is the
  // first one's, `last_offset` the last one's (set when count > 1).
  std::uint64_t count = 1;
  std::optional<std::uint64_t> last_offset{};
};

// The sentence of `finding`: its message, or for a folded finding with a
// cause "COUNT CAUSE" ("548 queue elements point into log-1, ...").
std::string finding_message(const Finding& finding);

// --all-findings: every finding listed as it came, none folded. Set once by
// main() from the command line, before anything runs, as quiet() is.
void set_all_findings(bool all);
bool all_findings();

// Folds findings as they arrive, so that what is kept does not grow with
// their number in a damaged input. Findings of one severity, code and file
// become one entry, with their count and last offset, when they share a
// cause (or, having none, their message). Beyond kDistinctPerCode entries of
// one code, the further findings of that code in a file become one entry
// that counts them. Without folding (--all-findings) every finding is an
// entry of its own.
class FindingFolder {
 public:
  static constexpr std::size_t kDistinctPerCode = 100;

  explicit FindingFolder(bool fold) : fold_(fold) {}

  struct Added {
    std::size_t index;  // of the entry `finding` went into
    bool is_new;        // the entry is new: `finding` is its first
    bool overflow;      // the entry counts findings beyond kDistinctPerCode
  };
  Added add(Finding finding);
  const std::vector<Finding>& entries() const { return entries_; }
  std::vector<Finding>& entries() { return entries_; }

 private:
  using Key = std::tuple<Severity, std::string, std::string, std::string>;  // severity, code, file, cause

  bool fold_;
  std::vector<Finding> entries_;
  std::vector<bool> overflow_;  // per entry: it counts findings beyond kDistinctPerCode
  std::map<Key, std::size_t> index_;
  std::map<std::string, std::size_t> distinct_per_code_;
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

// Keeps the findings, in the order reported, folded (FindingFolder) unless
// --all-findings asks for every one.
class FindingList : public Reporter {
 public:
  FindingList() : folder_(!all_findings()) {}
  explicit FindingList(bool fold) : folder_(fold) {}

  void report(Finding finding) override { folder_.add(std::move(finding)); }

  const std::vector<Finding>& findings() const { return folder_.entries(); }
  // The findings of `severity`, each folded one counted as many as it stands for.
  std::size_t count(Severity severity) const;
  // Gives each finding without a hint the one `hint_for` knows.
  void add_hints(const HintFor& hint_for);

 private:
  FindingFolder folder_;
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
// (quiet.h) only the errors. Findings are folded (FindingFolder) unless
// --all-findings: a finding alike to one already printed is counted, and
// the folded entries whose count grew are printed once more, with their
// count, when the reporter is destroyed (so that every command that prints
// findings as they come gets the counts without a call of its own).
class StderrReporter : public Reporter {
 public:
  StderrReporter() : folder_(!all_findings()) {}
  StderrReporter(const StderrReporter&) = delete;
  StderrReporter& operator=(const StderrReporter&) = delete;
  ~StderrReporter() override;

  void report(Finding finding) override;
  // The errors reported, each folded one counted as many as it stands for.
  std::size_t errors() const { return errors_; }

 private:
  static void print(const Finding& finding);

  std::size_t errors_ = 0;
  FindingFolder folder_;
  std::vector<std::uint64_t> printed_counts_;  // per entry of folder_: its count when last printed
};

// Prints on standard error, as StderrReporter does, each "io_error" finding
// (a file that cannot be opened, read or written): what a command whose
// findings go into a report on standard output (verify; replay --json)
// still owes standard error, where qjt(1) promises every diagnostic.
// Nothing when standard output is the terminal standard error is, where
// the report shows them: once is enough.
void print_io_errors(const std::vector<Finding>& findings);
// Whether any of `findings` is an "io_error": the run owes exit status 3.
bool has_io_error(const std::vector<Finding>& findings);

// "file:offset: severity[code]: message", the one-line human form, the
// severity in its colour when `colour` (colour_on() of the stream); when
// the finding has a hint, a second line "  hint: COMMAND".
std::string format_finding(const Finding& finding, bool colour = false);

// {"severity":..,"code":..,"file":..,"offset":N|null,"message":..}, and
// "hint":.. after the message when there is one; a folded finding (count
// above 1) adds "count":N and "last_offset":N|null.
void write_finding_json(JsonWriter* out, const Finding& finding);
// A JSON array of findings.
void write_findings_json(JsonWriter* out, const std::vector<Finding>& findings);

}  // namespace qjt
