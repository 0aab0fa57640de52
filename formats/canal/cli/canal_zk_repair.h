// qjt repair on a ZooKeeper cursor node (canal-zk-cursor): --set-position
// and --to-timestamp applied to the node's cursor, as meta.dat's repair
// applies them (formats/canal/meta_repair.h). qjt cannot reach ZooKeeper:
// the plan prints the node's new bytes and the `zkCli.sh set` command that
// installs them; --apply rewrites the file itself (guarded, backed up,
// verified) and prints the command again.
#pragma once

#include "canal/cli/canal_repair.h"

namespace qjt::cli {

ExitCode run_zk_cursor_repair(const CanalRepairRun& run);

}  // namespace qjt::cli
