// now_ms: the wall clock qjt stamps its outputs with (backup directory
// names, new segment names, rebuilt checkpoints' timestamps), in
// milliseconds since the Unix epoch.
//
// Tests and reproducible fixtures need those names and bytes to be the same
// on every run, so the environment variable QJT_NOW_MS, when it holds a
// decimal integer (optionally negative), is returned instead of the system
// clock. Any other value is ignored. Documented in man/qjt.1, ENVIRONMENT.
#pragma once

#include <cstdint>

namespace qjt {

std::int64_t now_ms();

}  // namespace qjt
