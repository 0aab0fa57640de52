#include "flume/event_queue.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include <fmt/format.h>

#include "int64_hash_map.h"

namespace qjt::flume {
namespace {

constexpr std::int64_t kEmpty = 0;

std::int32_t file_of(std::int64_t value) { return EventPointer::from_long(value).file_id; }

}  // namespace

// Pointer value -> (copies in the live slots, whether Flume's queueSet still
// holds it, the slot of the only copy), in an Int64HashMap: replay adds
// and removes millions of pointers, and a node-based map would allocate for
// each. EMPTY is never indexed.
struct EventQueue::IndexEntry {
  static constexpr std::uint32_t kUnknownSlot = std::numeric_limits<std::uint32_t>::max();
  static constexpr std::uint32_t kInSet = 0x80000000u;

  std::uint32_t slot = kUnknownSlot;  // meaningful only while copies() == 1
  std::uint32_t bits = 0;             // copies | kInSet
  std::uint32_t copies() const { return bits & ~kInSet; }
  bool in_set() const { return (bits & kInSet) != 0; }
};

class EventQueue::PointerIndex {
 public:
  using Entry = IndexEntry;
  static constexpr std::uint32_t kUnknownSlot = Entry::kUnknownSlot;
  static constexpr std::uint32_t kInSet = Entry::kInSet;

  explicit PointerIndex(std::size_t expected) { entries_.reserve(expected); }

  Entry* find(std::int64_t key) { return entries_.find(key); }
  const Entry* find(std::int64_t key) const { return entries_.find(key); }

  // A queue add: one more copy, and the queueSet holds it again. The entry
  // stays valid until the next added() or removal.
  Entry* added(std::int64_t key) {
    Entry& e = entries_.insert(key);
    const std::uint32_t copies = e.copies() + 1;
    e.bits = copies | kInSet;
    if (copies > 1) e.slot = kUnknownSlot;
    return &e;
  }

  // A queue removal of one copy; queueSet.remove drops it from the set even
  // when other copies stay queued.
  void removed(std::int64_t key) {
    Entry* e = find(key);
    if (e != nullptr) removed(key, e);
  }
  void removed(std::int64_t key, Entry* e) {
    const std::uint32_t copies = e->copies() - 1;
    if (copies == 0) {
      entries_.erase(key);
      return;
    }
    e->bits = copies;
    e->slot = kUnknownSlot;  // which copy is left is not known without a search
  }

  // The value was written into `slot`; the last write of a single copy is
  // where it lives.
  void moved(std::int64_t key, std::size_t slot) {
    Entry* e = find(key);
    if (e != nullptr) e->slot = static_cast<std::uint32_t>(slot);
  }

 private:
  Int64HashMap<Entry> entries_;
};

// Flume's logFileIDReferenceCounts: a file's entry exists while its count
// is non-zero. Few files are live at once, so a hash map is plenty.
class EventQueue::ReferenceCounts {
 public:
  void increment(std::int32_t file_id) { ++counts_[file_id]; }
  // False when Flume would find no counter (its checkState fails).
  bool decrement(std::int32_t file_id) {
    const auto it = counts_.find(file_id);
    if (it == counts_.end()) return false;
    if (--it->second == 0) counts_.erase(it);
    return true;
  }
  std::int64_t count(std::int32_t file_id) const {
    const auto it = counts_.find(file_id);
    return it == counts_.end() ? 0 : it->second;
  }
  std::vector<std::pair<std::int32_t, std::int64_t>> sorted() const {
    std::vector<std::pair<std::int32_t, std::int64_t>> out(counts_.begin(), counts_.end());
    std::sort(out.begin(), out.end());
    return out;
  }
  void assign(const std::vector<std::pair<std::int32_t, std::int64_t>>& counts) {
    counts_.clear();
    for (const auto& [file_id, count] : counts)
      if (count != 0) counts_[file_id] = count;
  }

