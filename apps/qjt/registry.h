// The one list of format drivers (driver.h), in the order they claim
// PATHs: magics first, then names and content, then classic Kestrel, which
// has neither and takes what is left. A new family is one line in
// registry.cc.
#pragma once

#include <span>
#include <string_view>

#include "driver.h"

namespace qjt::app {

using Registry = std::span<Driver* const>;

// The drivers qjt has.
Registry registry();

// The driver named `name`, or the one with the file kind `name`
// (--format); null when none has it.
Driver* find_driver(Registry drivers, std::string_view name);

}  // namespace qjt::app
