#include "canal/restart_cursor.h"

#include <string_view>

namespace qjt::canal {

bool cursor_before(const Cursor& a, const Cursor& b) {
  const bool same_source = a.address == b.address && a.port == b.port && a.slave_id == b.slave_id;
  if (!same_source) return a.timestamp.value_or(0) < b.timestamp.value_or(0);
  const auto journal = [](const Cursor& c) { return c.journal_name ? std::string_view(*c.journal_name) : ""; };
  const std::string_view ja = journal(a), jb = journal(b);
  if (ja != jb) return ja < jb;
  return a.position.value_or(0) < b.position.value_or(0);
}

std::optional<RestartCursor> restart_cursor(const MetaDat& meta, const MetaDatSource& source) {
  std::optional<RestartCursor> result;
  for (const ClientData& c : meta.clients) {
    if (!c.cursor || !c.cursor->valid || !kept_on_load(c, source)) continue;
    if (!result || cursor_before(*c.cursor, result->cursor)) result = RestartCursor{c.client_id, *c.cursor};
  }
  return result;
}

}  // namespace qjt::canal
