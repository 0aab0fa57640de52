// SHOW BINARY LOGS, as the mysql client prints it (the boxed table, or the
// tab-separated batch form of `mysql -B`, with or without the header): the
// binlogs the server still has and their sizes. verify --binlogs checks
// each meta.dat cursor against it: a purged journal is the most common
// reason Canal cannot restart (canal-format.md §8, errno 1236).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "canal/meta_dat.h"
#include "finding.h"

namespace qjt::canal {

// Log_name -> File_size. Lines that are neither a row nor the header or a
// border are canal_binlogs_line warnings against `file`.
std::map<std::string, std::uint64_t> read_binlog_list(std::string_view text, const std::string& file,
                                                      Reporter* reporter);

// canal_journal_purged when a client's journal is not in `binlogs`,
// canal_position_beyond_end when its position is past the file's size.
// Timestamp cursors (no journal) are not checked.
void check_against_binlogs(const MetaDat& meta, const std::map<std::string, std::uint64_t>& binlogs,
                           const std::string& file, Reporter* reporter);

}  // namespace qjt::canal
