// What `qjt stats` says of Canal's files (stats_model.h), from what the
// family already decodes: a meta.dat's clients and restart cursor, a
// meta.log's entries as they are read, and SHOW BINARY LOGS (binlog_list.h)
// when the server's binlogs are given. README.md's "Stats" lists every
// figure.
//
// Entities, labelled format "canal", path (the file), destination:
//  - "destination": of a meta.dat, its clients, its restart cursor
//    (restart_cursor.h) and, with binlogs, the binlogs that cursor still
//    needs and those no client needs; of a meta.log, its lines, size, span
//    and ages.
//  - "client" (labels ..., client): its cursor (the meta.dat's, or the
//    meta.log's last line of it): binlog position, keyed by journal; the
//    binlog timestamp and its lag behind `now_ms`. Of a meta.dat, with
//    binlogs, how far it is behind the server's and whether its binlog was
//    purged; of a meta.log, its lines, position changes, update rate and
//    last change.
//
// Binlogs are ordered by name as strings, as Canal compares journals
// (restart_cursor.h) and as read_binlog_list's map holds them. Nothing
// here reports findings: the callers report what verify and replay report.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "canal/meta_dat.h"
#include "canal/meta_log.h"
#include "canal/tsdb_store.h"
#include "stats_model.h"

namespace qjt::canal {

// read_binlog_list's result: name -> size.
using BinlogSizes = std::map<std::string, std::uint64_t>;

// The entities of one decoded meta.dat read from `source.file`. `binlogs`
// null: the server's binlogs were not given.
void add_meta_dat_stats(const MetaDat& meta, const MetaDatSource& source, const BinlogSizes* binlogs,
                        std::int64_t now_ms, StatsModel* model);

// The table-meta store beside a meta.dat, on its destination: `tsdb`
// (its files' bytes) and `tsdb_written` (the newest mtime); nothing when
// there is none.
void add_tsdb_stats(const TsdbStore& store, const MetaDat& meta, const MetaDatSource& source, StatsModel* model);

// The entities of meta.log files read one after another: add() each entry
// as it is read, then finish_file() at the end of each file. Holds one
// state per client of the file being read, nothing per entry.
class MetaLogStats {
 public:
  explicit MetaLogStats(std::int64_t now_ms) : now_ms_(now_ms) {}

  void add(const LogEntry& entry);
  // Adds the entities of `path`, `bytes` long on disk, whose entries were
  // added since the last call (the clients in the order they first
  // appear), and starts the next file.
  void finish_file(const std::string& path, std::uint64_t bytes, StatsModel* model);

 private:
  struct ClientLog {
    std::int64_t client_id = 0;
    Cursor cursor;  // its last line's
    std::uint64_t lines = 0;
    std::uint64_t position_changes = 0;
    std::optional<std::int64_t> last_change_ms;
  };

  std::int64_t now_ms_;
  std::vector<ClientLog> clients_;
  std::map<std::int64_t, std::size_t> index_;  // client id -> its place in clients_
  std::uint64_t lines_ = 0;
  std::int64_t earliest_ms_ = 0, latest_ms_ = 0;
};

}  // namespace qjt::canal
