// meta.log: the history of cursors Canal logs just before each flush of
// meta.dat (canal-format.md §2), one line each:
//   2020-07-01 17:39:47.432 - clientId:1001 cursor:[JOURNAL,POS,TS,SERVERID,GTID] address[HOST/IP:PORT]
// Lines from before 2017 carry only JOURNAL,POS,TS. The address is Java's
// InetSocketAddress.toString(): "host/ip:port", "/ip:port" or "host:port".
// Logback rolls the file daily or at 32 MB into gzip'd
// logs/<destination>/<date>/meta-<date>-<i>.log.gz.
//
// The time at the head of a line is the server's local time; it is turned
// into epoch milliseconds in the zone the caller passes (--tz, else this
// machine's: TimeZone::local()), by TimeZone::utc_from_local, whose header
// says how a time that occurs twice or never is read.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "byte_span.h"
#include "canal/line_splitter.h"
#include "canal/meta_dat.h"
#include "finding.h"
#include "time_zone.h"

namespace qjt::canal {

struct LogEntry {
  std::string file;
  std::uint64_t line = 0;    // 1-based
  std::uint64_t offset = 0;  // of the line, in the (decompressed) text
  std::string time;          // as written
  std::int64_t time_ms = 0;
  std::int64_t client_id = 0;
  Cursor cursor;             // address and port from address[...], else the client's last
  bool has_address = false;  // the line has an address[...]
  std::string address_text;  // as written inside address[...]
};

// "yyyy-MM-dd HH:mm:ss.SSS" as local time in `zone`, in epoch milliseconds.
std::optional<std::int64_t> parse_log_time(std::string_view text, const TimeZone& zone);

// Turns meta.log lines into entries one at a time, so that a log is read in
// memory bounded by its longest line, and across files in the order read: a
// line without an address takes its client's last address.
class MetaLogParser {
 public:
  // Reads the lines' times in `zone`.
  MetaLogParser(Reporter* reporter, TimeZone zone) : reporter_(reporter), zone_(std::move(zone)) {}

  // True with *entry for a cursor line of `file`. *entry is written over
  // (pass the same one each time: its buffers are reused); on false it
  // holds nothing of use.
  // Otherwise a finding, unless the line is empty: canal_log_line (a
  // warning: a stack trace logged by the same logger) or canal_long_line
  // (an error: longer than kMaxLineBytes, not read).
  bool parse(const std::string& file, const TextLine& line, LogEntry* entry);

 private:
  std::optional<std::int64_t> time_ms(std::string_view text);

  Reporter* reporter_;
  TimeZone zone_;
  std::map<std::int64_t, std::pair<std::string, std::int64_t>> last_address_;
  // parse_log_time's zone lookup once a minute of log, not once a line:
  // the minute "yyyy-MM-dd HH:mm" and its time.
  std::string minute_;
  std::int64_t minute_ms_ = 0;
};

// The entries of one meta.log's whole text, times read in `zone`, appended
// to *entries.
void read_meta_log(std::string_view text, const std::string& file, const TimeZone& zone, std::vector<LogEntry>* entries,
                   Reporter* reporter);

// Warns (canal_cursor_backwards) where a client's cursor moves before its
// previous one, by Canal's own comparison (restart_cursor.h). Keeps one
// cursor per client.
class CursorOrderCheck {
 public:
  void add(const LogEntry& entry, Reporter* reporter);

 private:
  std::map<std::int64_t, Cursor> last_;
};

// Each client's last entry logged at or before a time, in the order the
// clients first appear, gathered from the entries in the order logged.
class CursorsAt {
 public:
  explicit CursorsAt(std::int64_t at_ms) : at_ms_(at_ms) {}
  void add(const LogEntry& entry);
  const std::vector<LogEntry>& cursors() const { return cursors_; }

 private:
  std::int64_t at_ms_;
  std::vector<LogEntry> cursors_;
  std::map<std::int64_t, std::size_t> index_;  // client id -> its place in cursors_
};

// The meta.dat Canal had after flushing `cursors`: one client each, filter
// and (when the log line has none) source address taken from `previous`,
// the meta.dat being replaced, when it has that client.
MetaDat meta_dat_from_log(const std::vector<LogEntry>& cursors, const std::string& destination,
                          const MetaDat* previous);

// The destination a meta.log path implies: logs/<dest>/meta.log or
// logs/<dest>/<date>/meta-<date>-<i>.log.gz.
std::string destination_of_meta_log(const std::string& path);

}  // namespace qjt::canal
