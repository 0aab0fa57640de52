#include "canal/cli/canal_hints.h"

#include <fmt/format.h>

#include <filesystem>
#include <system_error>

namespace qjt::cli {
namespace {

// {file}: the meta.dat; {client}: the client named by the message;
// {log}: the destination's meta.log, or META_LOG explained by {log_note}.
constexpr HintRule kHints[] = {
    // A meta.dat Canal cannot parse: rebuild it from its history.
    {"canal_empty_file", "qjt repair --apply --from-log {log} {file}{log_note}"},
    {"canal_truncated", "qjt repair --apply --from-log {log} {file}{log_note}"},
    {"canal_invalid_json", "qjt repair --apply --from-log {log} {file}{log_note}"},
    // A cursor Canal cannot resume from: move it to a binlog the server has.
    {"canal_journal_purged", "qjt repair --apply --set-position {client}=JOURNAL:POS {file}{journal_pos}"},
    {"canal_position_beyond_end", "qjt repair --apply --set-position {client}=JOURNAL:POS {file}{journal_pos}"},
    {"canal_position_range", "qjt repair --apply --set-position {client}=JOURNAL:POS {file}{journal_pos}"},
    {"canal_journal_name", "qjt repair --apply --set-position {client}=JOURNAL:POS {file}{journal_pos}"},
    {"canal_timestamp_unit", "qjt repair --apply --to-timestamp {client}=TIME {file}{time}"},
};

// Where to resume is the operator's choice: the hint leaves it a
// placeholder and says, as a shell comment after the command, which value
// to fill in and where to find it.
constexpr std::string_view kJournalPos =
    "  # JOURNAL:POS: a binlog the MySQL server still has (SHOW BINARY LOGS) and a position in it, such as "
    "mysql-bin.000123:4 (4 is its first event)";
constexpr std::string_view kTime =
    "  # TIME: when to resume, as epoch milliseconds or a time such as 2021-01-16T06:49:08Z; Canal searches the "
    "binlogs for the first event at or after it";
constexpr std::string_view kMetaLogPlaceholder = "META_LOG";
constexpr std::string_view kMetaLog =
    "  # META_LOG: the destination's meta.log (a deployer's logs/DESTINATION/meta.log, or a rotated "
    "meta-DATE-N.log.gz beside it); add --at TIME for a moment before the damage";

// A hint is a command that runs as printed but for those placeholders: a
// client that cannot be told leaves the finding without one.
constexpr std::string_view kUnknown = "";

// N of a message that starts "client N: "; kUnknown otherwise.
std::string client_of(const std::string& message) {
  constexpr std::string_view kPrefix = "client ";
  const auto colon = message.find(':');
  if (!message.starts_with(kPrefix) || colon == std::string::npos) return std::string(kUnknown);
  const std::string id = message.substr(kPrefix.size(), colon - kPrefix.size());
  const bool number = !id.empty() && id.find_first_not_of("-0123456789") == std::string::npos;
  return number ? id : std::string(kUnknown);
}

// conf/D/meta.dat's logs/D/meta.log, or a meta.log beside the meta.dat (a
// destination's own directory), when it exists; kUnknown otherwise.
std::string meta_log_of(const std::string& meta_dat) {
  const std::filesystem::path destination = std::filesystem::path(meta_dat).parent_path();
  const std::filesystem::path deployer_log =
      destination.parent_path().parent_path() / "logs" / destination.filename() / "meta.log";
  std::error_code error;
  if (destination.parent_path().filename() == "conf" && std::filesystem::is_regular_file(deployer_log, error))
    return shell_word(deployer_log.string());
  const std::filesystem::path beside = destination / "meta.log";
  return std::filesystem::is_regular_file(beside, error) ? shell_word(beside.string()) : std::string(kUnknown);
}

}  // namespace

std::string canal_hint(const Finding& finding) {
  const std::string_view command = find_hint(kHints, finding.code);
  if (command.empty() || finding.file == "-") return "";
  const bool needs_client = command.find("{client}") != std::string_view::npos;
  const bool needs_log = command.find("{log}") != std::string_view::npos;
  const std::string client = needs_client ? client_of(finding.message) : "";
  const std::string log = needs_log ? meta_log_of(finding.file) : "";
  if (needs_client && client.empty()) return "";
  const bool log_unknown = needs_log && log.empty();
  return fmt::format(fmt::runtime(command), fmt::arg("file", shell_word(finding.file)), fmt::arg("client", client),
                     fmt::arg("log", log_unknown ? kMetaLogPlaceholder : log),
                     fmt::arg("log_note", log_unknown ? kMetaLog : ""), fmt::arg("journal_pos", kJournalPos),
                     fmt::arg("time", kTime));
}

}  // namespace qjt::cli
