// EventQueue: an exact emulation of Flume's FlumeEventQueue ring (spec §1.3,
// §1.4): the element slots of a checkpoint, the head and size, and the
// per-data-file reference counts, changed by the same add/remove shifting
// rules Flume uses, so that slots() after a replay is byte for byte what
// Flume would write into the checkpoint.
//
// Contract:
// - Logical index i (0 = queue head) lives in slot (head + i) mod capacity.
// - Operations Flume refuses return false and change nothing; the caller
//   reports. Where Flume itself would throw or silently lose an event, the
//   queue does what Flume's state would be afterwards and counts the case in
//   anomalies(), so a replay can say "Flume's startup fails here".
// - remove(pointer) answers as Flume's replay-only queueSet does (a set, not
//   a multiset: after one copy of a duplicated pointer was removed, the
//   others are no longer found). It is O(1) plus Flume's own shifting cost,
//   not a linear search: an index maps each pointer to its slot, built at
//   the first operation that needs it.
// - Memory: capacity slots of 8 bytes are allocated up front, as Flume's
//   checkpoint file holds them. A capacity read from a file is untrusted:
//   the caller must first check that the file really holds capacity * 8
//   element bytes (then allocating them costs no more than the file). A
//   capacity from configuration is the operator's choice. The pointer index
//   grows with the number of distinct pointers actually queued.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "byte_span.h"
#include "flume/event_pointer.h"

namespace qjt::flume {

// Cases where Flume's own code throws or loses data; the emulation goes on
// with the state Flume's data structures would have.
struct QueueAnomalies {
  // addTail passed Flume's full check (size + inflight takes != capacity)
  // but the ring was full: Flume counted the file reference, dropped the
  // pointer and still returned true.
  std::uint64_t dropped_tail_adds = 0;
  // A removal found no reference count for the pointer's file: Flume throws
  // IllegalStateException ("null counter").
  std::uint64_t missing_reference_counts = 0;
  // removeHead took an EMPTY (0) slot: Flume throws IllegalStateException
  // ("Empty value"). Possible only with a corrupt checkpoint.
  std::uint64_t empty_heads_removed = 0;

  bool any() const { return dropped_tail_adds != 0 || missing_reference_counts != 0 || empty_heads_removed != 0; }
};

class EventQueue {
 public:
  // Flume keeps capacity, head and size in Java ints.
  static constexpr std::int64_t kMaxCapacity = 0x7FFFFFFF;

  // An empty queue with head 0, as a new checkpoint file has. nullopt (and
  // *error) unless 1 <= capacity <= kMaxCapacity.
  static std::optional<EventQueue> create(std::int64_t capacity, std::string* error);

  // The queue a checkpoint holds: every element slot (capacity =
  // slots.size()), head and size from the V2 header or checkpoint.meta.
  // Reference counts are counted from the live slots; a caller that loaded
  // the stored counts (V2 header, V3 activeLogs) replaces them with
  // set_reference_counts, as Flume trusts the stored ones. nullopt (and
  // *error) unless 1 <= capacity <= kMaxCapacity, 0 <= head < capacity and
  // 0 <= size <= capacity.
  static std::optional<EventQueue> from_slots(std::vector<std::int64_t> slots, std::int64_t head, std::int64_t size,
                                              std::string* error);
  // The same from the big-endian element bytes of a checkpoint file (its
  // length must be a multiple of 8).
  static std::optional<EventQueue> from_slot_bytes(ByteSpan elements, std::int64_t head, std::int64_t size,
                                                   std::string* error);

  EventQueue(EventQueue&&) noexcept;
  EventQueue& operator=(EventQueue&&) noexcept;
  ~EventQueue();

  std::int32_t capacity() const { return static_cast<std::int32_t>(slots_.size()); }
  std::int32_t head() const { return static_cast<std::int32_t>(head_); }
  std::int32_t size() const { return static_cast<std::int32_t>(size_); }
  bool empty() const { return size_ == 0; }

  // Pointers held by open take transactions (inflightTakes.getSize()):
  // they still count against capacity for addTail. remove_head does not
  // change it; a caller modelling take transactions keeps it up to date.
  std::int64_t inflight_takes() const { return inflight_takes_; }
  void set_inflight_takes(std::int64_t count) { inflight_takes_ = count; }

  // Flume's addTail: refused when size + inflight takes == capacity, or
  // when the pointer is EMPTY (0, Flume's checkArgument).
  bool add_tail(EventPointer pointer);
  // Flume's addHead (rollback of takes): refused only when size ==
  // capacity, or for an EMPTY pointer.
  bool add_head(EventPointer pointer);
  // Flume's removeHead: false when the queue is empty; else *taken is the
  // head (EventPointer{} when the slot was EMPTY, see QueueAnomalies).
  bool remove_head(EventPointer* taken);
  // Flume's replay-only remove(FlumeEventPointer): false when its queueSet
  // does not hold the pointer (or the pointer is EMPTY).
  bool remove(EventPointer pointer);
  // Whether remove(pointer) would find it.
  bool contains(EventPointer pointer) const;

  // The element at logical index i (0 = head); i < size().
  std::int64_t value_at(std::size_t i) const { return slots_[physical(i)]; }
  EventPointer at(std::size_t i) const { return EventPointer::from_long(value_at(i)); }

  // Live references per data file. Files whose count reached 0 are dropped,
  // as Flume drops them.
  std::int64_t reference_count(std::int32_t file_id) const;
  // (file id, count) sorted by file id.
  std::vector<std::pair<std::int32_t, std::int64_t>> reference_counts() const;
  void set_reference_counts(const std::vector<std::pair<std::int32_t, std::int64_t>>& counts);

  // Every element slot in physical order, for a checkpoint writer: what
  // Flume's mmap holds after the same operations (removed slots zeroed,
  // slots outside the live range left as they were).
  const std::vector<std::int64_t>& slots() const { return slots_; }
  // The same, moved out for a writer that needs the queue no more (a
  // rebuilt checkpoint's image): no copy of capacity * 8 bytes.
  std::vector<std::int64_t> release_slots() && { return std::move(slots_); }

  const QueueAnomalies& anomalies() const { return anomalies_; }

  // Logical order from the head.
  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = EventPointer;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = EventPointer;

    const_iterator(const EventQueue* queue, std::size_t i) : queue_(queue), i_(i) {}
    EventPointer operator*() const { return queue_->at(i_); }
    const_iterator& operator++() {
      ++i_;
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator before = *this;
      ++i_;
      return before;
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.i_ == b.i_; }

   private:
    const EventQueue* queue_;
    std::size_t i_;
  };
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size_); }

 private:
  class PointerIndex;
  struct IndexEntry;
  class ReferenceCounts;

  explicit EventQueue(std::vector<std::int64_t> slots, std::size_t head, std::size_t size);

  std::size_t physical(std::size_t i) const {
    const std::size_t p = head_ + i;
    return p >= slots_.size() ? p - slots_.size() : p;
  }
  void set(std::size_t i, std::int64_t value);
  void add(std::size_t index, std::int64_t value);
  // `entry`: the index entry of the value at `index` when the caller has it.
  std::int64_t remove_at(std::size_t index, IndexEntry* entry);
  void decrement_file(std::int64_t value);
  PointerIndex& index() const;  // built at its first use

  std::vector<std::int64_t> slots_;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
  std::int64_t inflight_takes_ = 0;
  mutable std::unique_ptr<PointerIndex> index_;
  std::unique_ptr<ReferenceCounts> counts_;
  QueueAnomalies anomalies_;
};

}  // namespace qjt::flume
