#include "flume/inflight_multimap.h"

namespace qjt::flume {

namespace {

std::vector<EventPointer> pointers_of(const JavaHashSet& set) {
  std::vector<EventPointer> pointers;
  pointers.reserve(set.size());
  for (std::int64_t packed : set.in_order()) pointers.push_back(EventPointer::from_long(packed));
  return pointers;
}

}  // namespace

// Guava 11's HashMultimap: Maps.capacity(DEFAULT_VALUES_PER_KEY = 2) = 3.
constexpr std::uint32_t kValueSetCapacity = 3;

void InflightMultimap::put(std::int64_t transaction_id, EventPointer pointer) {
  auto [it, added] = values_.try_emplace(transaction_id, JavaBoxed::kLong, kValueSetCapacity);
  if (added) keys_.insert(transaction_id);
  it->second.insert(pointer.to_long());
}

std::vector<EventPointer> InflightMultimap::remove_all(std::int64_t transaction_id) {
  const auto it = values_.find(transaction_id);
  if (it == values_.end()) return {};
  std::vector<EventPointer> pointers = pointers_of(it->second);
  values_.erase(it);
  keys_.erase(transaction_id);
  return pointers;
}

std::vector<InflightMultimap::Entry> InflightMultimap::entries() const {
  std::vector<Entry> out;
  out.reserve(values_.size());
  for (std::int64_t txid : keys_.in_order()) out.push_back(Entry{txid, pointers_of(values_.at(txid))});
  return out;
}

}  // namespace qjt::flume
