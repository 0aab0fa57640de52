// The rule every family's repair keeps (issue 40): when verify reports an
// error, a repair never says "nothing to change" and never exits 0. A plan
// that changes nothing while verify finds errors names, for each error,
// the mode or option that fixes it (the hint verify prints), in text and in
// the report's JSON "needs", and the repair exits 1.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "exit_code.h"
#include "finding.h"

namespace qjt {
class JsonWriter;
}

namespace qjt::cli {

class RepairNeeds {
 public:
  RepairNeeds() = default;
  // The errors among `verified` (what the family's verify finds in the
  // inputs as they are), each with its hint when it has one.
  explicit RepairNeeds(const FindingList& verified);

  bool any() const { return !errors_.empty(); }
  // `planned`, or kProblems when verify finds errors that the plan leaves.
  ExitCode status(ExitCode planned) const { return any() && planned == ExitCode::kOk ? ExitCode::kProblems : planned; }
  // "WHAT: this repair changes nothing, but verify finds N error(s):" and
  // one line per error with the command that fixes it; "" when none.
  std::string text(std::string_view what) const;
  // "needs": [{"code","file","offset","command"}, ...]; [] when none.
  void write_json(JsonWriter* out) const;

 private:
  std::vector<Finding> errors_;
};

}  // namespace qjt::cli
