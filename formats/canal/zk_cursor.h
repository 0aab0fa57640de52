// A client's cursor as Canal keeps it in ZooKeeper (canal-format.md §4):
// the node /otter/canal/destinations/<destination>/<clientId>/cursor,
// whose data is the LogPosition a meta.dat client holds, written by
// ZooKeeperMetaManager.updateCursor as
// JsonUtils.marshalToByte(position, SerializerFeature.WriteClassName).
//
// qjt never talks to ZooKeeper: it reads what `zkCli.sh get` printed (the
// JSON line amid zkCli's prompt, log and stat lines), the node's data
// saved alone, or a hand-written file, and writes the bytes to `set`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "byte_span.h"
#include "canal/meta_dat.h"
#include "finding.h"

namespace qjt::canal {

// fastjson's "@type" of a cursor node: Canal reads the node as the abstract
// Position, and fastjson needs the name to make a LogPosition of it.
inline constexpr std::string_view kLogPositionType = "com.alibaba.otter.canal.protocol.position.LogPosition";

// Where a cursor node sits: ZookeeperPathUtils' destination and client id.
struct ZkCursorPath {
  std::string destination;
  std::int64_t client_id = 0;

  bool operator==(const ZkCursorPath&) const = default;
};

// The node a path names: ".../destinations/<destination>/<clientId>/cursor",
// a znode's path or a file mirroring it. The client id is digits only, as
// Canal lists its clients (StringUtils.isNumeric), within Java's short.
std::optional<ZkCursorPath> parse_cursor_path(std::string_view path);
// "/otter/canal/destinations/<destination>/<clientId>/cursor", and the
// client's "filter" node beside it.
std::string cursor_znode(const ZkCursorPath& node);
std::string filter_znode(const ZkCursorPath& node);

struct ZkCursor {
  // nullopt: the node's data is empty (zkCli prints an empty line or
  // "null"), which Canal's getCursor reads as no cursor.
  std::optional<Cursor> cursor;
  // The node zkCli's `get` names in the file, when it does.
  std::optional<ZkCursorPath> named;
  std::uint64_t offset = 0;  // where the node's data starts in the file
  bool typed = false;        // "@type" names a LogPosition
};

// Reads one cursor node, reporting every problem: the JSON's as a meta.dat
// cursor's (meta_dat.h), and a missing or foreign "@type" (canal_zk_type).
// nullopt when no cursor node can be read at all (canal_zk_no_data, or the
// JSON's own errors).
std::optional<ZkCursor> read_zk_cursor(ByteSpan bytes, const std::string& file, Reporter* reporter);

// What Canal writes to the node, byte for byte: "@type" first, then the
// LogPosition's keys sorted at every level, no spaces, no newline.
std::string write_zk_cursor(const Cursor& cursor);

// Whether a file's text is a cursor node or zkCli's output around one:
// a line opening a JSON object that has "identity" and "postion" (a bare
// LogPosition, with or without "@type"), and no meta.dat's "clientDatas".
bool looks_like_zk_cursor(std::string_view text);

}  // namespace qjt::canal
