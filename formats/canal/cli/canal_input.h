// Reading Canal's files for the commands: meta.dat decoded with the
// destination its directory names, and meta.log text (gunzipped when
// rolled).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "canal/canal_file_kind.h"
#include "canal/meta_dat.h"
#include "canal/meta_log.h"
#include "finding.h"
#include "time_zone.h"

namespace qjt::cli {

// An --at value (time_value.h; a local time as meta.log writes it is
// one, read in the run's local zone); a malformed one is printed as a
// usage error of `command` (replay, repair) and gives nullopt.
std::optional<std::int64_t> parse_at_option(std::string_view command, const std::string& at);

// A whole file's bytes; false with an io_error finding when it cannot be read.
bool read_whole(const std::string& path, std::string* bytes, Reporter* reporter);

struct MetaDatFile {
  canal::MetaDatSource source;
  std::string bytes;
  std::optional<canal::MetaDat> meta;  // nullopt when unreadable (findings say why)
};
// false when the file could not be read at all (an io_error finding).
bool load_meta_dat(const std::string& path, MetaDatFile* out, Reporter* reporter);

// Reads the logs in the order given, passing each entry to `on_entry` as
// its line is read (the entry is valid during the call): plain files
// through a reused buffer, gzip'd ones inflated piece by piece, so memory
// is bounded by the longest line (canal::kMaxLineBytes), not by the logs.
// A damaged gzip, or one inflating beyond canal::kMaxInflatedBytes, is a
// canal_gzip error after the entries of the lines before it (a line cut
// there is not read). False when a file cannot be opened or read (an
// io_error finding); the other files are still read.
// Times are read in `zone`. `on_file_end`, when given, is called after the
// entries of each file opened, with its path and size on disk (stats'
// meta.log size, without opening it again).
using LogEntrySink = std::function<void(const canal::LogEntry&)>;
using LogFileSink = std::function<void(const std::string& path, std::uint64_t bytes)>;
bool read_meta_logs(const std::vector<std::string>& paths, const TimeZone& zone, Reporter* reporter,
                    const LogEntrySink& on_entry, const LogFileSink& on_file_end = nullptr);

}  // namespace qjt::cli
