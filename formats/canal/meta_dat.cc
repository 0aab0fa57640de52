#include "canal/meta_dat.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "canal/json_value.h"
#include "json_writer.h"
#include "path_name.h"

namespace qjt::canal {
namespace {

using Kind = JsonValue::Kind;

// Reads the members of one JSON object, reporting each missing or
// mistyped field once, at the offset of the value (or of the object).
class Fields {
 public:
  Fields(const JsonValue& object, std::string where, const std::string& file, Reporter* reporter)
      : object_(object), where_(std::move(where)), file_(file), reporter_(reporter) {}
  // A nested object, reporting to the same file.
  Fields(const JsonValue& object, std::string where, const Fields& parent)
      : Fields(object, std::move(where), parent.file_, parent.reporter_) {}

  // The member when present and not null, with the wanted kind; missing
  // required members and wrong kinds are findings.
  const JsonValue* get(const char* key, Kind kind, bool required) {
    const JsonValue* v = object_.find(key);
    if (v == nullptr || v->kind == Kind::kNull) {
      if (required) report(object_.offset, "canal_missing_field", fmt::format("{} has no \"{}\"", where_, key));
      ok_ = ok_ && !required;
      return nullptr;
    }
    if (v->kind != kind) {
      report(v->offset, "canal_field_type",
             fmt::format("{}.{}: expected {}, found {}", where_, key, kind_name(kind), kind_name(v->kind)));
      ok_ = false;
      return nullptr;
    }
    return v;
  }

  std::optional<std::string> str(const char* key, bool required) {
    const JsonValue* v = get(key, Kind::kString, required);
    return v ? std::optional<std::string>(v->text) : std::nullopt;
  }

  std::optional<std::int64_t> integer(const char* key, bool required) {
    const JsonValue* v = get(key, Kind::kNumber, required);
    if (v == nullptr) return std::nullopt;
    const auto n = v->as_int();
    if (!n) {
      report(v->offset, "canal_field_type",
             fmt::format("{}.{}: expected a whole number that fits in 64 bits, found {}", where_, key, v->text));
      ok_ = false;
    }
    return n;
  }

  std::optional<bool> boolean(const char* key) {
    const JsonValue* v = get(key, Kind::kBool, false);
    return v ? std::optional<bool>(v->boolean) : std::nullopt;
  }

  void report(std::uint64_t offset, const char* code, std::string message, Severity s = Severity::kError) {
    reporter_->report(Finding{s, code, file_, offset, std::move(message)});
  }

  // A key that differs from one Canal reads only in case, or "position"
  // where Canal reads its own spelling "postion": Canal ignores it.
  void misspellings(std::initializer_list<const char*> known) {
    for (const auto& [key, value] : object_.members) {
      for (const char* k : known) {
        const std::string want = k;
        const bool look_alike =
            (want == "postion" && key == "position") ||
            (key != want && key.size() == want.size() &&
             std::equal(key.begin(), key.end(), want.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
             }));
        if (look_alike)
          report(value.offset, "canal_misspelled_key",
                 fmt::format("{}: \"{}\" is not a key Canal reads (it reads \"{}\"), so its value is ignored", where_,
                             key, want),
                 Severity::kWarning);
      }
    }
  }

  bool ok() const { return ok_; }
  const std::string& where() const { return where_; }
  const std::string& file() const { return file_; }
  Reporter* reporter() const { return reporter_; }

 private:
  const JsonValue& object_;
  std::string where_;
  const std::string& file_;
  Reporter* reporter_;
  bool ok_ = true;
};

// fastjson2 2.0.4 could neither write nor read InetSocketAddress as Canal's
// {"address","port"} pair (canal-format.md §1.2): what it and hand edits
// left instead is a string, or the bean's own getters.
bool fastjson_address_shape(const JsonValue& address) {
  if (address.kind == Kind::kString) return true;
  return address.kind == Kind::kObject &&
         (address.find("hostName") || address.find("hostString") || address.find("unresolved") ||
          (address.find("address") && address.find("address")->kind == Kind::kObject));
}

constexpr std::int64_t kYear2000Ms = 946684800000;
constexpr std::int64_t kYear2100Ms = 4102444800000;

bool journal_name_ok(const std::string& name) {
  const auto dot = name.rfind('.');
  if (dot == std::string::npos || dot == 0 || name.size() - dot - 1 < 6) return false;
  const auto word = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
  };
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  return std::all_of(name.begin(), name.begin() + static_cast<std::ptrdiff_t>(dot), word) &&
         std::all_of(name.begin() + static_cast<std::ptrdiff_t>(dot) + 1, name.end(), digit);
}

