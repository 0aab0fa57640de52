// JavaHashSet: the iteration order of java.util.HashMap (JDK 8 and later)
// over java.lang.Long or java.lang.Integer keys, reproduced exactly.
//
// Flume restores the takes a checkpoint left open by walking a Guava
// HashMultimap (inflight_multimap.h), so the order of the restored events
// at the head of the queue is the order in which Java's HashMap and
// HashSet iterate. That order is a function of the keys' hashes and of the
// history of puts and removes:
//  - hash(key) = h ^ (h >>> 16), h = Long.hashCode = (int)(v ^ (v >>> 32)),
//    or Integer.hashCode = v;
//    the bucket is hash & (capacity - 1);
//  - the table starts at 16 buckets (new HashMap()), or at the power of two
//    at or above the initial capacity given (new HashSet(3): 4), doubles
//    when the size passes 0.75 of the capacity, and never shrinks; a
//    resize splits each bucket's list into its low and high halves keeping
//    their order;
//  - a bucket's list appends new keys at its tail, until it reaches 9 keys
//    in a table of at least 64 buckets: then it becomes a red-black tree
//    whose root moves to the front of the bucket, and whose new nodes go
//    right after their tree parent in the bucket's list. Tree bins turn
//    back into lists at 6 keys or fewer (after a split or a removal).
// Iteration walks the buckets in index order and each bucket's list.
//
// The tree code follows java.util.HashMap.TreeNode step for step (its
// ordering: the int hash, then compareTo), because its rotations decide
// which key the bucket lists first.
//
// Flume's uses: the inflight files' transaction ids and event pointers
// (Long), and checkpoint.meta's log file ids (Integer).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace qjt::flume {

// The boxed type of the keys: it decides their hashCode.
enum class JavaBoxed { kLong, kInteger };

class JavaHashSet {
 public:
  // An empty set as new HashMap(initial_capacity) makes it: 16 buckets by
  // default. kInteger keys must fit an int32.
  explicit JavaHashSet(JavaBoxed boxed = JavaBoxed::kLong, std::uint32_t initial_capacity = 16);

  bool insert(std::int64_t key);  // HashMap.put of an absent key; false if present
  bool erase(std::int64_t key);   // HashMap.remove; false if absent
  bool contains(std::int64_t key) const;
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return table_.size(); }  // 0 before the first insert

  // The keys in the order Java's iterator returns them.
  std::vector<std::int64_t> in_order() const;

  // HashMap.hash of the boxed key.
  static std::int32_t java_hash(std::int64_t key, JavaBoxed boxed = JavaBoxed::kLong);

 private:
  using Index = std::int32_t;
  static constexpr Index kNone = -1;
  struct Node {
    std::int64_t key = 0;
    std::int32_t hash = 0;
    Index next = kNone;                                               // the bucket's list, which the iterator walks
    Index prev = kNone, parent = kNone, left = kNone, right = kNone;  // tree bins only
    bool red = false;
    bool tree = false;  // a TreeNode
  };

  std::size_t bucket(std::int32_t hash) const;
  Index new_node(std::int32_t hash, std::int64_t key, Index next);
  void resize();
  void treeify_bin(std::int32_t hash);
  void treeify(Index head);
  Index untreeify(Index head);
  void split(Index first, std::size_t index, std::size_t bit);
  bool put_tree(Index first, std::int32_t hash, std::int64_t key);
  Index find(Index from, std::int32_t hash, std::int64_t key) const;
  Index root_of(Index node) const;
  void remove_tree_node(Index node);
  void move_root_to_front(Index root);
  Index rotate_left(Index root, Index p);
  Index rotate_right(Index root, Index p);
  Index balance_insertion(Index root, Index x);
  Index balance_deletion(Index root, Index x);
  static int compare(std::int32_t hash, std::int64_t key, const Node& node);

  std::int32_t hash_of(std::int64_t key) const { return java_hash(key, boxed_); }

  JavaBoxed boxed_;
  std::vector<Node> nodes_;  // every node ever made; removed ones are unreachable
  std::vector<Index> table_;
  std::size_t size_ = 0;
  std::size_t threshold_ = 0;  // before the first insert: the table's first capacity
};

}  // namespace qjt::flume
