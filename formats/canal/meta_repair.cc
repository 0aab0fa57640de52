#include "canal/meta_repair.h"
#include "clock.h"
#include "time_value.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

namespace qjt::canal {
namespace {

bool whole_number(std::string_view s, std::int64_t* out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

// The client's cursor, which must exist: the edits keep its source address.
Cursor* cursor_of(MetaDat* meta, std::int64_t client_id, std::string* error) {
  ClientData* client = meta->find(client_id);
  if (client == nullptr) {
    *error = fmt::format("client {} is not in meta.dat", client_id);
    return nullptr;
  }
  if (!client->cursor) {
    *error = fmt::format("client {} has no cursor whose source address could be kept; rebuild it with --from-log",
                         client_id);
    return nullptr;
  }
  return &*client->cursor;
}

std::string describe(const Cursor& c) {
  return fmt::format("{}:{} (timestamp {}, {})", c.journal_name.value_or(""), c.position.value_or(0),
                     c.timestamp.value_or(0), format_time(c.timestamp.value_or(0)));
}

}  // namespace

bool parse_client_id(const std::string& text, std::int64_t* out) { return whole_number(text, out); }

bool parse_set_position(const std::string& text, SetPosition* out) {
  const auto eq = text.find('=');
  const auto colon = text.rfind(':');
  if (eq == std::string::npos || colon == std::string::npos || colon < eq + 2) return false;
  out->journal = text.substr(eq + 1, colon - eq - 1);
  return whole_number(std::string_view(text).substr(0, eq), &out->client_id) &&
         whole_number(std::string_view(text).substr(colon + 1), &out->position);
}

bool parse_to_timestamp(const std::string& text, ToTimestamp* out) {
  const auto eq = text.find('=');
  if (eq == std::string::npos) return false;
  const auto ms = parse_time_value(std::string_view(text).substr(eq + 1), now_ms());
  if (ms) out->timestamp_ms = *ms;
  return whole_number(std::string_view(text).substr(0, eq), &out->client_id) && ms;
}

bool apply_edits(MetaDat* meta, const MetaEdits& edits, std::vector<std::string>* actions, std::string* error) {
  for (const SetPosition& s : edits.set_positions) {
    Cursor* c = cursor_of(meta, s.client_id, error);
    if (c == nullptr) return false;
    const std::string before = describe(*c);
    c->journal_name = s.journal;
    c->position = s.position;
    if (c->gtid) c->gtid = "";
    actions->push_back(fmt::format("client {}: cursor {} -> {}", s.client_id, before, describe(*c)));
  }
  for (const ToTimestamp& t : edits.to_timestamps) {
    Cursor* c = cursor_of(meta, t.client_id, error);
    if (c == nullptr) return false;
    const std::string before = describe(*c);
    *c = timestamp_cursor(*c, t.timestamp_ms);
    actions->push_back(
        fmt::format("client {}: cursor {} -> search by timestamp {}", t.client_id, before, t.timestamp_ms));
  }
  for (const std::int64_t id : edits.drops) {
    if (meta->find(id) == nullptr) {
      *error = fmt::format("client {} is not in meta.dat", id);
      return false;
    }
    std::erase_if(meta->clients, [id](const ClientData& c) { return c.client_id == id; });
    actions->push_back(fmt::format("client {}: dropped", id));
  }
  return true;
}

}  // namespace qjt::canal
