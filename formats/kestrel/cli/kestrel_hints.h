// The remedies qjt knows for classic Kestrel findings: one table, code to
// command (formats/kestrel/README.md lists them beside the codes).
#pragma once

#include <string>

#include "finding.h"

namespace qjt::app {

// The hint of `finding`, with its own file; "" when it has none or when
// the file is standard input, which no command can rewrite.
std::string kestrel_hint(const Finding& finding);

}  // namespace qjt::app
