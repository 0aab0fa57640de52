#include "canal/binlog_list.h"

#include <vector>

#include <fmt/format.h>

#include "whole_number.h"

namespace qjt::canal {
namespace {

std::vector<std::string_view> cells(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '|' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '|' && line[i] != '\r') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

bool ignorable(const std::vector<std::string_view>& c, std::string_view line) {
  if (c.empty() || line.find_first_not_of("+-| \t\r") == std::string_view::npos) return true;
  if (c[0] == "Log_name") return true;
  return c.size() >= 3 && (c[1] == "rows" || c[1] == "row") && c[2] == "in";  // "N rows in set (0.00 sec)"
}

}  // namespace

std::map<std::string, std::uint64_t> read_binlog_list(std::string_view text, const std::string& file,
                                                      Reporter* reporter) {
  std::map<std::string, std::uint64_t> out;
  std::size_t line_number = 0;
  for (std::size_t start = 0; start < text.size();) {
    const auto newline = text.find('\n', start);
    const std::size_t end = newline == std::string_view::npos ? text.size() : newline;
    const std::string_view line = text.substr(start, end - start);
    ++line_number;
    const auto c = cells(line);
    const auto size = c.size() >= 2 ? whole_number<std::uint64_t>(c[1]) : std::nullopt;
    if (size) {
      out[std::string(c[0])] = *size;
    } else if (!ignorable(c, line)) {
      reporter->report(Finding{Severity::kWarning, "canal_binlogs_line", file, start,
                               fmt::format("line {} is not a SHOW BINARY LOGS row (Log_name File_size ...); "
                                           "skipped",
                                           line_number)});
    }
    start = end + 1;
  }
  return out;
}

void check_against_binlogs(const MetaDat& meta, const std::map<std::string, std::uint64_t>& binlogs,
                           const std::string& file, Reporter* reporter) {
  for (const ClientData& c : meta.clients) {
    if (!c.cursor || !c.cursor->valid || is_timestamp_cursor(*c.cursor)) continue;
    const std::string& journal = *c.cursor->journal_name;
    const auto found = binlogs.find(journal);
    if (found == binlogs.end()) {
      reporter->report(Finding{Severity::kError, "canal_journal_purged", file, c.offset,
                               fmt::format("client {}: journal {} is not among the server's binary logs: "
                                           "Canal fails with errno 1236",
                                           c.client_id, journal)});
    } else if (*c.cursor->position > 0 && static_cast<std::uint64_t>(*c.cursor->position) > found->second) {
      reporter->report(Finding{Severity::kError, "canal_position_beyond_end", file, c.offset,
                               fmt::format("client {}: position {} is past the end of {} ({} bytes)", c.client_id,
                                           *c.cursor->position, journal, found->second)});
    }
  }
}

}  // namespace qjt::canal
