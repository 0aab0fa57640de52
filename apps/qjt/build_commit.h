// The commit of the source tree qjt was built from, for qjt --version:
// taken at every build (cmake/write_build_commit.cmake) into a source file
// of its own, so that a new commit compiles that file again and relinks
// qjt, and nothing else.
#pragma once

namespace qjt {

// The abbreviated commit id, followed by "+" when files git tracks were
// changed since it; "unknown" when built outside a git checkout.
const char* build_commit();

}  // namespace qjt
