#include "canal/meta_log.h"

#include <array>
#include <filesystem>

#include <fmt/format.h>

#include "canal/restart_cursor.h"
#include "whole_number.h"

namespace qjt::canal {
namespace {

// Sets *to to `text` in the buffer it has: the entry of each line is
// written over the last one, so millions of lines parse without an
// allocation each.
void set(std::optional<std::string>* to, std::string_view text) {
  if (!*to) to->emplace();
  (*to)->assign(text);
}

// Splits "HOST/IP:PORT", "/IP:PORT" or "HOST:PORT" into the host Canal
// writes to meta.dat (the name when there is one) and the port.
bool parse_address(std::string_view text, Cursor* cursor) {
  const auto colon = text.rfind(':');
  if (colon == std::string_view::npos) return false;
  const auto port = whole_number<std::int64_t>(text.substr(colon + 1));
  std::string_view host = text.substr(0, colon);
  if (const auto slash = host.find('/'); slash != std::string_view::npos)
    host = slash > 0 ? host.substr(0, slash) : host.substr(1);
  if (!port || host.empty()) return false;
  cursor->address.assign(host);
  cursor->port = *port;
  return true;
}

// "JOURNAL,POS,TS" or "JOURNAL,POS,TS,SERVERID,GTID"; a GTID set may hold
// commas itself, so it is the whole rest.
bool parse_cursor_fields(std::string_view text, Cursor* c) {
  std::array<std::string_view, 5> fields;
  std::size_t count = 0;
  for (; count < 4; ++count) {
    const auto comma = text.find(',');
    if (comma == std::string_view::npos) break;
    fields[count] = text.substr(0, comma);
    text.remove_prefix(comma + 1);
  }
  fields[count++] = text;
  if (count != 3 && count != 5) return false;
  set(&c->journal_name, fields[0]);
  c->position = whole_number<std::int64_t>(fields[1]);
  c->timestamp = whole_number<std::int64_t>(fields[2]);
  c->server_id.reset();
  c->gtid.reset();
  if (count == 5) {
    c->server_id = whole_number<std::int64_t>(fields[3]);
    set(&c->gtid, fields[4]);
    if (!c->server_id) return false;
  }
  return c->position && c->timestamp;
}

bool consume(std::string_view* s, std::string_view prefix) {
  if (s->substr(0, prefix.size()) != prefix) return false;
  s->remove_prefix(prefix.size());
  return true;
}

// A cursor line into *e; `time_ms` reads its time.
template <typename TimeMs>
bool parse_line(std::string_view line, TimeMs time_ms, LogEntry* e) {
  constexpr std::size_t kTimeLength = 23;  // yyyy-MM-dd HH:mm:ss.SSS
  if (line.size() < kTimeLength) return false;
  const auto time = time_ms(line.substr(0, kTimeLength));
  std::string_view rest = line.substr(kTimeLength);
  if (!time || !consume(&rest, " - clientId:")) return false;
  e->time.assign(line.substr(0, kTimeLength));
  e->time_ms = *time;
  const auto id_end = rest.find(' ');
  const auto id = whole_number<std::int64_t>(rest.substr(0, id_end));
  if (!id || id_end == std::string_view::npos) return false;
  e->client_id = *id;
  rest.remove_prefix(id_end);
  const auto close = rest.find(']');
  if (!consume(&rest, " cursor:[") || close == std::string_view::npos) return false;
  if (!parse_cursor_fields(rest.substr(0, close - 9), &e->cursor)) return false;
  rest.remove_prefix(close - 8);
  while (!rest.empty() && rest.back() == ' ') rest.remove_suffix(1);
  if (rest.empty()) return true;
  if (!consume(&rest, " address[") || rest.empty() || rest.back() != ']') return false;
  e->address_text.assign(rest.substr(0, rest.size() - 1));
  e->has_address = parse_address(e->address_text, &e->cursor);
  return true;
}

}  // namespace

std::optional<std::int64_t> parse_log_time(std::string_view t, const TimeZone& zone) {
  if (t.size() != 23 || t[4] != '-' || t[7] != '-' || t[10] != ' ' || t[13] != ':' || t[16] != ':' || t[19] != '.')
    return std::nullopt;
  const auto field = [&t](std::size_t at, std::size_t n) { return whole_number<int>(t.substr(at, n)); };
  const auto year = field(0, 4), month = field(5, 2), day = field(8, 2), hour = field(11, 2), minute = field(14, 2),
             second = field(17, 2), ms = field(20, 3);
  if (!year || !month || !day || !hour || !minute || !second || !ms) return std::nullopt;
  if (*month < 1 || *month > 12 || *day < 1 || *day > 31 || *hour > 23 || *minute > 59 || *second > 60)
    return std::nullopt;
  // A day past the month's end (February 31st) is carried into the next
  // month (CivilTime).
  return zone.utc_from_local(CivilTime{*year, *month, *day, *hour, *minute, *second}) * 1000 + *ms;
}

std::optional<std::int64_t> MetaLogParser::time_ms(std::string_view text) {
  constexpr std::size_t kMinute = 16;  // yyyy-MM-dd HH:mm
  if (text.size() == 23 && !minute_.empty() && text.substr(0, kMinute) == minute_ && text[16] == ':' &&
      text[19] == '.') {
    const auto second = whole_number<int>(text.substr(17, 2)), ms = whole_number<int>(text.substr(20, 3));
    if (second && ms && *second <= 60) return minute_ms_ + *second * 1000 + *ms;
  }
  const auto ms = parse_log_time(text, zone_);
  if (ms) {
    minute_ = std::string(text.substr(0, kMinute));
    minute_ms_ = *ms - *whole_number<int>(text.substr(17, 2)) * 1000 - *whole_number<int>(text.substr(20, 3));
  }
  return ms;
}

bool MetaLogParser::parse(const std::string& file, const TextLine& line, LogEntry* e) {
  if (line.too_long()) {
    reporter_->report(Finding{Severity::kError, "canal_long_line", file, line.offset,
                              fmt::format("line {} is {} bytes long, more than a meta.log line can be ({}); not read",
                                          line.number, line.length, kMaxLineBytes)});
    return false;
  }
  std::string_view text = line.text;
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  // Over the last line's entry (set() says why): what parse_line may leave
  // unset is reset here.
  e->file.assign(file);
  e->line = line.number;
  e->offset = line.offset;
  e->has_address = false;
  e->address_text.clear();
  e->cursor.address.clear();
  e->cursor.port = 0;
  if (!parse_line(
          text, [this](std::string_view t) { return time_ms(t); }, e)) {
    if (!text.empty())
      reporter_->report(Finding{.severity = Severity::kWarning,
                                .code = "canal_log_line",
                                .file = file,
                                .offset = line.offset,
                                .message = fmt::format("line {} is not a cursor line (\"TIME - clientId:N cursor:[...] "
                                                       "address[...]\"); skipped",
                                                       line.number),
                                .cause = "lines are not cursor lines (\"TIME - clientId:N cursor:[...] "
                                         "address[...]\") and are skipped"});
    return false;
  }
  // The source of a cursor does not change between flushes unless the log
  // says so.
  if (const auto known = last_address_.find(e->client_id); !e->has_address && known != last_address_.end()) {
    e->cursor.address = known->second.first;
    e->cursor.port = known->second.second;
  }
  if (!e->cursor.address.empty()) {
    auto& [address, port] = last_address_[e->client_id];
    address.assign(e->cursor.address);
    port = e->cursor.port;
  }
  return true;
}

void read_meta_log(std::string_view text, const std::string& file, const TimeZone& zone, std::vector<LogEntry>* entries,
                   Reporter* reporter) {
  MetaLogParser parser(reporter, zone);
  LogEntry entry;
  LineSplitter lines([&](const TextLine& line) {
    if (parser.parse(file, line, &entry)) entries->push_back(entry);
    return true;
  });
  lines.feed(text);
  lines.finish();
}

void CursorOrderCheck::add(const LogEntry& e, Reporter* reporter) {
  const auto [previous, first] = last_.try_emplace(e.client_id, e.cursor);
  if (first) return;
  if (cursor_before(e.cursor, previous->second))
    reporter->report(Finding{
        .severity = Severity::kWarning,
        .code = "canal_cursor_backwards",
        .file = e.file,
        .offset = e.offset,
        .message = fmt::format("line {}: client {} moved back from {}:{} to {}:{}", e.line, e.client_id,
                               previous->second.journal_name.value_or(""), previous->second.position.value_or(0),
                               e.cursor.journal_name.value_or(""), e.cursor.position.value_or(0)),
        .cause = fmt::format("lines move client {} back from its line before", e.client_id)});
  previous->second = e.cursor;
}

void CursorsAt::add(const LogEntry& e) {
  if (e.time_ms > at_ms_) return;
  const auto [place, first] = index_.try_emplace(e.client_id, cursors_.size());
  if (first) {
    cursors_.push_back(e);
  } else {
    cursors_[place->second] = e;
  }
}

MetaDat meta_dat_from_log(const std::vector<LogEntry>& cursors, const std::string& destination,
                          const MetaDat* previous) {
  MetaDat meta;
  meta.destination = destination;
  for (const LogEntry& e : cursors) {
    ClientData client;
    client.client_id = e.client_id;
    client.destination = destination;
    client.filter = "";
    client.cursor = e.cursor;
    const ClientData* old = nullptr;
    if (previous)
      for (const ClientData& c : previous->clients)
        if (c.client_id == e.client_id) old = &c;
    if (old) client.filter = old->filter;
    if (old && old->cursor && e.cursor.address.empty()) {
      client.cursor->address = old->cursor->address;
      client.cursor->port = old->cursor->port;
    }
    meta.clients.push_back(std::move(client));
  }
  return meta;
}

std::string destination_of_meta_log(const std::string& path) {
  const auto p = std::filesystem::absolute(path).lexically_normal();
  const auto parent = p.parent_path();
  // A rolled file sits in a <date> directory below the destination's.
  if (p.filename() != "meta.log" && parent.filename().string().find('-') != std::string::npos)
    return parent.parent_path().filename().string();
  return parent.filename().string();
}

}  // namespace qjt::canal
