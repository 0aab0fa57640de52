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

// A record broken at offset 0 leaves nothing before it: repair refuses to
// cut the file to nothing without --force, and --salvage keeps whatever
// decodes after the damage.
constexpr std::string_view kBrokenAtStart = "qjt repair --apply --salvage --force {file}";

}  // namespace

std::string kestrel_hint(const Finding& finding) {
  const bool at_start = finding.code == "broken_record" && finding.offset == std::uint64_t{0};
  const std::string_view command = at_start ? kBrokenAtStart : find_hint(kHints, finding.code);
  if (command.empty() || finding.file == "-") return "";
  return fmt::format(fmt::runtime(command), fmt::arg("file", shell_word(finding.file)));
}

}  // namespace qjt::app
