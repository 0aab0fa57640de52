#include "chunk_storage.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace qjt {

namespace {

bool is_huge(std::size_t bytes) { return bytes % kHugePageBytes == 0; }

void* map_aligned(std::size_t bytes) {
  // Map one huge page more than needed and trim both ends to alignment.
  const std::size_t span = bytes + kHugePageBytes;
  void* raw = ::mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + kHugePageBytes - 1) & ~(std::uintptr_t{kHugePageBytes} - 1);
  if (aligned > start) ::munmap(raw, aligned - start);
  const std::uintptr_t end = start + span;
  if (end > aligned + bytes) ::munmap(reinterpret_cast<void*>(aligned + bytes), end - aligned - bytes);
  void* storage = reinterpret_cast<void*>(aligned);
  ::madvise(storage, bytes, MADV_HUGEPAGE);  // advice only: without THP, plain pages
  return storage;
}

}  // namespace

void* allocate_chunk_storage(std::size_t bytes) { return is_huge(bytes) ? map_aligned(bytes) : ::operator new(bytes); }

void free_chunk_storage(void* storage, std::size_t bytes) {
  if (storage == nullptr) return;
  if (is_huge(bytes)) {
    ::munmap(storage, bytes);
  } else {
    ::operator delete(storage);
  }
}

}  // namespace qjt
