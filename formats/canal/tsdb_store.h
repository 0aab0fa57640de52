// Canal's table-meta store (TSDB) as far as qjt can see it without H2: the
// files of the H2 database `h2` beside meta.dat (jdbc:h2:<dir>/h2 opens
// h2.mv.db, and writes h2.trace.db, h2.lock.db and temp files named
// h2.*), their sizes and times, and the MVStore format line of h2.mv.db's
// header. qjt does not parse H2: it cannot tell which DDL the store holds,
// only that it exists and when it was last written (canal-format.md §6).
//
// The store holds schema snapshots and DDL by binlog position. Canal
// rebuilds the schema at the start position from it; a position moved
// back below DDL the store recorded makes that schema wrong ("column size
// is not match"). is_rewind tells whether a cursor moves back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "byte_span.h"
#include "canal/meta_dat.h"

namespace qjt::canal {

// Canal searches the binlogs from a timestamp cursor's time minus
// canal.instance.fallbackIntervalInSeconds (60 by default).
inline constexpr std::int64_t kFallbackIntervalMs = 60'000;

struct StoreFile {
  std::string path;
  std::uint64_t size = 0;
  std::int64_t modified_ms = 0;  // the file's mtime
};

struct TsdbStore {
  std::vector<StoreFile> files;  // by name; h2.mv.db first when there
  // h2.mv.db's MVStore header "format" value, when its first block has one.
  std::optional<std::int64_t> format;

  bool present() const { return !files.empty(); }
  std::uint64_t size() const;
  std::int64_t newest_modified_ms() const;
};

// Whether a file name is one of the H2 store's: h2.*, not a qjt backup.
bool is_store_file_name(std::string_view name);

// The H2 files of `dir` (the directory of meta.dat): every regular file
// named h2.* but qjt's own backups (.qjt-backup-). Nothing is opened but
// h2.mv.db's first 4096 bytes.
TsdbStore find_tsdb_store(const std::string& dir);

// The "format" of an MVStore header block: the "key:value,..." text its
// first 4096 bytes begin with ("H:2,...,format:2,..."); nullopt when
// `block` is no such header.
std::optional<std::int64_t> mvstore_format(ByteSpan block);

// The H2 and Canal releases that write `format`: "H2 1.4 (Canal up to
// 1.1.6)" and so on; "" for a format qjt does not know.
std::string mvstore_release(std::int64_t format);

// Whether moving a client's cursor from `before` to `after` moves it back,
// as Canal orders cursors: two positions from one source (address and
// slave id) by journal name as a string, then position; otherwise, or
// when either is the search-by-time cursor, by timestamp, a search-by-time
// cursor starting kFallbackIntervalMs before its time. false when either
// cursor is unusable or lacks what the comparison needs.
bool is_rewind(const Cursor& before, const Cursor& after);

// The clients whose cursor `after` moves back from `before` (by id, in
// after's order); a client new in `after` or without a cursor before is
// not moved back.
std::vector<std::int64_t> rewound_clients(const MetaDat& before, const MetaDat& after);

}  // namespace qjt::canal
