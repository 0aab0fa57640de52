#include "canal/cli/canal_cursor_output.h"

#include <fmt/format.h>

#include "time_value.h"

namespace qjt::cli {

void optional_str(JsonWriter* line, const char* key, const std::optional<std::string>& v) {
  v ? line->str(key, *v) : line->null(key);
}

void optional_num(JsonWriter* line, const char* key, const std::optional<std::int64_t>& v) {
  v ? line->num(key, *v) : line->null(key);
}

void cursor_fields(JsonWriter* line, const canal::Cursor& c) {
  optional_str(line, "journal_name", c.journal_name);
  optional_num(line, "position", c.position);
  optional_num(line, "server_id", c.server_id);
  optional_num(line, "timestamp", c.timestamp);
  optional_str(line, "gtid", c.gtid);
  line->boolean("included", c.included).str("address", c.address).num("port", c.port).num("slave_id", c.slave_id);
}

std::string cursor_text(const canal::Cursor& c) {
  std::string text = fmt::format("{}:{} timestamp {} ({})", c.journal_name.value_or(""), c.position.value_or(0),
                                 c.timestamp.value_or(0), format_time(c.timestamp.value_or(0)));
  if (c.server_id) text += fmt::format(" server_id {}", *c.server_id);
  if (c.gtid) text += fmt::format(" gtid \"{}\"", *c.gtid);
  return text + fmt::format(" included {} source {}:{} slave_id {}", c.included, c.address, c.port, c.slave_id);
}

}  // namespace qjt::cli
