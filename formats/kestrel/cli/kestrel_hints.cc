#include "kestrel/cli/kestrel_hints.h"

#include <fmt/format.h>

namespace qjt::app {
namespace {

// {file}: the journal file, as the user named it (or as the directory
// listing gave it).
constexpr HintRule kHints[] = {
    // Repair cuts the journal at the record; --salvage would keep what
    // decodes after it, which the plan shows first.
    {"broken_record", "qjt repair --apply {file}"},
};

}  // namespace

std::string kestrel_hint(const Finding& finding) {
  const std::string_view command = find_hint(kHints, finding.code);
  if (command.empty() || finding.file == "-") return "";
  return fmt::format(fmt::runtime(command), fmt::arg("file", shell_word(finding.file)));
}

}  // namespace qjt::app
