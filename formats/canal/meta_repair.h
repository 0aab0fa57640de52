// Repairs of a meta.dat, planned on the decoded model (meta_dat.h) and
// written in Canal's exact layout, so the result is what Canal itself would
// have written: the replacement for hand edits with the service stopped
// (canal-format.md §8, §9).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "canal/meta_dat.h"

namespace qjt::canal {

struct SetPosition {  // --set-position CLIENT=JOURNAL:POS
  std::int64_t client_id = 0;
  std::string journal;
  std::int64_t position = 0;
};

struct ToTimestamp {  // --to-timestamp CLIENT=TIME (any form of time_value.h)
  std::int64_t client_id = 0;
  std::int64_t timestamp_ms = 0;
};

struct MetaEdits {
  std::vector<SetPosition> set_positions;
  std::vector<ToTimestamp> to_timestamps;
  std::vector<std::int64_t> drops;  // --drop-client CLIENT

  bool empty() const { return set_positions.empty() && to_timestamps.empty() && drops.empty(); }
};

// "1001=mysql-bin.000270:4" and "1001=1700000000000"; false on a malformed
// value (a usage error).
bool parse_set_position(const std::string& text, SetPosition* out);
bool parse_to_timestamp(const std::string& text, ToTimestamp* out);
bool parse_client_id(const std::string& text, std::int64_t* out);

// Applies `edits` to *meta, in the order set, to-timestamp, drop, and
// describes each change in *actions. A set position replaces the journal
// name and position, clears a gtid and keeps every other field; a
// to-timestamp writes Canal's own search-by-time cursor (empty journal,
// position 0, the time) keeping the source address, which must still match
// the master for Canal to honour it (§5). False, with *error, when a client
// is not in the file or has no cursor to take the source address from.
bool apply_edits(MetaDat* meta, const MetaEdits& edits, std::vector<std::string>* actions, std::string* error);

// What replacing a meta.dat loses. Its records are its clients; its
// queued items are the cursors Canal resumes from when it loads the file
// (a client it keeps on load, with a cursor). A cursor is lost when the
// new file has no client of that id that Canal keeps with the very same
// cursor: moved by an edit, or dropped. A cursor is new when Canal loads it
// from the new file but not from the old: set by an edit, or rebuilt. So
// items_now - lost + new = items_after.
struct MetaLoss {
  std::uint64_t records_now = 0;
  std::uint64_t records_lost = 0;  // clients whose id the new file lacks
  std::uint64_t items_now = 0;
  std::uint64_t items_after = 0;
  std::vector<std::int64_t> lost_cursors;  // client ids, in the old file's order
  std::vector<std::int64_t> new_cursors;   // client ids, in the new file's order
};

// `before` is nullopt for a file that does not exist or that Canal cannot
// parse: it has nothing to lose.
MetaLoss compare_meta(const std::optional<MetaDat>& before, const MetaDat& after, const MetaDatSource& source);

}  // namespace qjt::canal