std::string timestamp_problem(std::int64_t ts) {
  if (ts >= kYear2000Ms && ts < kYear2100Ms) return "";
  if (ts >= kYear2000Ms / 1000 && ts < kYear2100Ms / 1000)
    return fmt::format("timestamp {} is in seconds; Canal keeps milliseconds ({}000)", ts, ts);
  if (ts >= kYear2100Ms) return fmt::format("timestamp {} is after 2100: expected epoch milliseconds", ts);
  return fmt::format("timestamp {} is before 2000: expected epoch milliseconds", ts);
}

// The values of a cursor whose fields all decoded (canal-format.md §1.2, §9).
void check_cursor_values(const Cursor& c, std::uint64_t offset, Fields* f) {
  const bool search = is_timestamp_cursor(c);
  if (!search && *c.position < 4)
    f->report(offset, "canal_position_range",
              fmt::format("{}: position {} is below 4, where binlog data starts (only the empty-journal, "
                          "position-0 cursor may have it)",
                          f->where(), *c.position));
  if (const std::string problem = timestamp_problem(*c.timestamp); !problem.empty())
    f->report(offset, "canal_timestamp_unit", f->where() + ": " + problem);
  if (!search && !journal_name_ok(*c.journal_name))
    f->report(offset, "canal_journal_name",
              fmt::format("{}: journal name \"{}\" is not a binlog name (BASE.NNNNNN)", f->where(), *c.journal_name));
  if (c.server_id && (*c.server_id < 0 || *c.server_id > 0xFFFFFFFFll))
    f->report(offset, "canal_server_id_range",
              fmt::format("{}: serverId {} is outside MySQL's 32-bit server_id", f->where(), *c.server_id));
  if (c.included)
    f->report(offset, "canal_included",
              fmt::format("{}: included is true, which Canal never writes: the store re-delivers the event at its "
                          "get pointer",
                          f->where()),
              Severity::kWarning);
}

void read_address(const JsonValue& identity, Fields* f, Cursor* out) {
  const JsonValue* address = identity.find("sourceAddress");
  if (address && fastjson_address_shape(*address)) {
    f->report(address->offset, "canal_fastjson_shape",
              fmt::format("{}.sourceAddress: expected {{\"address\":HOST,\"port\":N}} as Canal writes it, found the "
                          "shape fastjson 2.0.4 and hand edits left, which Canal cannot read back",
                          f->where()));
    out->valid = false;
    return;
  }
  if (address == nullptr || address->kind != Kind::kObject) {
    f->report(
        address ? address->offset : identity.offset, "canal_source_address",
        fmt::format("{} has no sourceAddress object: Canal's flush dereferences it and skips writing", f->where()));
    out->valid = false;
    return;
  }
  Fields a(*address, f->where() + ".sourceAddress", *f);
  const auto host = a.str("address", true);
  const auto port = a.integer("port", true);
  if (!a.ok()) {
    out->valid = false;
    return;
  }
  out->address = *host;
  out->port = *port;
  if (out->port < 1 || out->port > 65535)
    f->report(address->offset, "canal_source_address",
              fmt::format("{}.sourceAddress: port {} is outside 1..65535", f->where(), out->port));
}

void read_postion(const JsonValue& postion, Fields* f, Cursor* out) {
  Fields p(postion, f->where() + ".postion", *f);
  p.misspellings({"journalName", "position", "serverId", "timestamp", "gtid", "included"});
  out->journal_name = p.str("journalName", true);
  out->position = p.integer("position", true);
  out->timestamp = p.integer("timestamp", true);
  out->server_id = p.integer("serverId", false);
  out->gtid = p.str("gtid", false);
  out->included = p.boolean("included").value_or(false);
  out->valid = out->valid && p.ok();
}

Cursor read_cursor_fields(const JsonValue& cursor, Fields& c) {
  Cursor out;
  c.misspellings({"identity", "postion"});
  if (const JsonValue* identity = c.get("identity", Kind::kObject, true)) {
    Fields id(*identity, c.where() + ".identity", c);
    read_address(*identity, &id, &out);
    out.slave_id = id.integer("slaveId", false).value_or(-1);
    out.valid = out.valid && id.ok();
  }
  if (const JsonValue* postion = c.get("postion", Kind::kObject, true)) read_postion(*postion, &c, &out);
  out.valid = out.valid && c.ok();
  if (out.valid) check_cursor_values(out, cursor.offset, &c);
  return out;
}

