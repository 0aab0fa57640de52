#include "kestrel/cli/kestrel_hints.h"

#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "input_file.h"
#include "kestrel/journal_repair.h"

namespace qjt::cli {
namespace {

// The one remedy classic Kestrel has, broken_record's: the repair that keeps the most of the file: --salvage when it
// keeps more records than the cut; none when the file cannot be read again or every repair would empty it (repair
// refuses that without --force). `file` is the journal file as the user named it (or as the directory listing gave it).
std::string broken_record_hint(const std::string& file) {
  std::string error;
  const auto input = InputFile::open(file, &error);
  if (!input) return "";
  switch (kestrel::gentlest_repair(input->bytes())) {
    case kestrel::GentlestRepair::kSalvage:
      return fmt::format("qjt repair --salvage --apply {}", shell_word(file));
    case kestrel::GentlestRepair::kTruncate:
      return fmt::format("qjt repair --apply {}", shell_word(file));
    case kestrel::GentlestRepair::kNone:
      break;
  }
  return "";
}

}  // namespace

std::string kestrel_hint(const Finding& finding) {
  // A stream is not read again for a hint, nor repaired in place.
  std::error_code ec;
  if (finding.code != "broken_record" || !std::filesystem::is_regular_file(finding.file, ec)) return "";
  return broken_record_hint(finding.file);
}

}  // namespace qjt::cli
