// meta.dat: the consumer checkpoint Canal's FileMixedMetaManager keeps in
// <data dir>/<destination>/meta.dat (canal-format.md §1): the destination,
// and per subscribed client its identity and the cursor it has acked up to.
//
// read_meta_dat decodes every layout Canal has written (fastjson 1 and 2,
// files from before 2016 without gtid or serverId, cursors carrying
// fastjson's "@type" as ZooKeeper holds them) and reports, as findings, what
// Canal would trip over or silently drop. write_meta_dat writes the one
// layout Canal writes: compact JSON on one line, keys in alphabetical order
// at every level, no nulls, no trailing newline.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "byte_span.h"
#include "canal/json_value.h"
#include "finding.h"

namespace qjt::canal {

// A LogPosition: the source identity and the EntryPosition ("postion").
// Optional members are the ones Canal leaves out when they are null.
struct Cursor {
  std::string address;  // identity.sourceAddress.address: a host name or an IP
  std::int64_t port = 0;
  std::int64_t slave_id = -1;
  std::optional<std::string> journal_name;
  std::optional<std::int64_t> position;
  std::optional<std::int64_t> server_id;
  std::optional<std::int64_t> timestamp;
  std::optional<std::string> gtid;
  bool included = false;
  bool valid = true;  // false when a field was missing or malformed: Canal cannot use it

  bool operator==(const Cursor&) const = default;
};

// One LogPosition object, a meta.dat client's cursor or a ZooKeeper cursor
// node's (zk_cursor.h), decoded with every check of a meta.dat cursor;
// `where` names it in the findings. Not valid when a field is missing or
// malformed (the findings say which).
Cursor read_log_position(const JsonValue& value, const std::string& where, const std::string& file, Reporter* reporter);
// A LogPosition as fastjson writes it: keys sorted at every level, nulls
// left out, no "@type".
std::string log_position_json(const Cursor& cursor);

// Canal's own "search by timestamp" cursor (§5): an empty journal name,
// position 0 and a positive timestamp.
bool is_timestamp_cursor(const Cursor& cursor);
Cursor timestamp_cursor(const Cursor& identity_from, std::int64_t timestamp_ms);

struct ClientData {
  std::int64_t client_id = 0;
  std::string destination;            // clientIdentity.destination
  std::optional<std::string> filter;  // clientIdentity.filter
  std::optional<Cursor> cursor;       // absent: subscribed, nothing acked yet
  std::uint64_t offset = 0;           // where the entry starts in the file
};

struct MetaDat {
  std::string destination;
  std::vector<ClientData> clients;

  ClientData* find(std::int64_t client_id);
};

// Where the file was found: its path for findings, and the destination its
// directory names (empty when unknown, e.g. standard input).
struct MetaDatSource {
  std::string file;
  std::string directory_destination;
};

// The destination a meta.dat path implies: the name of its directory, when
// the file is named meta.dat (else "": a copy elsewhere is not checked).
std::string destination_of_meta_dat(const std::string& path);

// Decodes `bytes`, reporting every problem. nullopt when the file cannot be
// read as a meta.dat at all (empty, truncated, not UTF-8, not JSON, not an
// object); the findings say why.
std::optional<MetaDat> read_meta_dat(ByteSpan bytes, const MetaDatSource& source, Reporter* reporter);

// Canal's layout, byte for byte.
std::string write_meta_dat(const MetaDat& meta);

// Whether a client is one Canal keeps on load: its identity's destination
// is the directory's (or the directory is unknown).
bool kept_on_load(const ClientData& client, const MetaDatSource& source);

}  // namespace qjt::canal
