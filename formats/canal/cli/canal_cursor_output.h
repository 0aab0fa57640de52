// How the commands print a cursor (a LogPosition), the same wherever it
// comes from: a meta.dat client's, a ZooKeeper node's, a batch's bounds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "canal/meta_dat.h"
#include "json_writer.h"

namespace qjt::cli {

// `key`: the value, or null when absent.
void optional_str(JsonWriter* line, const char* key, const std::optional<std::string>& value);
void optional_num(JsonWriter* line, const char* key, const std::optional<std::int64_t>& value);

// The cursor's fields into an open object (qjt-json(5)).
void cursor_fields(JsonWriter* line, const canal::Cursor& cursor);

// One line's worth: "JOURNAL:POS timestamp MS (TIME) ... source HOST:PORT slave_id N".
std::string cursor_text(const canal::Cursor& cursor);

}  // namespace qjt::cli
