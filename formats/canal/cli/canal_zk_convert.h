// qjt convert between a meta.dat and Canal's ZooKeeper cursors: what the
// Canal driver runs for --to canal-zk-cursor (a meta.dat client's cursor as
// the bytes ZooKeeperMetaManager writes to its node, for `zkCli.sh set`)
// and --to canal-meta-dat (cursor nodes, one file or a tree, as the
// meta.dat Canal's file mode would hold). The input is refused when what
// is converted has errors: a cursor Canal cannot read is not copied on.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "exit_code.h"
#include "requests.h"

namespace qjt::cli {

struct CanalConvertOptions {
  std::optional<std::int64_t> client;  // --client
  std::string destination;             // --destination
};

// Adds --client and --destination.
void add_canal_convert_options(CLI::App* command, CanalConvertOptions* options);

ExitCode run_canal_convert(const ConvertRequest& request, const CanalConvertOptions& options);

// The shell command that sets a cursor node: zkCli.sh set NODE 'JSON'.
std::string zkcli_set_command(const std::string& znode, const std::string& json);

}  // namespace qjt::cli