 private:
  std::unordered_map<std::int32_t, std::int64_t> counts_;
};

EventQueue::EventQueue(std::vector<std::int64_t> slots, std::size_t head, std::size_t size)
    : slots_(std::move(slots)), head_(head), size_(size), counts_(std::make_unique<ReferenceCounts>()) {
  for (std::size_t i = 0; i < size_; ++i) {
    const std::int64_t value = value_at(i);
    if (value != kEmpty) counts_->increment(file_of(value));
  }
}

// Flume's constructor fills its queueSet with every live slot, and every
// add puts the value in. Built at the first operation that needs it (a
// lookup or a removal), from the slots as they are then: until a removal,
// every live value is in the set, so nothing is lost by not keeping it
// before. A queue only ever added to (a rebuild, a replay with nothing
// after its checkpoint) never builds it.
EventQueue::PointerIndex& EventQueue::index() const {
  if (index_) return *index_;
  index_ = std::make_unique<PointerIndex>(size_);
  for (std::size_t i = 0; i < size_; ++i) {
    const std::int64_t value = value_at(i);
    if (value != kEmpty) index_->added(value)->slot = static_cast<std::uint32_t>(physical(i));
  }
  return *index_;
}

EventQueue::EventQueue(EventQueue&&) noexcept = default;
EventQueue& EventQueue::operator=(EventQueue&&) noexcept = default;
EventQueue::~EventQueue() = default;

std::optional<EventQueue> EventQueue::create(std::int64_t capacity, std::string* error) {
  if (capacity < 1 || capacity > kMaxCapacity) {
    *error = fmt::format("expected a capacity from 1 to {}, found {}", kMaxCapacity, capacity);
    return std::nullopt;
  }
  return EventQueue(std::vector<std::int64_t>(static_cast<std::size_t>(capacity), kEmpty), 0, 0);
}

std::optional<EventQueue> EventQueue::from_slots(std::vector<std::int64_t> slots, std::int64_t head, std::int64_t size,
                                                 std::string* error) {
  const auto capacity = static_cast<std::int64_t>(slots.size());
  if (capacity < 1 || capacity > kMaxCapacity) {
    *error = fmt::format("expected a capacity from 1 to {}, found {}", kMaxCapacity, capacity);
    return std::nullopt;
  }
  if (head < 0 || head >= capacity) {
    *error = fmt::format("expected a queue head from 0 to {}, found {}", capacity - 1, head);
    return std::nullopt;
  }
  if (size < 0 || size > capacity) {
    *error = fmt::format("expected a queue size from 0 to {}, found {}", capacity, size);
    return std::nullopt;
  }
  return EventQueue(std::move(slots), static_cast<std::size_t>(head), static_cast<std::size_t>(size));
}

std::optional<EventQueue> EventQueue::from_slot_bytes(ByteSpan elements, std::int64_t head, std::int64_t size,
                                                      std::string* error) {
  if (elements.size() % 8 != 0) {
    *error = fmt::format("expected element bytes in whole 8-byte slots, found {} bytes", elements.size());
    return std::nullopt;
  }
  if (elements.size() / 8 > static_cast<std::uint64_t>(kMaxCapacity)) {
    *error = fmt::format("expected at most {} element slots, found {}", kMaxCapacity, elements.size() / 8);
    return std::nullopt;
  }
  std::vector<std::int64_t> slots(elements.size() / 8);
  ByteReader reader(elements);
  for (std::int64_t& slot : slots) reader.read_i64_be(&slot);
  return from_slots(std::move(slots), head, size, error);
}

void EventQueue::set(std::size_t i, std::int64_t value) {
  const std::size_t p = physical(i);
  slots_[p] = value;
  if (value != kEmpty && index_) index_->moved(value, p);
}

// FlumeEventQueue.add(index, value) with room checked by the caller: the
// shorter side moves, and the head side moves by stepping head back.
void EventQueue::add(std::size_t index, std::int64_t value) {
  // Until something needs the index, it is not kept: built later from the
  // slots, it says what keeping it would have said, since every live value
  // is in Flume's queueSet until a removal (which builds it) takes one out.
  PointerIndex::Entry* entry = index_ ? index_->added(value) : nullptr;  // shifting below only finds
  ++size_;
  if (index <= size_ / 2) {
    head_ = head_ == 0 ? slots_.size() - 1 : head_ - 1;
    for (std::size_t i = 0; i < index; ++i) set(i, value_at(i + 1));
  } else {
    for (std::size_t i = size_ - 1; i > index; --i) set(i, value_at(i - 1));
  }
  const std::size_t p = physical(index);
  slots_[p] = value;
  if (entry != nullptr) entry->slot = static_cast<std::uint32_t>(p);
}

// FlumeEventQueue.remove(index, 0): the sizes compared are the old ones.
std::int64_t EventQueue::remove_at(std::size_t index, IndexEntry* entry) {
  const std::int64_t value = value_at(index);
  if (entry != nullptr) {
    this->index().removed(value, entry);
  } else if (value != kEmpty) {
    this->index().removed(value);
  }
  if (index > size_ / 2) {
    for (std::size_t i = index; i + 1 < size_; ++i) set(i, value_at(i + 1));
    set(size_ - 1, kEmpty);
  } else {
    for (std::size_t i = index; i > 0; --i) set(i, value_at(i - 1));
    set(0, kEmpty);
    head_ = head_ + 1 == slots_.size() ? 0 : head_ + 1;
  }
  --size_;
  return value;
}

void EventQueue::decrement_file(std::int64_t value) {
  if (!counts_->decrement(file_of(value))) ++anomalies_.missing_reference_counts;
}

bool EventQueue::add_tail(EventPointer pointer) {
  const std::int64_t value = pointer.to_long();
  if (static_cast<std::int64_t>(size_) + inflight_takes_ == static_cast<std::int64_t>(slots_.size())) return false;
  if (value == kEmpty) return false;
  counts_->increment(pointer.file_id);
  if (size_ == slots_.size()) {
    ++anomalies_.dropped_tail_adds;  // Flume's add() refuses, addTail says true
    return true;
  }
  add(size_, value);
  return true;
}

bool EventQueue::add_head(EventPointer pointer) {
  const std::int64_t value = pointer.to_long();
  if (size_ == slots_.size() || value == kEmpty) return false;
  counts_->increment(pointer.file_id);
  add(0, value);
  return true;
}

bool EventQueue::remove_head(EventPointer* taken) {
  if (size_ == 0) return false;
  const std::int64_t value = remove_at(0, nullptr);
  *taken = EventPointer::from_long(value);
  if (value == kEmpty) {
    ++anomalies_.empty_heads_removed;
    return true;
  }
  decrement_file(value);
  return true;
}

bool EventQueue::contains(EventPointer pointer) const {
  const std::int64_t value = pointer.to_long();
  if (value == kEmpty) return false;
  const PointerIndex::Entry* e = index().find(value);
  return e != nullptr && e->in_set();
}

bool EventQueue::remove(EventPointer pointer) {
  const std::int64_t value = pointer.to_long();
  if (value == kEmpty) return false;
  PointerIndex::Entry* e = index().find(value);
  if (e == nullptr || !e->in_set()) return false;
  std::size_t logical = size_;
  if (e->copies() == 1 && e->slot != PointerIndex::kUnknownSlot && slots_[e->slot] == value) {
    logical = e->slot >= head_ ? e->slot - head_ : e->slot + slots_.size() - head_;
  } else {
    // Duplicates: Flume's linear search takes the copy nearest the head.
    for (std::size_t i = 0; i < size_; ++i) {
      if (value_at(i) == value) {
        logical = i;
        break;
      }
    }
  }
  if (logical >= size_) return false;  // cannot happen: the set only holds queued values
  remove_at(logical, e);
  decrement_file(value);
  return true;
}

std::int64_t EventQueue::reference_count(std::int32_t file_id) const { return counts_->count(file_id); }

std::vector<std::pair<std::int32_t, std::int64_t>> EventQueue::reference_counts() const { return counts_->sorted(); }

void EventQueue::set_reference_counts(const std::vector<std::pair<std::int32_t, std::int64_t>>& counts) {
  counts_->assign(counts);
}

}  // namespace qjt::flume