Cursor read_cursor(const JsonValue& cursor, Fields* parent) {
  Fields c(cursor, parent->where() + ".cursor", *parent);
  return read_cursor_fields(cursor, c);
}

std::optional<ClientData> read_client(const JsonValue& entry, std::size_t index, Fields* top) {
  const std::string where = fmt::format("clientDatas[{}]", index);
  if (entry.kind != Kind::kObject) {
    top->report(entry.offset, "canal_field_type",
                fmt::format("{}: expected an object, found {}", where, kind_name(entry.kind)));
    return std::nullopt;
  }
  Fields e(entry, where, *top);
  const JsonValue* identity = e.get("clientIdentity", Kind::kObject, true);
  if (identity == nullptr) return std::nullopt;  // Canal's loadClientIdentity would throw
  Fields id(*identity, where + ".clientIdentity", e);
  ClientData client;
  client.offset = entry.offset;
  const auto client_id = id.integer("clientId", true);
  const auto destination = id.str("destination", true);
  client.filter = id.str("filter", false);
  if (!id.ok()) return std::nullopt;
  client.client_id = *client_id;
  client.destination = *destination;
  if (client.client_id < -32768 || client.client_id > 32767)
    id.report(identity->offset, "canal_client_id_range",
              fmt::format("{}: clientId {} does not fit Canal's short", id.where(), client.client_id));
  if (const JsonValue* cursor = e.get("cursor", Kind::kObject, false)) {
    client.cursor = read_cursor(*cursor, &e);
  } else if (e.ok()) {
    e.report(entry.offset, "canal_no_cursor",
             fmt::format("client {} has no cursor: Canal's next start takes instance.properties or SHOW MASTER "
                         "STATUS, and can skip events",
                         client.client_id),
             Severity::kWarning);
  }
  return client;
}

void check_destinations(const MetaDat& meta, const JsonValue& top, const MetaDatSource& source, Fields* f) {
  if (source.directory_destination.empty()) return;
  if (meta.destination != source.directory_destination)
    f->report(top.offset, "canal_destination_mismatch",
              fmt::format("destination is \"{}\" but the file is in directory \"{}\"", meta.destination,
                          source.directory_destination));
  for (const ClientData& c : meta.clients)
    if (!kept_on_load(c, source))
      f->report(c.offset, "canal_destination_mismatch",
                fmt::format("client {} names destination \"{}\" but the file is in directory \"{}\": Canal drops "
                            "this client on load",
                            c.client_id, c.destination, source.directory_destination));
}

void check_duplicates(const MetaDat& meta, Fields* f) {
  std::set<std::int64_t> seen;
  for (const ClientData& c : meta.clients)
    if (!seen.insert(c.client_id).second)
      f->report(c.offset, "canal_duplicate_client",
                fmt::format("client {} appears twice: Canal keeps one of them", c.client_id));
}

bool readable_json(ByteSpan bytes, const std::string& file, JsonValue* top, Reporter* reporter) {
  auto report = [&](std::uint64_t offset, const char* code, std::string message) {
    reporter->report(Finding{Severity::kError, code, file, offset, std::move(message)});
  };
  if (bytes.empty()) {
    report(0, "canal_empty_file",
           "meta.dat is empty: Canal's write is not atomic, so a crash or a full disk leaves this");
    return false;
  }
  if (const std::size_t good = valid_utf8_prefix(bytes.as_chars()); good < bytes.size()) {
    report(good, "canal_invalid_utf8", "expected UTF-8, found a malformed byte sequence");
    return false;
  }
  if (bytes.size() >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF) {
    report(0, "canal_invalid_json", "the file starts with a byte order mark, which Canal never writes");
    return false;
  }
  JsonError error;
  if (!parse_json(bytes, top, &error)) {
    report(error.offset, error.truncated ? "canal_truncated" : "canal_invalid_json", error.message);
    return false;
  }
  if (top->kind != Kind::kObject) {
    report(top->offset, "canal_invalid_json", fmt::format("expected a JSON object, found {}", kind_name(top->kind)));
    return false;
  }
  return true;
}

}  // namespace

Cursor read_log_position(const JsonValue& value, const std::string& where, const std::string& file,
                         Reporter* reporter) {
  Fields c(value, where, file, reporter);
  return read_cursor_fields(value, c);
}

bool is_timestamp_cursor(const Cursor& c) {
  return c.journal_name && c.journal_name->empty() && c.position == 0 && c.timestamp.value_or(0) > 0;
}

