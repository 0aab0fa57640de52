#include "canal/meta_repair.h"
#include "time_value.h"
#include "whole_number.h"

#include <algorithm>

#include <fmt/format.h>

namespace qjt::canal {
namespace {

// Sets *out to `s` read as a whole number, leaving it alone when it is none.
bool assign_number(std::string_view s, std::int64_t* out) {
  const auto n = whole_number<std::int64_t>(s);
  if (n) *out = *n;
  return n.has_value();
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

bool parse_client_id(const std::string& text, std::int64_t* out) { return assign_number(text, out); }

bool parse_set_position(const std::string& text, SetPosition* out) {
  const auto eq = text.find('=');
  const auto colon = text.rfind(':');
  if (eq == std::string::npos || colon == std::string::npos || colon < eq + 2) return false;
  out->journal = text.substr(eq + 1, colon - eq - 1);
  return assign_number(std::string_view(text).substr(0, eq), &out->client_id) &&
         assign_number(std::string_view(text).substr(colon + 1), &out->position);
}

bool parse_to_timestamp(const std::string& text, ToTimestamp* out) {
  const auto eq = text.find('=');
  if (eq == std::string::npos) return false;
  const auto ms = parse_time_option(std::string_view(text).substr(eq + 1));
  if (ms) out->timestamp_ms = *ms;
  return assign_number(std::string_view(text).substr(0, eq), &out->client_id) && ms;
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

namespace {

// The cursor Canal resumes `client_id` from when it loads `meta`; null
// when it has none.
const Cursor* loaded_cursor(const MetaDat& meta, std::int64_t client_id, const MetaDatSource& source) {
  for (const ClientData& c : meta.clients)
    if (c.client_id == client_id && kept_on_load(c, source) && c.cursor) return &*c.cursor;
  return nullptr;
}

const Cursor* own_cursor(const ClientData& client) { return client.cursor ? &*client.cursor : nullptr; }

bool has_client(const MetaDat& meta, std::int64_t client_id) {
  return std::any_of(meta.clients.begin(), meta.clients.end(),
                     [client_id](const ClientData& c) { return c.client_id == client_id; });
}

std::uint64_t loaded_cursors(const MetaDat& meta, const MetaDatSource& source) {
  return static_cast<std::uint64_t>(std::count_if(meta.clients.begin(), meta.clients.end(), [&](const ClientData& c) {
    return c.cursor && loaded_cursor(meta, c.client_id, source) == own_cursor(c);
  }));
}

}  // namespace

MetaLoss compare_meta(const std::optional<MetaDat>& before, const MetaDat& after, const MetaDatSource& source) {
  MetaLoss loss;
  loss.items_after = loaded_cursors(after, source);
  for (const ClientData& c : after.clients) {
    const Cursor* later = loaded_cursor(after, c.client_id, source);
    if (later == nullptr || later != own_cursor(c)) continue;  // not the one Canal loads
    const Cursor* now = before ? loaded_cursor(*before, c.client_id, source) : nullptr;
    if (now == nullptr || !(*now == *later)) loss.new_cursors.push_back(c.client_id);
  }
  if (!before) return loss;
  loss.records_now = before->clients.size();
  loss.items_now = loaded_cursors(*before, source);
  for (const ClientData& c : before->clients) {
    if (!has_client(after, c.client_id)) ++loss.records_lost;
    const Cursor* now = loaded_cursor(*before, c.client_id, source);
    if (now == nullptr || now != own_cursor(c)) continue;  // not the one Canal loads
    const Cursor* later = loaded_cursor(after, c.client_id, source);
    if (later == nullptr || !(*later == *now)) loss.lost_cursors.push_back(c.client_id);
  }
  return loss;
}

}  // namespace qjt::canal
