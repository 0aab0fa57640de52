// BytePatch: bytes of a file that are `before` now and become `after`, and
// the replacement of a whole file with such patches made.
//
// Patches are given in ascending, non-overlapping offset order; one that
// does not fit inside the original (or overlaps the one before it) is
// skipped by the piece walk, and refused by patch_file_atomically, which
// checks everything before it writes.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "byte_span.h"

namespace qjt {

struct BytePatch {
  std::uint64_t offset = 0;
  std::string before;
  std::string after;  // as long as `before`
};

// Calls `emit` with the pieces of `original` with the patches made, in
// order: unchanged runs and patched bytes. Stops (false) when emit does.
bool for_each_patched_piece(ByteSpan original, const std::vector<BytePatch>& patches,
                            const std::function<bool(ByteSpan)>& emit);

std::string patched_bytes(ByteSpan original, const std::vector<BytePatch>& patches);

// Replaces `path` with its bytes patched (write_file_atomically, its owner,
// group, mode and extended attributes kept). Refuses
// (false, *error says what was expected and found, the file untouched) when
// the file cannot be read, is not `expected_size` bytes, or does not hold
// some patch's `before`. No patches: nothing is written, true.
bool patch_file_atomically(const std::string& path, std::uint64_t expected_size, const std::vector<BytePatch>& patches,
                           std::string* error);

}  // namespace qjt
