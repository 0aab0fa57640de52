// InflightMultimap: a checkpoint's inflightputs or inflighttakes as Flume
// 1.11 holds them at startup, in the order Flume walks them.
//
// FlumeEventQueue's InflightEventWrapper.deserialize reads the file into a
// Guava 11.0.2 HashMultimap<Long, Long> (transaction id -> event pointers):
// the keys in a java.util.HashMap made with new HashMap() (16 buckets), and
// each key's pointers in a HashSet made with
// Sets.newHashSetWithExpectedSize(2) (DEFAULT_VALUES_PER_KEY), that is new
// HashSet(3): 4 buckets. A pointer listed twice for one transaction is one
// entry. (Guava 31 would start the keys at 32 buckets: another order.)
//
// ReplayHandler.replayLog then seeds its transaction map from the puts in
// this order, removes the takes whose commit it finds in the logs
// (removeAll), and puts the takes left back at the head of the queue one
// at a time, walking the keys and each key's pointers: the restored events
// therefore lie at the head in the reverse of this order.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "flume/event_pointer.h"
#include "flume/java_hash_set.h"

namespace qjt::flume {

class InflightMultimap {
 public:
  struct Entry {
    std::int64_t transaction_id;
    std::vector<EventPointer> pointers;  // in the HashSet's order
  };

  void put(std::int64_t transaction_id, EventPointer pointer);
  bool contains(std::int64_t transaction_id) const { return values_.count(transaction_id) != 0; }
  bool empty() const { return values_.empty(); }
  // HashMultimap.removeAll: the transaction's pointers, in order; none if absent.
  std::vector<EventPointer> remove_all(std::int64_t transaction_id);
  // Every transaction in the key map's order, with its pointers.
  std::vector<Entry> entries() const;

 private:
  JavaHashSet keys_;
  std::unordered_map<std::int64_t, JavaHashSet> values_;
};

}  // namespace qjt::flume
