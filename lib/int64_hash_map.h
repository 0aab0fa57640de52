// Int64HashMap: a map from 64-bit integer keys (event pointers, transaction
// ids) to small values, for the replays and rebuilds that keep one entry per
// queued event or open transaction.
//
// Why not std::unordered_map: it allocates a node per entry, and a channel
// of ten million events made the allocator a third of a rebuild's time and
// most of its memory. This is open addressing with linear probing in one
// array: an entry costs its key and value (and half as much again in free
// slots), and nothing is allocated but the array as it doubles.
//
// Contract:
//  - Every key is allowed, 0 included (the one key that marks a free slot
//    is kept beside the table).
//  - find() returns a pointer to the value, valid until the next insert or
//    erase; erase() uses backward-shift deletion, so probe chains stay
//    unbroken without tombstones.
//  - No iteration order is promised; callers that need one sort.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace qjt {

template <typename Value>
class Int64HashMap {
 public:
  // The value of `key`, or nullptr.
  Value* find(std::int64_t key) {
    if (key == kFree) return free_key_value_ ? &*free_key_value_ : nullptr;
    if (slots_.empty()) return nullptr;
    for (std::size_t i = home(key);; i = next(i)) {
      if (slots_[i].key == key) return &slots_[i].value;
      if (slots_[i].key == kFree) return nullptr;
    }
  }
  const Value* find(std::int64_t key) const { return const_cast<Int64HashMap*>(this)->find(key); }
  bool contains(std::int64_t key) const { return find(key) != nullptr; }

  // The value of `key`, inserted as `value` when absent; *inserted (may be
  // null) says which.
  Value& insert(std::int64_t key, Value value = Value(), bool* inserted = nullptr) {
    if (key == kFree) {
      if (inserted) *inserted = !free_key_value_;
      if (!free_key_value_) free_key_value_ = std::move(value);
      return *free_key_value_;
    }
    if ((used_ + 1) * 2 > slots_.size()) grow();
    std::size_t i = home(key);
    while (slots_[i].key != kFree && slots_[i].key != key) i = next(i);
    if (inserted) *inserted = slots_[i].key == kFree;
    if (slots_[i].key == kFree) {
      slots_[i] = Slot{key, std::move(value)};
      ++used_;
    }
    return slots_[i].value;
  }

  // Whether `key` was there.
  bool erase(std::int64_t key) {
    if (key == kFree) {
      const bool was = free_key_value_.has_value();
      free_key_value_.reset();
      return was;
    }
    if (slots_.empty()) return false;
    std::size_t hole = home(key);
    while (slots_[hole].key != key) {
      if (slots_[hole].key == kFree) return false;
      hole = next(hole);
    }
    --used_;
    for (std::size_t j = next(hole); slots_[j].key != kFree; j = next(j)) {
      const std::size_t k = home(slots_[j].key);
      if (((j - k) & mask()) >= ((j - hole) & mask())) {
        slots_[hole] = std::move(slots_[j]);
        hole = j;
      }
    }
    slots_[hole] = Slot{};
    return true;
  }

  // Room for `count` entries before the table grows again.
  void reserve(std::size_t count) {
    while (slots_.size() < count * 2) grow();
  }

  std::size_t size() const { return used_ + (free_key_value_ ? 1 : 0); }
  bool empty() const { return size() == 0; }

  // Calls f(key, value) for every entry, in no particular order.
  template <typename F>
  void for_each(F&& f) const {
    if (free_key_value_) f(kFree, *free_key_value_);
    for (const Slot& s : slots_)
      if (s.key != kFree) f(s.key, s.value);
  }

 private:
  static constexpr std::int64_t kFree = 0;
  struct Slot {
    std::int64_t key = kFree;
    Value value{};
  };

  std::size_t mask() const { return slots_.size() - 1; }
  std::size_t next(std::size_t i) const { return (i + 1) & mask(); }
  std::size_t home(std::int64_t key) const {
    auto x = static_cast<std::uint64_t>(key);  // splitmix64's finalizer
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    return static_cast<std::size_t>(x) & mask();
  }

  void grow() {
    std::vector<Slot> old(slots_.empty() ? 16 : slots_.size() * 2);
    old.swap(slots_);
    for (Slot& s : old) {
      if (s.key == kFree) continue;
      std::size_t i = home(s.key);
      while (slots_[i].key != kFree) i = next(i);
      slots_[i] = std::move(s);
    }
  }

  std::vector<Slot> slots_;
  std::size_t used_ = 0;
  std::optional<Value> free_key_value_;
};

}  // namespace qjt
