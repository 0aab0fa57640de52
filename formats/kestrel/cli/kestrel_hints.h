// The remedies qjt knows for classic Kestrel findings (formats/kestrel/
// README.md lists them beside the codes): broken_record's, the repair that
// keeps the most of the file, read again to find it.
#pragma once

#include <string>

#include "finding.h"

namespace qjt::cli {

// The hint of `finding`, with its own file; "" when it has none or when
// the file is standard input, which no command can rewrite.
std::string kestrel_hint(const Finding& finding);

}  // namespace qjt::cli
