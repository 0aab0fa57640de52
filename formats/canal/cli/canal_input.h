// Reading Canal's files for the commands: meta.dat decoded with the
// destination its directory names, and meta.log text (gunzipped when
// rolled).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "canal/canal_file_kind.h"
#include "canal/meta_dat.h"
#include "canal/meta_log.h"
#include "finding.h"

namespace qjt::app {

// An --at value (canal::parse_at_time); a malformed one is printed as a
// usage error and gives nullopt.
std::optional<std::int64_t> parse_at_option(const std::string& at);

// A whole file's bytes; false with an io_error finding when it cannot be read.
bool read_whole(const std::string& path, std::string* bytes, Reporter* reporter);

struct MetaDatFile {
  canal::MetaDatSource source;
  std::string bytes;
  std::optional<canal::MetaDat> meta;  // nullopt when unreadable (findings say why)
};
// false when the file could not be read at all (an io_error finding).
bool load_meta_dat(const std::string& path, MetaDatFile* out, Reporter* reporter);

// The entries of the logs, in the order given; a damaged gzip is a
// canal_gzip finding, the lines before the damage still read.
bool load_meta_logs(const std::vector<std::string>& paths, std::vector<canal::LogEntry>* entries, Reporter* reporter);

}  // namespace qjt::app
