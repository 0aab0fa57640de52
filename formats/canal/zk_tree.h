// Canal's ZooKeeper tree mirrored in a directory, as a `zkCli.sh get` loop
// or a backup script leaves it (canal-format.md §4): under `destinations`,
// a directory per destination, in it one per client (its id, digits only,
// as Canal lists clients), and in that the client's nodes as files:
//
//   destinations/<destination>/<clientId>/cursor       the LogPosition (zk_cursor.h)
//   destinations/<destination>/<clientId>/filter       the subscription's filter, UTF-8
//   destinations/<destination>/<clientId>/mark/<id>    a PositionRange: a batch handed
//                                                      out and not yet acked
//
// ZookeeperPathUtils names the batches' node "mark" (ZooKeeperMetaManager's
// class comment says "batch_mark"; both are read). Batch ids are the
// sequential nodes' names, left-padded to 10 digits.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "canal/meta_dat.h"
#include "canal/zk_cursor.h"
#include "finding.h"

namespace qjt::canal {

inline constexpr std::string_view kPositionRangeType = "com.alibaba.otter.canal.protocol.position.PositionRange";

// A batch handed out and not yet acked: what the client acks it with
// (ack, null when the batch holds no transaction boundary), its first and
// last event, and the ring sequence of the last (endSeq).
struct ZkBatch {
  std::int64_t id = 0;
  std::string file;
  std::optional<Cursor> start, ack, end;
  std::optional<std::int64_t> end_seq;
};

struct ZkClientNode {
  ZkCursorPath node;               // destination and client id, from the directories
  std::string dir;                 // the client's directory
  std::string cursor_file;         // "" when the client has no cursor node
  std::optional<ZkCursor> cursor;  // nullopt when absent or unreadable
  std::optional<std::string> filter;
  std::vector<ZkBatch> batches;  // by id
};

struct ZkTree {
  std::string root;                   // the directory read: `destinations`, or one destination's
  std::vector<ZkClientNode> clients;  // by destination, then client id
};

// The directory of `dir`'s tree: `dir` itself when named destinations or
// when it is one destination's directory under one; dir/destinations; or
// dir/otter/canal/destinations. nullopt when none holds a client's
// directory (a destination's directory with a numeric child).
std::optional<std::string> zk_tree_root(const std::string& dir);

// Every client node under `root` (zk_tree_root's), each file read and
// decoded, with what is wrong in them as findings; the checks of
// check_zk_tree are made too.
ZkTree read_zk_tree(const std::string& root, Reporter* reporter);

// A client without a cursor node (Canal then starts from instance.properties
// or SHOW MASTER STATUS: canal issue 3689), a cursor whose zkCli output
// names another node than its place, and the batches: ids with gaps, ranges
// out of order, the cursor behind the first pending batch's start.
void check_zk_client(const ZkClientNode& client, Reporter* reporter);

// A client's PositionRange node, read alone.
std::optional<ZkBatch> read_zk_batch(ByteSpan bytes, std::int64_t id, const std::string& file, Reporter* reporter);

// One client's nodes under its directory `dir`: cursor, filter, batches.
ZkClientNode read_zk_client(const ZkCursorPath& node, const std::string& dir, Reporter* reporter);

// The meta.dat of one destination that these clients make: each client
// of the destination with its filter and cursor, in the order given.
MetaDat zk_meta_dat(const std::vector<ZkClientNode>& clients, const std::string& destination);
// The destinations of the clients, in order, each once.
std::vector<std::string> zk_destinations(const std::vector<ZkClientNode>& clients);

}  // namespace qjt::canal
