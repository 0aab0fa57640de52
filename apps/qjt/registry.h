// The one list of format drivers (driver.h), in the order they claim
// PATHs: magics first, then names and content, then classic Kestrel, which
// has neither and takes what is left. A new family is one line in
// registry.cc.
#pragma once

#include "driver.h"

namespace qjt::cli {

// The drivers qjt has.
Registry registry();

}  // namespace qjt::cli
