// The order in which Java's HashMap/HashSet and Guava 11's HashMultimap
// iterate Long keys (flume/java_hash_set.h, flume/inflight_multimap.h):
// the order Flume restores a checkpoint's open takes in.
//
// The first cases are computed by hand from HashMap's rules; the tree
// cases were computed by hand as far as the red-black insertions go and
// confirmed with the JDK's own HashSet<Long> (new HashSet<>(10)).
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "flume/inflight_multimap.h"
#include "flume/java_hash_set.h"

namespace {

using qjt::flume::EventPointer;
using qjt::flume::InflightMultimap;
using qjt::flume::JavaHashSet;
using Keys = std::vector<std::int64_t>;

JavaHashSet set_of(const Keys& keys) {
  JavaHashSet set;
  for (std::int64_t k : keys) set.insert(k);
  return set;
}

}  // namespace

TEST_CASE("java hash order: Long.hashCode folds the high word in, HashMap.hash the high half") {
  CHECK(JavaHashSet::java_hash(5) == 5);
  CHECK(JavaHashSet::java_hash(-1) == 0);                     // 0xFFFFFFFF ^ 0xFFFFFFFF
  CHECK(JavaHashSet::java_hash(std::int64_t{1} << 32) == 1);  // the high word, folded
  CHECK(JavaHashSet::java_hash(65536) == 65537);              // 0x10000 ^ (0x10000 >>> 16)
  // Integer.hashCode is the value: -1 spreads to 0xFFFF0000.
  CHECK(JavaHashSet::java_hash(-1, qjt::flume::JavaBoxed::kInteger) == static_cast<std::int32_t>(0xFFFF0000u));
}

TEST_CASE("java hash order: buckets in index order, each bucket in insertion order") {
  // 17 and 1 share bucket 1 of 16; 17 came first.
  CHECK(set_of({5, 3, 17, 1}).in_order() == Keys{17, 1, 3, 5});
  // Buckets 0, 1, 1 and 2 by the hashes above.
  CHECK(set_of({65536, std::int64_t{1} << 32, -1, 2}).in_order() == Keys{-1, 65536, std::int64_t{1} << 32, 2});
}

TEST_CASE("java hash order: a ninth key in one bucket of a small table resizes it, splitting the bucket in order") {
  // 0, 16, ..., 128 all fall in bucket 0 of 16; the ninth asks for a tree,
  // but a table under 64 buckets doubles instead: bit 16 sends 16, 48, 80
  // and 112 to bucket 16, each half keeping its order.
  JavaHashSet set;
  for (std::int64_t k = 0; k < 9; ++k) set.insert(k * 16);
  CHECK(set.capacity() == 32);
  CHECK(set.in_order() == Keys{0, 32, 64, 96, 128, 16, 48, 80, 112});
}

TEST_CASE("java hash order: the thirteenth key doubles the table") {
  JavaHashSet set = set_of({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  CHECK(set.capacity() == 16);
  set.insert(16 + 3);  // bucket 3 of 16, 19 of 32
  CHECK(set.capacity() == 32);
  CHECK(set.in_order() == Keys{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 19});
}

TEST_CASE("java hash order: a tree bin lists its root first and a new node after its tree parent") {
  // Multiples of 1024 all fall in bucket 0. The 9th and 10th keys double
  // the table to 64; the 11th makes the bucket a red-black tree of 0..10
  // (times 1024), whose root after ascending insertions is 3: it moves to
  // the front. The 12th goes right of 10, so right after it in the list.
  JavaHashSet set;
  for (std::int64_t k = 0; k < 12; ++k) set.insert(k * 1024);
  CHECK(set.capacity() == 64);
  CHECK(set.in_order() == Keys{3072, 0, 1024, 2048, 4096, 5120, 6144, 7168, 8192, 9216, 10240, 11264});
  // Removing the first, 5 and 6 rebalances; the new root, 7, moves to the front.
  CHECK(set.erase(0));
  CHECK(set.erase(5 * 1024));
  CHECK(set.erase(6 * 1024));
  CHECK_FALSE(set.erase(6 * 1024));
  CHECK(set.in_order() == Keys{7168, 3072, 1024, 2048, 4096, 8192, 9216, 10240, 11264});
  CHECK(set.contains(9216));
  CHECK_FALSE(set.contains(0));
}

TEST_CASE("java hash order: an existing key changes nothing") {
  JavaHashSet set = set_of({1, 17, 33});
  CHECK_FALSE(set.insert(17));
  CHECK(set.size() == 3);
  CHECK(set.in_order() == Keys{1, 17, 33});
}

TEST_CASE("java hash order: a small initial capacity, as new HashSet(3) has") {
  // 4 buckets, resized past 3 keys to 8 (threshold 6), then to 16 past 6.
  JavaHashSet set(qjt::flume::JavaBoxed::kLong, 3);
  set.insert(5);
  set.insert(1);
  set.insert(9);
  CHECK(set.capacity() == 4);
  CHECK(set.in_order() == Keys{5, 1, 9});  // all three in bucket 1
  set.insert(2);
  CHECK(set.capacity() == 8);
  CHECK(set.in_order() == Keys{1, 9, 2, 5});
}

TEST_CASE("inflight multimap: keys in a 16-bucket HashMap, each key's pointers in a 4-bucket HashSet") {
  InflightMultimap map;
  // Transaction 17 before 1: both in bucket 1 of 16, 17 first.
  map.put(17, EventPointer{1, 300});
  map.put(1, EventPointer{1, 200});
  map.put(17, EventPointer{1, 100});
  map.put(17, EventPointer{1, 300});  // once
  const auto entries = map.entries();
  REQUIRE(entries.size() == 2);
  CHECK(entries[0].transaction_id == 17);
  CHECK(entries[1].transaction_id == 1);
  // (1 << 32 | 300) hashes to 1 ^ 300 = 301, (1 << 32 | 100) to 101: both
  // bucket 1 of 4, so in the order put.
  CHECK(entries[0].pointers == std::vector<EventPointer>{{1, 300}, {1, 100}});
  CHECK(map.remove_all(17) == std::vector<EventPointer>{{1, 300}, {1, 100}});
  CHECK_FALSE(map.contains(17));
  CHECK(map.remove_all(17).empty());
  CHECK(map.entries().size() == 1);
}

TEST_CASE("inflight multimap: the order Flume 1.11 restored the open takes of a generated channel in") {
  // `qjt gen flume --records 5000 --seed 15 --open 8 --batch 5
  // --checkpoint-version 2`: four open takes in its inflighttakes file.
  // Flume's queue then starts #2417 #2416 #2418 #2411 #2410 #2415 #2414
  // #2413 #2412: the reverse of the walk below.
  InflightMultimap map;
  const std::vector<std::pair<std::int64_t, std::vector<std::int32_t>>> file = {
      {1700000003261, {628178, 628302}},                  // #2410 #2411
      {1700000003263, {628817, 629059, 629235, 629397}},  // #2412 .. #2415
      {1700000003265, {629588, 630001}},                  // #2416 #2417
      {1700000003267, {630204}}};                         // #2418
  for (const auto& [txid, offsets] : file)
    for (std::int32_t offset : offsets) map.put(txid, EventPointer{1, offset});
  std::vector<std::int32_t> walk;
  for (const auto& entry : map.entries())
    for (EventPointer p : entry.pointers) walk.push_back(p.offset);
  CHECK(walk == std::vector<std::int32_t>{628817, 629059, 629235, 629397, 628178, 628302, 630204, 629588, 630001});
}
