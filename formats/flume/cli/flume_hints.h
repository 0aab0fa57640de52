// The remedies qjt knows for Flume file channel findings: one table, code
// to command (formats/flume/README.md lists them beside the codes).
#pragma once

#include "finding.h"
#include "flume/cli/flume_input.h"

namespace qjt::cli {

// The hints for findings in the channel `flume` names: each command names
// the channel by the same directories (placeholders when the run read lone
// files), keys by alias only.
HintFor flume_hints(const FlumeOptions& flume);

}  // namespace qjt::cli
