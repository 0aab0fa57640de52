// Canal's ZooKeeper cursors for the read commands: dump, verify and stats of
// cursor nodes (canal-zk-cursor: one node's JSON, or zkCli's output around
// it) and of mirrored trees (canal-zk-tree, formats/canal/zk_tree.h). What
// a meta.dat client is checked for, a node's cursor is too; a tree adds
// its own checks (a client without a cursor, pending batches).
#pragma once

#include <cstdint>
#include <vector>

#include "canal/canal_stats.h"
#include "canal/cli/canal_commands.h"
#include "canal/zk_tree.h"

namespace qjt::cli {

// The client nodes of `paths`, all of `kind` (kZkCursor or kZkTree): a
// cursor file's, with its filter and batches when it sits in a tree's
// layout (.../destinations/<destination>/<clientId>/cursor), or every
// client of a tree. A cursor file placed nowhere, and naming no node in
// zkCli's output, has an empty destination and client id -1. False when a
// file could not be read (an io_error finding).
bool read_zk_nodes(const std::vector<std::string>& paths, canal::FileKind kind, Reporter* reporter,
                   std::vector<canal::ZkClientNode>* out);

// The cursor node in `bytes`, the file `path`'s, alone (no sibling is
// read): its place from the path, else from zkCli's output in it.
canal::ZkClientNode zk_cursor_node(const std::string& path, ByteSpan bytes, Reporter* reporter);

// Whether a node's place is known (its destination and client id).
bool placed(const canal::ZkClientNode& node);

ExitCode run_zk_dump(const CanalRun& run);

// verify's findings of the run's nodes, --binlogs applied (`binlogs` null
// when not given); the number of client nodes read.
bool verify_zk(const CanalRun& run, const canal::BinlogSizes* binlogs, Reporter* findings, std::uint64_t* records);

// stats: each destination's clients as a meta.dat's (canal_stats.h).
bool zk_stats(const CanalRun& run, const canal::BinlogSizes* binlogs, std::int64_t now_ms, StatsModel* model,
              Reporter* findings);

}  // namespace qjt::cli
