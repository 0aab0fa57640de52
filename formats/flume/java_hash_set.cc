#include "flume/java_hash_set.h"

#include <utility>

namespace qjt::flume {

namespace {

constexpr std::size_t kInitialCapacity = 16;  // DEFAULT_INITIAL_CAPACITY
constexpr std::size_t kTreeifyThreshold = 8;  // a list bin of 9 becomes a tree
constexpr std::size_t kUntreeifyThreshold = 6;
constexpr std::size_t kMinTreeifyCapacity = 64;  // below it, a long bin resizes the table

}  // namespace

// HashMap.tableSizeFor: the power of two at or above `n` (1 for 0).
JavaHashSet::JavaHashSet(JavaBoxed boxed, std::uint32_t initial_capacity) : boxed_(boxed) {
  threshold_ = 1;
  while (threshold_ < initial_capacity) threshold_ *= 2;
}

std::int32_t JavaHashSet::java_hash(std::int64_t key, JavaBoxed boxed) {
  const auto v = static_cast<std::uint64_t>(key);
  // Long.hashCode folds the high word in; Integer.hashCode is the value.
  auto h = boxed == JavaBoxed::kLong ? static_cast<std::uint32_t>(v ^ (v >> 32)) : static_cast<std::uint32_t>(v);
  h ^= h >> 16;  // HashMap.hash spreads the high bits
  return static_cast<std::int32_t>(h);
}

// TreeNode orders a bin by the int hash, then by compareTo (keys of one
// Comparable class, so tieBreakOrder is never reached).
int JavaHashSet::compare(std::int32_t hash, std::int64_t key, const Node& node) {
  if (node.hash > hash) return -1;
  if (node.hash < hash) return 1;
  return key < node.key ? -1 : (key > node.key ? 1 : 0);
}

std::size_t JavaHashSet::bucket(std::int32_t hash) const {
  return static_cast<std::uint32_t>(hash) & (table_.size() - 1);
}

JavaHashSet::Index JavaHashSet::new_node(std::int32_t hash, std::int64_t key, Index next) {
  Node n;
  n.key = key;
  n.hash = hash;
  n.next = next;
  nodes_.push_back(n);
  return static_cast<Index>(nodes_.size() - 1);
}

bool JavaHashSet::contains(std::int64_t key) const {
  if (table_.empty()) return false;
  const std::int32_t h = hash_of(key);
  Index first = table_[bucket(h)];
  if (first == kNone) return false;
  if (nodes_[static_cast<std::size_t>(first)].tree) return find(root_of(first), h, key) != kNone;
  for (Index e = first; e != kNone; e = nodes_[static_cast<std::size_t>(e)].next)
    if (nodes_[static_cast<std::size_t>(e)].key == key) return true;
  return false;
}

// HashMap.putVal without a value.
bool JavaHashSet::insert(std::int64_t key) {
  if (table_.empty()) resize();
  const std::int32_t h = hash_of(key);
  const std::size_t i = bucket(h);
  Index p = table_[i];
  if (p == kNone) {
    table_[i] = new_node(h, key, kNone);
  } else if (nodes_[static_cast<std::size_t>(p)].key == key) {
    return false;
  } else if (nodes_[static_cast<std::size_t>(p)].tree) {
    if (!put_tree(p, h, key)) return false;
  } else {
    for (std::size_t bin_count = 0;; ++bin_count) {
      const Index e = nodes_[static_cast<std::size_t>(p)].next;
      if (e == kNone) {
        const Index x = new_node(h, key, kNone);
        nodes_[static_cast<std::size_t>(p)].next = x;
        if (bin_count >= kTreeifyThreshold - 1) treeify_bin(h);
        break;
      }
      if (nodes_[static_cast<std::size_t>(e)].key == key) return false;
      p = e;
    }
  }
  if (++size_ > threshold_) resize();
  return true;
}

// HashMap.resize: double the table (the first call makes it, at the
// capacity the constructor left in the threshold); each bucket splits into
// the keys that stay and those that move up by the old capacity, in their
// order. The threshold doubles with the table from 16 buckets on, and is
// 0.75 of the capacity (rounded down, as Java's float) below that.
void JavaHashSet::resize() {
  const std::size_t old_capacity = table_.size();
  std::vector<Index> old = std::move(table_);
  const std::size_t capacity = old_capacity == 0 ? threshold_ : old_capacity * 2;
  threshold_ = old_capacity >= kInitialCapacity ? threshold_ * 2 : capacity * 3 / 4;
  table_.assign(capacity, kNone);
  for (std::size_t j = 0; j < old_capacity; ++j) {
    Index e = old[j];
    if (e == kNone) continue;
    Node& first = nodes_[static_cast<std::size_t>(e)];
    if (first.next == kNone) {
      table_[bucket(first.hash)] = e;
    } else if (first.tree) {
      split(e, j, old_capacity);
    } else {
      Index lo_head = kNone, lo_tail = kNone, hi_head = kNone, hi_tail = kNone;
      for (Index next; e != kNone; e = next) {
        next = nodes_[static_cast<std::size_t>(e)].next;
        const bool low = (static_cast<std::uint32_t>(nodes_[static_cast<std::size_t>(e)].hash) & old_capacity) == 0;
        Index& head = low ? lo_head : hi_head;
        Index& tail = low ? lo_tail : hi_tail;
        if (tail == kNone)
          head = e;
        else
          nodes_[static_cast<std::size_t>(tail)].next = e;
        tail = e;
      }
      if (lo_tail != kNone) {
        nodes_[static_cast<std::size_t>(lo_tail)].next = kNone;
        table_[j] = lo_head;
      }
      if (hi_tail != kNone) {
        nodes_[static_cast<std::size_t>(hi_tail)].next = kNone;
        table_[j + old_capacity] = hi_head;
      }
    }
  }
}

void JavaHashSet::treeify_bin(std::int32_t hash) {
  if (table_.size() < kMinTreeifyCapacity) {
    resize();
    return;
  }
  const Index head = table_[bucket(hash)];
  Index tail = kNone;
  for (Index e = head; e != kNone; e = nodes_[static_cast<std::size_t>(e)].next) {
    Node& n = nodes_[static_cast<std::size_t>(e)];
    n.tree = true;
    n.prev = tail;
    n.parent = n.left = n.right = kNone;
    tail = e;
  }
  if (head != kNone) treeify(head);
}

// TreeNode.treeify: insert the bin's nodes into a tree in list order, then
// move the root to the front of the bin.
void JavaHashSet::treeify(Index head) {
  Index root = kNone;
  for (Index x = head, next; x != kNone; x = next) {
    Node& n = nodes_[static_cast<std::size_t>(x)];
    next = n.next;
    n.left = n.right = kNone;
    if (root == kNone) {
      n.parent = kNone;
      n.red = false;
      root = x;
      continue;
    }
    for (Index p = root;;) {
      const int dir = compare(n.hash, n.key, nodes_[static_cast<std::size_t>(p)]);
      const Index xp = p;
      Node& parent = nodes_[static_cast<std::size_t>(xp)];
      p = dir <= 0 ? parent.left : parent.right;
      if (p == kNone) {
        n.parent = xp;
        (dir <= 0 ? parent.left : parent.right) = x;
        root = balance_insertion(root, x);
        break;
      }
    }
  }
  move_root_to_front(root);
}

JavaHashSet::Index JavaHashSet::untreeify(Index head) {
  for (Index q = head; q != kNone; q = nodes_[static_cast<std::size_t>(q)].next)
    nodes_[static_cast<std::size_t>(q)].tree = false;
  return head;
}

// TreeNode.split: a tree bin during a resize.
void JavaHashSet::split(Index first, std::size_t index, std::size_t bit) {
  Index lo_head = kNone, lo_tail = kNone, hi_head = kNone, hi_tail = kNone;
  std::size_t lo_count = 0, hi_count = 0;
  for (Index e = first, next; e != kNone; e = next) {
    Node& n = nodes_[static_cast<std::size_t>(e)];
    next = n.next;
    n.next = kNone;
    const bool low = (static_cast<std::uint32_t>(n.hash) & bit) == 0;
    Index& head = low ? lo_head : hi_head;
    Index& tail = low ? lo_tail : hi_tail;
    n.prev = tail;
    if (tail == kNone)
      head = e;
    else
      nodes_[static_cast<std::size_t>(tail)].next = e;
    tail = e;
    ++(low ? lo_count : hi_count);
  }
  if (lo_head != kNone) {
    if (lo_count <= kUntreeifyThreshold) {
      table_[index] = untreeify(lo_head);
    } else {
      table_[index] = lo_head;
      if (hi_head != kNone) treeify(lo_head);
    }
  }
  if (hi_head != kNone) {
    if (hi_count <= kUntreeifyThreshold) {
      table_[index + bit] = untreeify(hi_head);
    } else {
      table_[index + bit] = hi_head;
      if (lo_head != kNone) treeify(hi_head);
    }
  }
}

// TreeNode.putTreeVal: the new node goes into the tree, and into the bin's
// list right after its tree parent.
bool JavaHashSet::put_tree(Index first, std::int32_t hash, std::int64_t key) {
  const Index root = root_of(first);
  for (Index p = root;;) {
    const int dir = compare(hash, key, nodes_[static_cast<std::size_t>(p)]);
    if (dir == 0) return false;
    const Index xp = p;
    p = dir < 0 ? nodes_[static_cast<std::size_t>(xp)].left : nodes_[static_cast<std::size_t>(xp)].right;
    if (p != kNone) continue;
    const Index xpn = nodes_[static_cast<std::size_t>(xp)].next;
    const Index x = new_node(hash, key, xpn);
    Node& parent = nodes_[static_cast<std::size_t>(xp)];
    Node& n = nodes_[static_cast<std::size_t>(x)];
    n.tree = true;
    (dir < 0 ? parent.left : parent.right) = x;
    parent.next = x;
    n.parent = n.prev = xp;
    if (xpn != kNone) nodes_[static_cast<std::size_t>(xpn)].prev = x;
    move_root_to_front(balance_insertion(root, x));
    return true;
  }
}

// TreeNode.find, for a tree ordered by (hash, key).
JavaHashSet::Index JavaHashSet::find(Index from, std::int32_t hash, std::int64_t key) const {
  for (Index p = from; p != kNone;) {
    const Node& n = nodes_[static_cast<std::size_t>(p)];
    const int dir = compare(hash, key, n);
    if (dir == 0) return p;
    p = dir < 0 ? n.left : n.right;
  }
  return kNone;
}

JavaHashSet::Index JavaHashSet::root_of(Index node) const {
  for (Index r = node;;) {
    const Index p = nodes_[static_cast<std::size_t>(r)].parent;
    if (p == kNone) return r;
    r = p;
  }
}

// HashMap.removeNode (movable).
bool JavaHashSet::erase(std::int64_t key) {
  if (table_.empty()) return false;
  const std::int32_t h = hash_of(key);
  const std::size_t index = bucket(h);
  Index p = table_[index];
  if (p == kNone) return false;
  Index node = kNone;
  if (nodes_[static_cast<std::size_t>(p)].key == key) {
    node = p;
  } else if (nodes_[static_cast<std::size_t>(p)].tree) {
    node = find(root_of(p), h, key);
  } else {
    for (Index e = nodes_[static_cast<std::size_t>(p)].next; e != kNone;
         p = e, e = nodes_[static_cast<std::size_t>(e)].next)
      if (nodes_[static_cast<std::size_t>(e)].key == key) {
        node = e;
        break;
      }
  }
  if (node == kNone) return false;
  if (nodes_[static_cast<std::size_t>(node)].tree)
    remove_tree_node(node);
  else if (node == p)
    table_[index] = nodes_[static_cast<std::size_t>(node)].next;
  else
    nodes_[static_cast<std::size_t>(p)].next = nodes_[static_cast<std::size_t>(node)].next;
  --size_;
  return true;
}

// TreeNode.removeTreeNode (movable): unlink from the bin's list; a tree
// grown too small becomes a list again; else the red-black deletion, and
// the new root moves to the front.
void JavaHashSet::remove_tree_node(Index node) {
  auto at = [this](Index i) -> Node& { return nodes_[static_cast<std::size_t>(i)]; };
  const std::size_t index = bucket(at(node).hash);
  Index first = table_[index];
  Index root = first;
  const Index succ = at(node).next, pred = at(node).prev;
  if (pred == kNone)
    table_[index] = first = succ;
  else
    at(pred).next = succ;
  if (succ != kNone) at(succ).prev = pred;
  if (first == kNone) return;
  if (at(root).parent != kNone) root = root_of(root);
  Index rl;
  if (at(root).right == kNone || (rl = at(root).left) == kNone || at(rl).left == kNone) {
    table_[index] = untreeify(first);  // too small
    return;
  }
  const Index p = node, pl = at(p).left, pr = at(p).right;
  Index replacement;
  if (pl != kNone && pr != kNone) {
    Index s = pr;
    for (Index sl; (sl = at(s).left) != kNone;) s = sl;  // the successor
    std::swap(at(s).red, at(p).red);
    const Index sr = at(s).right;
    const Index pp = at(p).parent;
    if (s == pr) {  // p was s's direct parent
      at(p).parent = s;
      at(s).right = p;
    } else {
      const Index sp = at(s).parent;
      if ((at(p).parent = sp) != kNone) (s == at(sp).left ? at(sp).left : at(sp).right) = p;
      if ((at(s).right = pr) != kNone) at(pr).parent = s;
    }
    at(p).left = kNone;
    if ((at(p).right = sr) != kNone) at(sr).parent = p;
    if ((at(s).left = pl) != kNone) at(pl).parent = s;
    if ((at(s).parent = pp) == kNone)
      root = s;
    else
      (p == at(pp).left ? at(pp).left : at(pp).right) = s;
    replacement = sr != kNone ? sr : p;
  } else if (pl != kNone) {
    replacement = pl;
  } else if (pr != kNone) {
    replacement = pr;
  } else {
    replacement = p;
  }
  if (replacement != p) {
    const Index pp = at(replacement).parent = at(p).parent;
    if (pp == kNone)
      at(root = replacement).red = false;
    else
      (p == at(pp).left ? at(pp).left : at(pp).right) = replacement;
    at(p).left = at(p).right = at(p).parent = kNone;
  }
  const Index r = at(p).red ? root : balance_deletion(root, replacement);
  if (replacement == p) {  // detach
    const Index pp = at(p).parent;
    at(p).parent = kNone;
    if (pp != kNone) {
      if (p == at(pp).left)
        at(pp).left = kNone;
      else if (p == at(pp).right)
        at(pp).right = kNone;
    }
  }
  move_root_to_front(r);
}

void JavaHashSet::move_root_to_front(Index root) {
  if (root == kNone || table_.empty()) return;
  const std::size_t index = bucket(nodes_[static_cast<std::size_t>(root)].hash);
  const Index first = table_[index];
  if (root == first) return;
  Node& r = nodes_[static_cast<std::size_t>(root)];
  table_[index] = root;
  const Index rp = r.prev, rn = r.next;
  if (rn != kNone) nodes_[static_cast<std::size_t>(rn)].prev = rp;
  if (rp != kNone) nodes_[static_cast<std::size_t>(rp)].next = rn;
  if (first != kNone) nodes_[static_cast<std::size_t>(first)].prev = root;
  r.next = first;
  r.prev = kNone;
}

JavaHashSet::Index JavaHashSet::rotate_left(Index root, Index p) {
  auto at = [this](Index i) -> Node& { return nodes_[static_cast<std::size_t>(i)]; };
  Index r;
  if (p == kNone || (r = at(p).right) == kNone) return root;
  Index rl;
  if ((rl = at(p).right = at(r).left) != kNone) at(rl).parent = p;
  Index pp;
  if ((pp = at(r).parent = at(p).parent) == kNone)
    at(root = r).red = false;
  else if (at(pp).left == p)
    at(pp).left = r;
  else
    at(pp).right = r;
  at(r).left = p;
  at(p).parent = r;
  return root;
}

JavaHashSet::Index JavaHashSet::rotate_right(Index root, Index p) {
  auto at = [this](Index i) -> Node& { return nodes_[static_cast<std::size_t>(i)]; };
  Index l;
  if (p == kNone || (l = at(p).left) == kNone) return root;
  Index lr;
  if ((lr = at(p).left = at(l).right) != kNone) at(lr).parent = p;
  Index pp;
  if ((pp = at(l).parent = at(p).parent) == kNone)
    at(root = l).red = false;
  else if (at(pp).right == p)
    at(pp).right = l;
  else
    at(pp).left = l;
  at(l).right = p;
  at(p).parent = l;
  return root;
}

JavaHashSet::Index JavaHashSet::balance_insertion(Index root, Index x) {
  auto at = [this](Index i) -> Node& { return nodes_[static_cast<std::size_t>(i)]; };
  at(x).red = true;
  for (Index xp, xpp, xppl, xppr;;) {
    if ((xp = at(x).parent) == kNone) {
      at(x).red = false;
      return x;
    }
    if (!at(xp).red || (xpp = at(xp).parent) == kNone) return root;
    if (xp == (xppl = at(xpp).left)) {
      if ((xppr = at(xpp).right) != kNone && at(xppr).red) {
        at(xppr).red = false;
        at(xp).red = false;
        at(xpp).red = true;
        x = xpp;
      } else {
        if (x == at(xp).right) {
          root = rotate_left(root, x = xp);
          xpp = (xp = at(x).parent) == kNone ? kNone : at(xp).parent;
        }
        if (xp != kNone) {
          at(xp).red = false;
          if (xpp != kNone) {
            at(xpp).red = true;
            root = rotate_right(root, xpp);
          }
        }
      }
    } else {
      if (xppl != kNone && at(xppl).red) {
        at(xppl).red = false;
        at(xp).red = false;
        at(xpp).red = true;
        x = xpp;
      } else {
        if (x == at(xp).left) {
          root = rotate_right(root, x = xp);
          xpp = (xp = at(x).parent) == kNone ? kNone : at(xp).parent;
        }
        if (xp != kNone) {
          at(xp).red = false;
          if (xpp != kNone) {
            at(xpp).red = true;
            root = rotate_left(root, xpp);
          }
        }
      }
    }
  }
}

JavaHashSet::Index JavaHashSet::balance_deletion(Index root, Index x) {
  auto at = [this](Index i) -> Node& { return nodes_[static_cast<std::size_t>(i)]; };
  auto red = [&at](Index i) { return i != kNone && at(i).red; };
  for (Index xp, xpl, xpr;;) {
    if (x == kNone || x == root) return root;
    if ((xp = at(x).parent) == kNone) {
      at(x).red = false;
      return x;
    }
    if (at(x).red) {
      at(x).red = false;
      return root;
    }
    if ((xpl = at(xp).left) == x) {
      if ((xpr = at(xp).right) != kNone && at(xpr).red) {
        at(xpr).red = false;
        at(xp).red = true;
        root = rotate_left(root, xp);
        xpr = (xp = at(x).parent) == kNone ? kNone : at(xp).right;
      }
      if (xpr == kNone) {
        x = xp;
        continue;
      }
      Index sl = at(xpr).left, sr = at(xpr).right;
      if (!red(sr) && !red(sl)) {
        at(xpr).red = true;
        x = xp;
        continue;
      }
      if (!red(sr)) {
        if (sl != kNone) at(sl).red = false;
        at(xpr).red = true;
        root = rotate_right(root, xpr);
        xpr = (xp = at(x).parent) == kNone ? kNone : at(xp).right;
      }
      if (xpr != kNone) {
        at(xpr).red = xp == kNone ? false : at(xp).red;
        if ((sr = at(xpr).right) != kNone) at(sr).red = false;
      }
      if (xp != kNone) {
        at(xp).red = false;
        root = rotate_left(root, xp);
      }
      x = root;
    } else {  // symmetric
      if (xpl != kNone && at(xpl).red) {
        at(xpl).red = false;
        at(xp).red = true;
        root = rotate_right(root, xp);
        xpl = (xp = at(x).parent) == kNone ? kNone : at(xp).left;
      }
      if (xpl == kNone) {
        x = xp;
        continue;
      }
      Index sl = at(xpl).left, sr = at(xpl).right;
      if (!red(sl) && !red(sr)) {
        at(xpl).red = true;
        x = xp;
        continue;
      }
      if (!red(sl)) {
        if (sr != kNone) at(sr).red = false;
        at(xpl).red = true;
        root = rotate_left(root, xpl);
        xpl = (xp = at(x).parent) == kNone ? kNone : at(xp).left;
      }
      if (xpl != kNone) {
        at(xpl).red = xp == kNone ? false : at(xp).red;
        if ((sl = at(xpl).left) != kNone) at(sl).red = false;
      }
      if (xp != kNone) {
        at(xp).red = false;
        root = rotate_right(root, xp);
      }
      x = root;
    }
  }
}

std::vector<std::int64_t> JavaHashSet::in_order() const {
  std::vector<std::int64_t> keys;
  keys.reserve(size_);
  for (Index head : table_)
    for (Index e = head; e != kNone; e = nodes_[static_cast<std::size_t>(e)].next)
      keys.push_back(nodes_[static_cast<std::size_t>(e)].key);
  return keys;
}

}  // namespace qjt::flume
