// What a destination's configuration says about where Canal starts and
// where it keeps its table-meta store: the Java .properties files Canal
// reads for it, conf/canal.properties then conf/<destination>/instance.properties
// (Spring merges them in that order: a key of the second wins).
//
// read_properties is java.util.Properties.load over bytes read as
// ISO-8859-1, as Properties.load(InputStream) reads them: natural lines
// ended by \n, \r or \r\n; blank lines and lines whose first non-blank
// character is '#' or '!' skipped; a line ending in an odd number of
// backslashes continued on the next, whose leading blanks are dropped; the
// key ends at the first unescaped '=', ':' or blank, one '=' or ':' and
// the blanks around it separate it from the value; escapes \t \n \r \f,
// \uXXXX, and \c for any other c. A malformed \uXXXX makes Java refuse the
// whole file (IllegalArgumentException): a problem here, and the file is
// still read as far as it goes. A key given twice keeps its last value.
// Values are kept as written: ${...} placeholders are not resolved.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "finding.h"

namespace qjt::canal {

// instance.properties is a few KiB; a larger file is not read (a mistaken
// path, not Canal's configuration), so memory never follows the input.
inline constexpr std::uint64_t kMaxPropertiesBytes = 1 << 20;

using Properties = std::map<std::string, std::string>;

struct PropertiesProblem {
  std::uint64_t offset = 0;  // of the line's first byte
  std::string message;
};

// Adds the pairs of `text` to *properties (a key already there is
// replaced); what Java would refuse is added to *problems.
void read_properties(std::string_view text, Properties* properties, std::vector<PropertiesProblem>* problems);

// canal.instance.master.*: the start position an operator configures,
// used only when Canal has no stored position for the destination.
struct MasterPosition {
  std::string address;       // canal.instance.master.address (host:port)
  std::string journal_name;  // canal.instance.master.journal.name
  std::optional<std::int64_t> position;
  std::optional<std::int64_t> timestamp;  // epoch ms
  std::string gtid;

  // Whether it names a start: a journal, a timestamp, or (in GTID mode) a gtid.
  bool names_start(bool gtid_mode) const;
};

// The table-meta store Canal keeps for the destination.
enum class TsdbKind {
  kH2,        // h2-tsdb.xml (the default): conf/<destination>/h2.mv.db
  kMySql,     // mysql-tsdb.xml or a jdbc:mysql: url: tables meta_snapshot, meta_history
  kDisabled,  // canal.instance.tsdb.enable=false
};

struct DestinationConfig {
  std::vector<std::string> files;  // the properties files read, in order
  MasterPosition master;
  bool gtid_mode = false;  // canal.instance.gtidon
  TsdbKind tsdb = TsdbKind::kH2;
  std::string tsdb_because;  // the key and value that decided `tsdb`; "" for the default
};

// The configuration of `properties` (merged already).
DestinationConfig destination_config(const Properties& properties);

// Reads `dir`/../canal.properties and `dir`/instance.properties, those that
// exist, reporting as findings (file, offset) what Java would refuse and
// a file too large or unreadable. nullopt when neither exists.
std::optional<DestinationConfig> load_destination_config(const std::string& dir, Reporter* reporter);

}  // namespace qjt::canal
