// Where Canal's parser restarts a destination: the minimum cursor over its
// clients, by Canal's own comparison (CanalEventUtils.min, canal-format.md
// §1.3). Two cursors from the same source (same sourceAddress and slaveId)
// compare by journal name AS A STRING, then position; cursors from
// different sources compare by timestamp. Ties keep the earlier client.
#pragma once

#include <optional>

#include "canal/meta_dat.h"

namespace qjt::canal {

// Whether `a` is before `b` by Canal's rule (false on a tie).
bool cursor_before(const Cursor& a, const Cursor& b);

struct RestartCursor {
  std::int64_t client_id = 0;  // the client that holds the destination back
  Cursor cursor;
};

// Over the clients Canal keeps on load that have a usable cursor, in file
// order; nullopt when there is none (Canal then falls back to
// instance.properties or SHOW MASTER STATUS).
std::optional<RestartCursor> restart_cursor(const MetaDat& meta, const MetaDatSource& source);

}  // namespace qjt::canal