Cursor timestamp_cursor(const Cursor& identity_from, std::int64_t timestamp_ms) {
  Cursor c;
  c.address = identity_from.address;
  c.port = identity_from.port;
  c.slave_id = identity_from.slave_id;
  c.journal_name = "";
  c.position = 0;
  c.timestamp = timestamp_ms;
  c.server_id = identity_from.server_id;
  c.gtid = "";
  return c;
}

ClientData* MetaDat::find(std::int64_t client_id) {
  for (ClientData& c : clients)
    if (c.client_id == client_id) return &c;
  return nullptr;
}

std::string destination_of_meta_dat(const std::string& path) {
  if (path == "-" || base_name(path) != "meta.dat") return "";
  const auto parent = std::filesystem::absolute(path).lexically_normal().parent_path();
  return parent.filename().string();
}

bool kept_on_load(const ClientData& client, const MetaDatSource& source) {
  return source.directory_destination.empty() || client.destination == source.directory_destination;
}

std::optional<MetaDat> read_meta_dat(ByteSpan bytes, const MetaDatSource& source, Reporter* reporter) {
  JsonValue top;
  if (!readable_json(bytes, source.file, &top, reporter)) return std::nullopt;
  Fields f(top, "meta.dat", source.file, reporter);
  MetaDat meta;
  meta.destination = f.str("destination", true).value_or("");
  const JsonValue* clients = f.get("clientDatas", Kind::kArray, true);
  if (clients == nullptr) return std::nullopt;
  for (std::size_t i = 0; i < clients->items.size(); ++i)
    if (auto client = read_client(clients->items[i], i, &f)) meta.clients.push_back(std::move(*client));
  if (clients->items.empty())
    f.report(clients->offset, "canal_no_clients",
             "clientDatas is empty: every position is lost, the next start takes instance.properties or SHOW "
             "MASTER STATUS",
             Severity::kWarning);
  check_destinations(meta, top, source, &f);
  check_duplicates(meta, &f);
  return meta;
}

}  // namespace qjt::canal

namespace qjt::canal {
namespace {

// One JSON object whose members are written in Canal's order: sorted by
// key, nulls left out.
class SortedObject {
 public:
  SortedObject& str(const char* key, const std::optional<std::string>& value) {
    if (value) {
      std::string quoted;
      append_json_string(&quoted, *value);
      members_.emplace_back(key, std::move(quoted));
    }
    return *this;
  }
  SortedObject& integer(const char* key, const std::optional<std::int64_t>& value) {
    if (value) members_.emplace_back(key, std::to_string(*value));
    return *this;
  }
  SortedObject& boolean(const char* key, bool value) {
    members_.emplace_back(key, value ? "true" : "false");
    return *this;
  }
  SortedObject& raw(const char* key, std::string json) {
    members_.emplace_back(key, std::move(json));
    return *this;
  }
  std::string str() {
    std::sort(members_.begin(), members_.end());
    std::string out;
    JsonWriter json(&out);
    json.begin_object();
    for (const auto& [key, value] : members_) json.raw(key, value);
    json.end_object();
    return out;
  }

 private:
  std::vector<std::pair<std::string, std::string>> members_;
};

}  // namespace

std::string log_position_json(const Cursor& c) {
  const std::string address = SortedObject().str("address", c.address).integer("port", c.port).str();
  const std::string identity = SortedObject().integer("slaveId", c.slave_id).raw("sourceAddress", address).str();
  const std::string postion = SortedObject()
                                  .str("gtid", c.gtid)
                                  .boolean("included", c.included)
                                  .str("journalName", c.journal_name)
                                  .integer("position", c.position)
                                  .integer("serverId", c.server_id)
                                  .integer("timestamp", c.timestamp)
                                  .str();
  return SortedObject().raw("identity", identity).raw("postion", postion).str();
}

std::string write_meta_dat(const MetaDat& meta) {
  std::string clients;
  JsonWriter json(&clients);
  json.begin_array();
  for (const ClientData& c : meta.clients) {
    const std::string identity =
        SortedObject().integer("clientId", c.client_id).str("destination", c.destination).str("filter", c.filter).str();
    SortedObject entry;
    entry.raw("clientIdentity", identity);
    if (c.cursor) entry.raw("cursor", log_position_json(*c.cursor));
    json.raw(entry.str());
  }
  json.end_array();
  return SortedObject().raw("clientDatas", clients).str("destination", meta.destination).str();
}

}  // namespace qjt::canal
