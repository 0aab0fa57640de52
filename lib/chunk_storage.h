// Raw storage for the big chunks of ChunkedDeque.
//
// A replay that keeps millions of items touches hundreds of MiB of fresh
// memory; with 4 KiB pages the kernel takes a page fault (and zeroes a page)
// every 4 KiB, and those faults were a third of a replay's time. Storage of
// a whole multiple of 2 MiB is therefore mapped 2 MiB-aligned and advised
// MADV_HUGEPAGE, so that with transparent huge pages in "madvise" or
// "always" mode one fault brings in 2 MiB. Smaller sizes come from new.
#pragma once

#include <cstddef>

namespace qjt {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

// Never returns null: throws std::bad_alloc when memory is exhausted.
void* allocate_chunk_storage(std::size_t bytes);
void free_chunk_storage(void* storage, std::size_t bytes);

}  // namespace qjt
