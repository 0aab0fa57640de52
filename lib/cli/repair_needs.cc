#include "repair_needs.h"

#include <fmt/format.h>

#include "json_writer.h"

namespace qjt::cli {

RepairNeeds::RepairNeeds(const FindingList& verified) {
  for (const Finding& f : verified.findings())
    if (f.severity == Severity::kError) errors_.push_back(f);
}

std::string RepairNeeds::text(std::string_view what) const {
  if (!any()) return "";
  std::size_t count = 0;
  for (const Finding& f : errors_) count += f.count;
  std::string text =
      fmt::format("{}: this repair changes nothing, but verify finds {} error(s) it leaves:\n", what, count);
  for (const Finding& f : errors_) {
    const std::string where = f.offset ? fmt::format("{} offset {}", f.file, *f.offset) : f.file;
    text += fmt::format("  {} in {}: {}\n", f.code, where,
                        f.hint.empty() ? "no mode of repair fixes it (see qjt verify)" : "fixed by " + f.hint);
  }
  return text + "nothing was changed; run the repair named above\n";
}

void RepairNeeds::write_json(JsonWriter* out) const {
  out->begin_array("needs");
  for (const Finding& f : errors_) {
    out->begin_object().str("code", f.code).str("file", f.file);
    f.offset ? out->unsigned_num("offset", *f.offset) : out->null("offset");
    f.hint.empty() ? out->null("command") : out->str("command", f.hint);
    out->end_object();
  }
  out->end_array();
}

}  // namespace qjt::cli
