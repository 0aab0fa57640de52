#include "mapping_guard.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <mutex>

namespace qjt {
namespace {

// One guarded mapping. `begin` is 0 in a free slot; the handler reads the
// slots without a lock, so every field is atomic and a slot is published
// by storing `begin` last.
struct Slot {
  std::atomic<std::uintptr_t> begin{0};
  std::atomic<std::uintptr_t> end{0};
  std::atomic<std::uintptr_t> fault{UINTPTR_MAX};  // lowest faulting address
};

Slot slots[MappingGuard::kSlots];
std::mutex slots_mutex;  // taking and freeing slots; never in the handler

std::uintptr_t page_size() {
  static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  return page;
}

void on_sigbus(int signal, siginfo_t* info, void*) {
  const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  for (Slot& slot : slots) {
    const std::uintptr_t begin = slot.begin.load(std::memory_order_acquire);
    const std::uintptr_t end = slot.end.load(std::memory_order_relaxed);
    if (begin == 0 || address < begin || address >= end) continue;
    const std::uintptr_t page = address & ~(page_size() - 1);
    // Zero pages from here to the end: the file holds none of these bytes
    // any more, and every later touch of them would fault again.
    void* zeros =
        ::mmap(reinterpret_cast<void*>(page), end - page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (zeros == MAP_FAILED) break;
    std::uintptr_t seen = slot.fault.load(std::memory_order_relaxed);
    while (page < seen && !slot.fault.compare_exchange_weak(seen, page)) {
    }
    return;
  }
  // Not ours: the default action, when the faulting access runs again.
  ::signal(signal, SIG_DFL);
}

void install_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGBUS, &action, nullptr);
  });
}

}  // namespace

bool MappingGuard::guard(void* base, std::size_t size) {
  release();
  install_handler();
  const std::lock_guard<std::mutex> lock(slots_mutex);
  for (std::size_t i = 0; i < kSlots; ++i) {
    Slot& slot = slots[i];
    if (slot.begin.load(std::memory_order_relaxed) != 0) continue;
    const auto begin = reinterpret_cast<std::uintptr_t>(base);
    slot.fault.store(UINTPTR_MAX, std::memory_order_relaxed);
    slot.end.store(begin + size, std::memory_order_relaxed);
    slot.begin.store(begin, std::memory_order_release);
    slot_ = static_cast<int>(i);
    return true;
  }
  return false;
}

void MappingGuard::release() {
  if (slot_ < 0) return;
  const std::lock_guard<std::mutex> lock(slots_mutex);
  slots[slot_].begin.store(0, std::memory_order_release);
  slot_ = -1;
}

std::optional<std::size_t> MappingGuard::fault_offset() const {
  if (slot_ < 0) return std::nullopt;
  const Slot& slot = slots[slot_];
  const std::uintptr_t fault = slot.fault.load(std::memory_order_acquire);
  if (fault == UINTPTR_MAX) return std::nullopt;
  return static_cast<std::size_t>(fault - slot.begin.load(std::memory_order_relaxed));
}

}  // namespace qjt
