// The remedies qjt knows for Canal meta.dat findings: one table, code to
// command (formats/canal/README.md lists them beside the codes).
#pragma once

#include <string>

#include "finding.h"

namespace qjt::cli {

// The hint of `finding`, with its own meta.dat, the client its message
// names ("client N: ..."), and the destination's meta.log where Canal's
// layout puts it (conf/D/meta.dat beside logs/D/meta.log); what cannot be
// known is a placeholder in capitals (CLIENT, JOURNAL:POS, META_LOG).
std::string canal_hint(const Finding& finding);

}  // namespace qjt::cli
