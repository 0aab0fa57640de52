// How much room a file system has left, for the writers' check before they
// start: a run that stops half-way for want of space leaves work to undo,
// so each writer asks for what its plan will write first.
//
// QJT_FREE_BYTES, when it holds a decimal integer, is returned instead of
// the file system's answer: no test can fill a real disk. Documented in
// man/qjt.1, ENVIRONMENT.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace qjt {

// The bytes an unprivileged process may still write on the file system
// holding `path`, or holding its nearest existing parent when `path` does
// not exist yet; nullopt when that cannot be told.
std::optional<std::uint64_t> free_bytes(const std::string& path);

// Whether `a` and `b` (or their nearest existing parents) are on one file
// system, where a copy can be a hard link that takes no room.
bool same_file_system(const std::string& a, const std::string& b);

}  // namespace qjt
