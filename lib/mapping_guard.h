// MappingGuard: reads of a memory-mapped file that survive the file
// shrinking under them.
//
// Why: a page of a file mapping past the file's end raises SIGBUS when it
// is touched, so a journal truncated by another process while qjt decodes
// it (a live Kestrel or Flume rewriting, an operator's `truncate`) would
// kill qjt with a core instead of a finding. A guard registers its mapping
// with a process-wide SIGBUS handler; a fault inside a registered mapping
// replaces the pages from the faulting one to the mapping's end with zero
// pages and records where the file ran out, and the read goes on with zero
// bytes. The owner then reports the change (InputFile: file_changed).
//
// Contract:
//  - Up to kSlots mappings are guarded at once; beyond that, guard() is
//    false and the mapping is read unguarded, as before the guard existed.
//  - A SIGBUS outside every guarded mapping keeps its default action (the
//    process dies as it would have).
//  - fault_offset() is the offset in the mapping of the lowest page that
//    faulted, nullopt while none did.
#pragma once

#include <cstddef>
#include <optional>

namespace qjt {

class MappingGuard {
 public:
  static constexpr std::size_t kSlots = 4096;

  MappingGuard() = default;
  ~MappingGuard() { release(); }
  MappingGuard(const MappingGuard&) = delete;
  MappingGuard& operator=(const MappingGuard&) = delete;

  // Guards [base, base + size) until release() or destruction. False when
  // every slot is taken.
  bool guard(void* base, std::size_t size);
  void release();

  std::optional<std::size_t> fault_offset() const;

 private:
  int slot_ = -1;
};

}  // namespace qjt
