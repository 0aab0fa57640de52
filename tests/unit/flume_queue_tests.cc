// Flume's event queue ring, channel layout discovery, the in_use.lock check
// and single-file kind detection.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "finding.h"
#include "flume/channel_layout.h"
#include "flume/event_queue.h"
#include "flume/file_kind.h"
#include "in_use.h"
#include "unit_helpers.h"

namespace {

using qjt::flume::EventPointer;
using qjt::flume::EventQueue;
using qjt_test::Bytes;

EventPointer ptr(std::int32_t file_id, std::int32_t offset) { return EventPointer{file_id, offset}; }
std::int64_t val(std::int32_t file_id, std::int32_t offset) { return ptr(file_id, offset).to_long(); }

EventQueue make_queue(std::int64_t capacity) {
  std::string error;
  auto q = EventQueue::create(capacity, &error);
  REQUIRE(q.has_value());
  return std::move(*q);
}

std::vector<std::int64_t> logical(const EventQueue& q) {
  std::vector<std::int64_t> out;
  for (const EventPointer p : q) out.push_back(p.to_long());
  return out;
}

// A line-by-line transliteration of FlumeEventQueue's add/remove/search
// (spec §1.3), with a plain linear search and a std::set as its queueSet:
// the oracle for physical slot placement.
struct NaiveFlumeQueue {
  std::vector<std::int64_t> slots;
  int head = 0, size = 0;
  std::int64_t inflight = 0;
  std::set<std::int64_t> queue_set;
  std::map<int, std::int64_t> counts;

  explicit NaiveFlumeQueue(int capacity) : slots(static_cast<std::size_t>(capacity), 0) {}
  int capacity() const { return static_cast<int>(slots.size()); }
  std::size_t phys(int i) const { return static_cast<std::size_t>((head + i) % capacity()); }
  std::int64_t get(int i) const { return slots[phys(i)]; }
  void set(int i, std::int64_t v) { slots[phys(i)] = v; }
  void add(int index, std::int64_t v) {
    if (size == capacity()) return;
    size += 1;
    if (index <= size / 2) {
      head -= 1;
      if (head < 0) head = capacity() - 1;
      for (int i = 0; i < index; i++) set(i, get(i + 1));
    } else {
      for (int i = size - 1; i > index; i--) set(i, get(i - 1));
    }
    set(index, v);
    queue_set.insert(v);
  }
  std::int64_t remove_index(int index) {
    const std::int64_t v = get(index);
    queue_set.erase(v);
    if (index > size / 2) {
      for (int i = index; i < size - 1; i++) set(i, get(i + 1));
      set(size - 1, 0);
    } else {
      for (int i = index - 1; i >= 0; i--) set(i + 1, get(i));
      set(0, 0);
      head += 1;
      if (head == capacity()) head = 0;
    }
    size -= 1;
    return v;
  }
  void decrement(std::int64_t v) {
    const int file = EventPointer::from_long(v).file_id;
    if (--counts[file] == 0) counts.erase(file);
  }
  bool add_tail(std::int64_t v) {
    if (size + inflight == capacity()) return false;
    counts[EventPointer::from_long(v).file_id]++;
    add(size, v);
    return true;
  }
  bool add_head(std::int64_t v) {
    if (size == capacity()) return false;
    counts[EventPointer::from_long(v).file_id]++;
    add(0, v);
    return true;
  }
  bool remove_head(std::int64_t* v) {
    if (size == 0) return false;
    *v = remove_index(0);
    decrement(*v);
    return true;
  }
  bool remove(std::int64_t v) {
    if (!queue_set.count(v)) return false;
    for (int i = 0; i < size; i++) {
      if (get(i) == v) {
        remove_index(i);
        decrement(v);
        return true;
      }
    }
    return false;
  }
};

void check_same(const EventQueue& q, const NaiveFlumeQueue& naive, const std::deque<std::int64_t>& model) {
  REQUIRE(q.size() == naive.size);
  REQUIRE(q.head() == naive.head);
  REQUIRE(q.slots() == naive.slots);
  REQUIRE(logical(q) == std::vector<std::int64_t>(model.begin(), model.end()));
  std::vector<std::pair<std::int32_t, std::int64_t>> counts(naive.counts.begin(), naive.counts.end());
  REQUIRE(q.reference_counts() == counts);
}

}  // namespace

TEST_CASE("flume queue: A,B,C into an empty capacity-10 queue leave head 8 and slots 8,9,0") {
  EventQueue q = make_queue(10);
  CHECK(q.add_tail(ptr(1, 100)));
  CHECK(q.head() == 9);
  CHECK(q.slots()[9] == val(1, 100));
  CHECK(q.add_tail(ptr(1, 200)));
  CHECK(q.add_tail(ptr(1, 300)));
  CHECK(q.head() == 8);
  CHECK(q.size() == 3);
  CHECK(q.slots()[8] == val(1, 100));
  CHECK(q.slots()[9] == val(1, 200));
  CHECK(q.slots()[0] == val(1, 300));
  for (std::size_t i = 1; i < 8; ++i) CHECK(q.slots()[i] == 0);
  CHECK(logical(q) == std::vector<std::int64_t>{val(1, 100), val(1, 200), val(1, 300)});
  CHECK(q.reference_count(1) == 3);
}

TEST_CASE("flume queue: removeHead, addHead and remove(pointer) move slots as Flume does") {
  EventQueue q = make_queue(10);
  const auto A = ptr(1, 1), B = ptr(1, 2), C = ptr(2, 3), D = ptr(2, 4);
  q.add_tail(A);
  q.add_tail(B);
  q.add_tail(C);
  EventPointer taken;
  REQUIRE(q.remove_head(&taken));
  CHECK(taken == A);
  CHECK(q.head() == 9);
  CHECK(q.slots()[8] == 0);  // removed slots are zeroed
  REQUIRE(q.add_head(D));    // a rolled-back take goes back in front
  CHECK(q.head() == 8);
  CHECK(q.slots()[8] == D.to_long());
  REQUIRE(q.remove(C));  // logical 2 of 3: the tail side moves
  CHECK(q.head() == 8);
  CHECK(q.slots()[0] == 0);
  CHECK(logical(q) == std::vector<std::int64_t>{D.to_long(), B.to_long()});
  CHECK(q.reference_count(1) == 1);
  CHECK(q.reference_count(2) == 1);
}

TEST_CASE("flume queue: a middle remove shifts the head side right and steps head forward") {
  EventQueue q = make_queue(10);
  const auto A = ptr(1, 1), B = ptr(1, 2), C = ptr(1, 3), D = ptr(1, 4), E = ptr(1, 5);
  for (const auto p : {A, B, C, D, E}) REQUIRE(q.add_tail(p));
  // head 8: [8]=A [9]=B [0]=C [1]=D [2]=E
  CHECK(q.head() == 8);
  CHECK(q.slots()[1] == D.to_long());
  REQUIRE(q.remove(C));  // index 2, old size 5: 2 > 5/2 is false
  CHECK(q.head() == 9);
  CHECK(q.slots() == std::vector<std::int64_t>{B.to_long(), D.to_long(), E.to_long(), 0, 0, 0, 0, 0, 0, A.to_long()});
  REQUIRE(q.remove(D));  // index 2, old size 4: again the head side
  CHECK(q.head() == 0);
  CHECK(q.slots() == std::vector<std::int64_t>{A.to_long(), B.to_long(), E.to_long(), 0, 0, 0, 0, 0, 0, 0});
  REQUIRE(q.remove(E));  // index 2, old size 3: the tail side
  CHECK(q.head() == 0);
  CHECK(q.slots() == std::vector<std::int64_t>{A.to_long(), B.to_long(), 0, 0, 0, 0, 0, 0, 0, 0});
  CHECK_FALSE(q.remove(E));
  CHECK(q.size() == 2);
}

TEST_CASE("flume queue: random operations match a deque and a transliteration of Flume's code") {
  for (const int capacity : {1, 2, 3, 7, 16}) {
    CAPTURE(capacity);
    std::mt19937 rng(static_cast<unsigned>(capacity) * 7919u);
    EventQueue q = make_queue(capacity);
    NaiveFlumeQueue naive(capacity);
    std::deque<std::int64_t> model;
    std::int32_t next_offset = 1;
    for (int step = 0; step < 4000; ++step) {
      CAPTURE(step);
      const auto op = rng() % 5;
      if (op == 0 || op == 1) {
        const auto p = ptr(static_cast<std::int32_t>(1 + rng() % 3), next_offset++);
        const bool added = q.add_tail(p);
        REQUIRE(added == naive.add_tail(p.to_long()));
        if (added) model.push_back(p.to_long());
      } else if (op == 2) {
        const auto p = ptr(static_cast<std::int32_t>(1 + rng() % 3), next_offset++);
        const bool added = q.add_head(p);
        REQUIRE(added == naive.add_head(p.to_long()));
        if (added) model.push_front(p.to_long());
      } else if (op == 3) {
        EventPointer taken;
        std::int64_t naive_taken = 0;
        const bool removed = q.remove_head(&taken);
        REQUIRE(removed == naive.remove_head(&naive_taken));
        REQUIRE(removed == !model.empty());
        if (removed) {
          REQUIRE(taken.to_long() == model.front());
          model.pop_front();
        }
      } else {
        // A queued pointer (anywhere) or one never queued.
        std::int64_t target = val(9, next_offset++);
        if (!model.empty() && rng() % 4 != 0) target = model[rng() % model.size()];
        const bool removed = q.remove(EventPointer::from_long(target));
        REQUIRE(removed == naive.remove(target));
        const auto it = std::find(model.begin(), model.end(), target);
        REQUIRE(removed == (it != model.end()));
        if (it != model.end()) model.erase(it);
      }
      check_same(q, naive, model);
    }
    CHECK_FALSE(q.anomalies().any());
  }
}

TEST_CASE("flume queue: refusals") {
  EventQueue q = make_queue(3);
  EventPointer taken;
  CHECK_FALSE(q.remove_head(&taken));
  CHECK_FALSE(q.add_tail(EventPointer{}));  // EMPTY is never queued
  CHECK_FALSE(q.add_head(EventPointer{}));
  CHECK_FALSE(q.remove(EventPointer{}));
  CHECK_FALSE(q.remove(ptr(1, 1)));
  REQUIRE(q.add_tail(ptr(1, 1)));
  q.set_inflight_takes(2);  // open takes count against addTail...
  CHECK_FALSE(q.add_tail(ptr(1, 2)));
  CHECK(q.add_head(ptr(1, 3)));  // ...but not against addHead
  CHECK(q.add_head(ptr(1, 4)));
  CHECK(q.size() == 3);
  CHECK_FALSE(q.add_head(ptr(1, 5)));  // size == capacity
  q.set_inflight_takes(0);
  CHECK_FALSE(q.add_tail(ptr(1, 6)));
  CHECK(q.reference_count(1) == 3);
  CHECK_FALSE(q.anomalies().any());
}

TEST_CASE("flume queue: addTail past a full ring is Flume's silent drop") {
  EventQueue q = make_queue(2);
  REQUIRE(q.add_tail(ptr(1, 1)));
  REQUIRE(q.add_tail(ptr(1, 2)));
  q.set_inflight_takes(1);  // size + inflight = 3 != capacity: Flume's check passes
  CHECK(q.add_tail(ptr(1, 3)));
  CHECK(q.size() == 2);
  CHECK(q.reference_count(1) == 3);  // counted although not queued
  CHECK(q.anomalies().dropped_tail_adds == 1);
}

TEST_CASE("flume queue: reference counts") {
  EventQueue q = make_queue(8);
  q.add_tail(ptr(1, 1));
  q.add_tail(ptr(2, 1));
  q.add_tail(ptr(2, 2));
  CHECK(q.reference_counts() == std::vector<std::pair<std::int32_t, std::int64_t>>{{1, 1}, {2, 2}});
  EventPointer taken;
  q.remove_head(&taken);
  CHECK(q.reference_count(1) == 0);
  CHECK(q.reference_counts() == std::vector<std::pair<std::int32_t, std::int64_t>>{{2, 2}});
  // Stored counts replace counted ones, as Flume trusts checkpoint.meta.
  q.set_reference_counts({{2, 1}, {5, 0}});
  CHECK(q.reference_counts() == std::vector<std::pair<std::int32_t, std::int64_t>>{{2, 1}});
  REQUIRE(q.remove(ptr(2, 1)));
  CHECK(q.anomalies().missing_reference_counts == 0);
  REQUIRE(q.remove(ptr(2, 2)));  // no counter left for file 2: Flume's checkState fails
  CHECK(q.anomalies().missing_reference_counts == 1);
  CHECK(q.empty());
}

TEST_CASE("flume queue: remove(pointer) follows queueSet's set semantics for duplicates") {
  EventQueue q = make_queue(8);
  const auto A = ptr(1, 10), B = ptr(1, 20);
  q.add_tail(B);
  q.add_tail(A);
  q.add_tail(A);
  CHECK(q.contains(A));
  REQUIRE(q.remove(A));  // the copy nearest the head
  CHECK(logical(q) == std::vector<std::int64_t>{B.to_long(), A.to_long()});
  CHECK_FALSE(q.contains(A));  // queueSet.remove dropped it although a copy is left
  CHECK_FALSE(q.remove(A));
  q.add_head(A);  // adding puts it back in the set
  REQUIRE(q.remove(A));
  CHECK(logical(q) == std::vector<std::int64_t>{B.to_long(), A.to_long()});
}

TEST_CASE("flume queue: built from checkpoint slots, validated, wrapped") {
  std::string error;
  CHECK_FALSE(EventQueue::create(0, &error).has_value());
  CHECK(qjt_test::contains(error, "capacity"));
  CHECK_FALSE(EventQueue::create(EventQueue::kMaxCapacity + 1, &error).has_value());
  CHECK_FALSE(EventQueue::from_slots({}, 0, 0, &error).has_value());
  CHECK_FALSE(EventQueue::from_slots({0, 0}, 2, 0, &error).has_value());
  CHECK(qjt_test::contains(error, "head"));
  CHECK_FALSE(EventQueue::from_slots({0, 0}, -1, 0, &error).has_value());
  CHECK_FALSE(EventQueue::from_slots({0, 0}, 0, 3, &error).has_value());
  CHECK(qjt_test::contains(error, "size"));
  const Bytes seven = qjt_test::text("1234567");
  CHECK_FALSE(EventQueue::from_slot_bytes(qjt_test::span(seven), 0, 0, &error));
  CHECK(qjt_test::contains(error, "8-byte"));

  // head 3 of capacity 4, size 3: logical order is slots 3, 0, 1.
  auto q = EventQueue::from_slots({val(1, 2), val(2, 3), 0, val(1, 1)}, 3, 3, &error);
  REQUIRE(q.has_value());
  CHECK(logical(*q) == std::vector<std::int64_t>{val(1, 1), val(1, 2), val(2, 3)});
  CHECK(q->reference_counts() == std::vector<std::pair<std::int32_t, std::int64_t>>{{1, 2}, {2, 1}});
  REQUIRE(q->remove(ptr(1, 2)));
  CHECK(logical(*q) == std::vector<std::int64_t>{val(1, 1), val(2, 3)});
  CHECK(q->slots() == std::vector<std::int64_t>{val(1, 1), val(2, 3), 0, 0});
  CHECK(q->head() == 0);

  const Bytes be = qjt_test::cat({{0, 0, 0, 1, 0, 0, 0, 7}, {0, 0, 0, 0, 0, 0, 0, 0}});
  auto from_bytes = EventQueue::from_slot_bytes(qjt_test::span(be), 0, 1, &error);
  REQUIRE(from_bytes.has_value());
  CHECK(from_bytes->at(0) == ptr(1, 7));
}

TEST_CASE("flume queue: the real V2 fixture checkpoint yields Flume's removeHead order") {
  const auto bytes = qjt_test::read_shared_fixture_gz("flume-v2/fileformat-v2-checkpoint.gz");
  if (!bytes) {
    MESSAGE("shared fixture flume-v2/fileformat-v2-checkpoint.gz not present; skipped");
    return;
  }
  const qjt::ByteSpan all = qjt_test::span(*bytes);
  qjt::ByteReader header(all);
  std::int64_t version = 0, woid = 0, size = 0, head = 0;
  header.read_i64_be(&version);
  header.read_i64_be(&woid);
  header.read_i64_be(&size);
  header.read_i64_be(&head);
  REQUIRE(version == 2);
  std::string error;
  auto q = EventQueue::from_slot_bytes(all.subspan(1029 * 8), head, size, &error);
  REQUIRE(q.has_value());
  CHECK(q->capacity() == 10);
  // The stored counts (header slots 5..) agree with the slots.
  CHECK(q->reference_counts() == std::vector<std::pair<std::int32_t, std::int64_t>>{{1, 3}, {2, 3}, {3, 3}});
  const std::vector<std::int64_t> expected = {8589936804,  4294969563, 12884904153, 8589936919, 4294969678,
                                              12884904268, 8589937034, 4294969793,  12884904383};
  std::vector<std::int64_t> taken;
  EventPointer p;
  while (q->remove_head(&p)) taken.push_back(p.to_long());
  CHECK(taken == expected);
  CHECK(q->reference_counts().empty());
}

TEST_CASE("flume queue: a million FIFO puts and takes through remove(pointer) stay fast") {
  EventQueue q = make_queue(1 << 20);
  const int n = 1'000'000;
  int failures = 0;
  for (int i = 0; i < n; ++i) failures += !q.add_tail(ptr(1 + i / 100000, i));
  // Takes near the tail and pending takes that are not queued: a linear
  // search would make these quadratic.
  for (int i = n - 1; i >= n - 2000; --i) failures += !q.remove(ptr(1 + i / 100000, i));
  for (int i = 0; i < 100000; ++i) failures += q.remove(ptr(99, i));
  for (int i = 0; i < n - 2000; ++i) failures += !q.remove(ptr(1 + i / 100000, i));
  CHECK(failures == 0);
  CHECK(q.empty());
  CHECK(q.reference_counts().empty());
}

// ---- channel layout ----

namespace {

namespace fs = std::filesystem;

std::map<std::string, int> codes(const qjt::FindingList& list) {
  std::map<std::string, int> out;
  for (const auto& f : list.findings()) out[f.code]++;
  return out;
}

const qjt::Finding* find_code(const qjt::FindingList& list, const std::string& code) {
  for (const auto& f : list.findings())
    if (f.code == code) return &f;
  return nullptr;
}

Bytes be64(std::uint64_t v) {
  Bytes out(8);
  for (int i = 7; i >= 0; --i, v >>= 8) out[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v);
  return out;
}

Bytes checkpoint_bytes(std::uint64_t version, std::size_t capacity) {
  Bytes out((1029 + capacity) * 8, 0);
  const Bytes v = be64(version);
  std::copy(v.begin(), v.end(), out.begin());
  return out;
}

// A child process holding a POSIX write lock on `path` (as Java's tryLock
// does) until killed.
class LockingChild {
 public:
  explicit LockingChild(const fs::path& path) {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    pid_ = ::fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      ::close(fds[0]);
      const int fd = ::open(path.c_str(), O_RDWR | O_CREAT, 0644);
      struct flock lock {};
      lock.l_type = F_WRLCK;
      lock.l_whence = SEEK_SET;
      if (fd < 0 || ::fcntl(fd, F_SETLK, &lock) != 0) ::_exit(1);
      const char ready = 'x';
      if (::write(fds[1], &ready, 1) != 1) ::_exit(1);
      for (;;) ::pause();
    }
    ::close(fds[1]);
    char ready = 0;
    locked_ = ::read(fds[0], &ready, 1) == 1;
    ::close(fds[0]);
  }
  ~LockingChild() {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  int pid() const { return pid_; }
  bool locked() const { return locked_; }

 private:
  pid_t pid_ = -1;
  bool locked_ = false;
};

}  // namespace

TEST_CASE("flume layout: a healthy V3 channel has no findings and logs in file id order") {
  qjt_test::TempDir tmp("flume-layout-ok");
  const fs::path cp = tmp.path() / "checkpoint", d1 = tmp.path() / "data1", d2 = tmp.path() / "data2";
  fs::create_directories(cp);
  fs::create_directories(d1);
  fs::create_directories(d2);
  qjt_test::write_file(cp / "checkpoint", checkpoint_bytes(3, 4));
  qjt_test::write_file(cp / "checkpoint.meta", {0x00});
  qjt_test::write_file(cp / "inflightputs", {});
  qjt_test::write_file(cp / "inflighttakes", {});
  qjt_test::write_file(cp / "in_use.lock", {});
  qjt_test::write_file(cp / "checkpoint-backup-1700000000000", checkpoint_bytes(2, 4));
  fs::create_directories(cp / "queueset");
  qjt_test::write_file(d1 / "log-3", {0x80});
  qjt_test::write_file(d1 / "log-3.meta", {0x01, 0x00});
  qjt_test::write_file(d1 / "log-1", {0x7F});
  qjt_test::write_file(d1 / "log-1.meta", {0x01, 0x00});
  qjt_test::write_file(d2 / "log-2", {});  // empty: V3 without a meta
  qjt_test::write_file(d2 / "in_use.lock", {});
  qjt_test::write_file(d2 / "notes.txt", {0x41});  // Flume ignores it, so does qjt

  qjt::FindingList findings;
  const auto layout = qjt::flume::discover_channel({cp.string(), {d1.string(), d2.string()}, std::nullopt}, &findings);
  CHECK(findings.findings().empty());
  for (const auto& f : findings.findings()) MESSAGE(qjt::format_finding(f));
  REQUIRE(layout.logs.size() == 3);
  CHECK(layout.logs[0].file_id == 1);
  CHECK(layout.logs[1].file_id == 2);
  CHECK(layout.logs[2].file_id == 3);
  CHECK(layout.logs[0].version == qjt::flume::LogVersion::kV3);
  CHECK(layout.logs[0].meta_source == qjt::flume::MetaSource::kMeta);
  CHECK(layout.logs[1].version == qjt::flume::LogVersion::kV3);
  CHECK(layout.logs[1].meta_source == qjt::flume::MetaSource::kNone);
  CHECK(layout.checkpoint.checkpoint.has_value());
  CHECK(layout.checkpoint.queueset.has_value());
  CHECK(layout.checkpoint.upgrade_backups.size() == 1);
  CHECK(layout.lock_files.size() == 2);
  CHECK(layout.data_dirs.size() == 2);
}

TEST_CASE("flume layout: every data dir finding code") {
  qjt_test::TempDir tmp("flume-layout-data");
  const fs::path cp = tmp.path() / "cp", d1 = tmp.path() / "d1", d2 = tmp.path() / "d2";
  fs::create_directories(cp);
  fs::create_directories(d1);
  fs::create_directories(d2);
  // d1
  qjt_test::write_file(d1 / "log-1", {0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01});  // V2
  qjt_test::write_file(d1 / "log-2", {0x7F, 0x00});
  qjt_test::write_file(d1 / "log-2.meta", {0x01, 0x00});
  qjt_test::write_file(d1 / "log-2.meta.tmp", {0x01, 0x00});  // leftover beside .meta
  qjt_test::write_file(d1 / "log-4", {0x7F});
  qjt_test::write_file(d1 / "log-4.meta.tmp", {0x01, 0x00});  // the reader renames it
  qjt_test::write_file(d1 / "log-4.meta.old", {0x01, 0x00});  // and deletes this
  qjt_test::write_file(d1 / "log-5", {0x7F});
  qjt_test::write_file(d1 / "log-5.meta.old", {0x01, 0x00});  // the reader renames it
  qjt_test::write_file(d1 / "log-6", {0x7F, 0x01});           // no meta, no V2 header
  qjt_test::write_file(d1 / "log-7", {0x7F});
  qjt_test::write_file(d1 / "log-7.meta", {});            // empty meta, non-empty log
  qjt_test::write_file(d1 / "log-9.meta", {0x01, 0x00});  // no log-9
  qjt_test::write_file(d1 / "log-99999999999", {});
  qjt_test::write_file(d1 / "log-2.bak", {0x7F});
  qjt_test::write_file(d1 / "log-x1", {});
  qjt_test::write_file(d1 / "log-1.txt", {});
  // d2: log-2 again
  qjt_test::write_file(d2 / "log-02", {});

  qjt::FindingList findings;
  const auto layout = qjt::flume::discover_channel(
      {cp.string(), {d1.string(), d2.string(), d1.string(), (tmp.path() / "nope").string()}, std::nullopt}, &findings);
  const auto c = codes(findings);
  CHECK(c.at("no_checkpoint") == 1);
  CHECK(c.at("duplicate_directory") == 1);
  CHECK(c.at("missing_directory") == 1);
  CHECK(c.at("meta_leftover") == 4);
  CHECK(c.at("missing_log_meta") == 1);
  CHECK(c.at("empty_log_meta") == 1);
  CHECK(c.at("orphan_log_meta") == 1);
  CHECK(c.at("bad_log_id") == 1);
  CHECK(c.at("integrity_tool_backup") == 1);
  CHECK(c.at("bad_log_name") == 2);
  CHECK(c.at("duplicate_log_id") == 1);
  CHECK(find_code(findings, "duplicate_log_id")->severity == qjt::Severity::kError);
  CHECK(qjt_test::contains(find_code(findings, "duplicate_log_id")->message, "expected file id 2"));
  CHECK(find_code(findings, "integrity_tool_backup")->severity == qjt::Severity::kWarning);

  std::map<std::int32_t, const qjt::flume::DataLog*> by_id;
  for (const auto& log : layout.logs) by_id[log.file_id] = &log;
  CHECK(layout.logs.size() == 7);  // 1, 2, 2 (d2), 4, 5, 6, 7
  CHECK(std::is_sorted(layout.logs.begin(), layout.logs.end(),
                       [](const auto& a, const auto& b) { return a.file_id < b.file_id; }));
  CHECK(by_id.at(1)->version == qjt::flume::LogVersion::kV2);
  CHECK(by_id.at(4)->meta_source == qjt::flume::MetaSource::kTmp);
  CHECK(by_id.at(4)->meta_leftovers.size() == 1);
  CHECK(by_id.at(5)->meta_source == qjt::flume::MetaSource::kOld);
  CHECK(by_id.at(6)->version == qjt::flume::LogVersion::kUnknown);
  const qjt::Finding* leftover = nullptr;
  for (const auto& f : findings.findings())
    if (f.code == "meta_leftover" && qjt_test::contains(f.file, "log-4.meta.old")) leftover = &f;
  REQUIRE(leftover != nullptr);
  CHECK(qjt_test::contains(leftover->message, "uses log-4.meta.tmp"));
}

TEST_CASE("flume layout: checkpoint and backup dir finding codes") {
  qjt_test::TempDir tmp("flume-layout-cp");
  const fs::path cp = tmp.path() / "cp", backup = tmp.path() / "backup", data = tmp.path() / "data";
  fs::create_directories(cp);
  fs::create_directories(backup);
  fs::create_directories(data);
  qjt_test::write_file(cp / "checkpoint.meta", {0x00});  // and no checkpoint
  qjt_test::write_file(backup / "checkpoint", checkpoint_bytes(3, 2));
  qjt_test::write_file(backup / "checkpoint.snappy", {0x82, 0x53});
  qjt_test::write_file(backup / "backupComplete", {});
  {
    qjt::FindingList findings;
    const auto layout = qjt::flume::discover_channel({cp.string(), {data.string()}, backup.string()}, &findings);
    const auto c = codes(findings);
    CHECK(c.at("missing_checkpoint") == 1);
    CHECK(c.at("ambiguous_backup_checkpoint") == 1);
    REQUIRE(layout.backup.has_value());
    CHECK(layout.backup->complete);
  }
  // A V3 checkpoint without meta or inflights; an interrupted backup.
  fs::remove(cp / "checkpoint.meta");
  qjt_test::write_file(cp / "checkpoint", checkpoint_bytes(3, 2));
  fs::remove(backup / "backupComplete");
  fs::remove(backup / "checkpoint.snappy");
  {
    qjt::FindingList findings;
    qjt::flume::discover_channel({cp.string(), {data.string()}, backup.string()}, &findings);
    const auto c = codes(findings);
    CHECK(c.at("missing_checkpoint_meta") == 1);
    CHECK(c.at("missing_inflight") == 2);
    CHECK(c.at("incomplete_backup") == 1);
  }
  // A V2 checkpoint needs no meta; a complete backup without a checkpoint;
  // the backup dir given as the checkpoint dir.
  qjt_test::write_file(cp / "checkpoint", checkpoint_bytes(2, 2));
  qjt_test::write_file(cp / "inflightputs", {});
  qjt_test::write_file(cp / "inflighttakes", {});
  fs::remove(backup / "checkpoint");
  qjt_test::write_file(backup / "backupComplete", {});
  {
    qjt::FindingList findings;
    qjt::flume::discover_channel({cp.string(), {data.string()}, backup.string()}, &findings);
    const auto c = codes(findings);
    CHECK(c.size() == 1);
    CHECK(c.at("missing_backup_checkpoint") == 1);
  }
  {
    qjt::FindingList findings;
    qjt::flume::discover_channel({cp.string(), {data.string()}, cp.string()}, &findings);
    CHECK(codes(findings).at("duplicate_directory") == 1);
  }
  {
    qjt::FindingList findings;
    qjt::flume::discover_channel({(tmp.path() / "none").string(), {}, std::nullopt}, &findings);
    REQUIRE(findings.findings().size() == 1);
    CHECK(findings.findings()[0].code == "missing_directory");
    CHECK(qjt_test::contains(findings.findings()[0].message, "expected the checkpoint directory, found nothing"));
  }
}

TEST_CASE("flume layout: in_use.lock held by a running process is channel_in_use") {
  qjt_test::TempDir tmp("flume-layout-lock");
  const fs::path cp = tmp.path() / "cp", data = tmp.path() / "data";
  fs::create_directories(cp);
  fs::create_directories(data);
  qjt_test::write_file(cp / "checkpoint", checkpoint_bytes(2, 2));
  qjt_test::write_file(cp / "inflightputs", {});
  qjt_test::write_file(cp / "inflighttakes", {});
  qjt_test::write_file(data / "in_use.lock", {});
  LockingChild child(data / "in_use.lock");
  REQUIRE(child.locked());
  qjt::FindingList findings;
  qjt::flume::discover_channel({cp.string(), {data.string()}, std::nullopt}, &findings);
  REQUIRE(findings.findings().size() == 1);
  const auto& f = findings.findings()[0];
  CHECK(f.code == "channel_in_use");
  CHECK(f.severity == qjt::Severity::kWarning);
  CHECK(f.file == (data / "in_use.lock").string());
  CHECK(qjt_test::contains(f.message, "pid " + std::to_string(child.pid())));
}

TEST_CASE("flume in_use lock: find_lock_holder names the process holding an fcntl lock") {
  qjt_test::TempDir tmp("flume-in-use");
  const fs::path lock = tmp.path() / "in_use.lock";
  qjt_test::write_file(lock, {});
  CHECK_FALSE(qjt::find_lock_holder(lock.string()).has_value());
  CHECK_FALSE(qjt::find_lock_holder((tmp.path() / "missing").string()).has_value());
  {
    LockingChild child(lock);
    REQUIRE(child.locked());
    const auto holder = qjt::find_lock_holder(lock.string());
    REQUIRE(holder.has_value());
    CHECK(holder->pid == child.pid());
    CHECK_FALSE(holder->command.empty());
    CHECK(holder->path == lock.string());
  }
  CHECK_FALSE(qjt::find_lock_holder(lock.string()).has_value());
}

// ---- file kinds ----

namespace {

qjt::flume::DetectedKind detect(const std::string& path, const Bytes& bytes) {
  return qjt::flume::detect_file_kind(path, qjt_test::span(bytes));
}

// A 32-byte inflight file with no entries: MD5 of 16 zero bytes, 16 zeros.
Bytes empty_inflight() {
  return qjt_test::cat(
      {{0x4a, 0xe7, 0x13, 0x36, 0xe4, 0x4b, 0xf9, 0xbf, 0x79, 0xd2, 0x75, 0x2e, 0x23, 0x48, 0x18, 0xa5}, Bytes(16, 0)});
}

// The 37-byte checkpoint.meta of spec §2.
Bytes checkpoint_meta() {
  return {0x24, 0x0D, 0x03, 0, 0, 0, 0x11, 0x0E, 0x20, 0x4A, 0xA9, 0xD1, 0x01, 0,    0,    0x1D, 0x01, 0, 0,
          0,    0x25, 0,    0, 0, 0, 0x2A, 0x0A, 0x0D, 0x01, 0,    0,    0,    0x15, 0x01, 0,    0,    0};
}

// An unencrypted log meta: version 3, file id 5, positions 0.
Bytes log_meta() {
  return {28, 0x0D, 3, 0, 0, 0, 0x15, 5, 0, 0, 0, 0x19, 0, 0, 0, 0, 0, 0, 0, 0, 0x21, 0, 0, 0, 0, 0, 0, 0, 0};
}

}  // namespace

TEST_CASE("flume file kind: each kind by content and name") {
  using qjt::flume::FileKind;
  const Bytes v2_log = qjt_test::cat({{0, 0, 0, 2, 0, 0, 0, 3}, Bytes(16, 0), {0x7F, 0xDE}});
  struct Case {
    std::string path;
    Bytes bytes;
    FileKind kind;
    bool content_ok;
  };
  const std::vector<Case> cases = {
      {"/x/checkpoint", checkpoint_bytes(3, 10), FileKind::kCheckpoint, true},
      {"/x/some-copy", checkpoint_bytes(2, 1), FileKind::kCheckpoint, true},
      {"/x/checkpoint", checkpoint_bytes(4, 10), FileKind::kCheckpoint, false},
      {"/x/checkpoint-backup-1700000000000", Bytes(12, 0), FileKind::kCheckpoint, false},
      {"/x/checkpoint.meta", checkpoint_meta(), FileKind::kCheckpointMeta, true},
      {"/x/checkpoint.meta", {0x05, 0x0D}, FileKind::kCheckpointMeta, false},
      {"/x/log-5.meta", log_meta(), FileKind::kLogMeta, true},
      {"/x/log-5.meta.tmp", log_meta(), FileKind::kLogMeta, true},
      {"/x/inflightputs", empty_inflight(), FileKind::kInflight, true},
      {"/x/inflighttakes", {}, FileKind::kInflight, true},
      {"/x/inflighttakes", Bytes(32, 1), FileKind::kInflight, false},
      {"/x/renamed-inflight", empty_inflight(), FileKind::kInflight, true},
      {"/x/log-3", v2_log, FileKind::kLogV2, true},
      {"/x/copy-of-a-log", v2_log, FileKind::kLogV2, true},
      {"/x/log-4", v2_log, FileKind::kLogV2, false},  // V2 header with another file id
      {"/x/log-1", {0x7F, 0, 0, 0, 1, 0}, FileKind::kLogV3, true},
      {"/x/log-1", {0x80, 0x80}, FileKind::kLogV3, true},
      {"/x/log-1", {0x00, 0, 0, 0, 0}, FileKind::kLogV3, true},
      {"/x/log-1", {}, FileKind::kLogV3, true},
      {"/x/backup/checkpoint.snappy",
       {0x82, 0x53, 0x4E, 0x41, 0x50, 0x50, 0x59, 0x00, 0, 0, 0, 1},
       FileKind::kSnappyCheckpoint,
       true},
      {"/x/backupComplete", {}, FileKind::kBackupComplete, true},
      {"/x/garbage", qjt_test::text("hello world, not a flume file at all"), FileKind::kUnknown, false},
      {"/x/empty", {}, FileKind::kUnknown, false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.path);
    const auto d = detect(c.path, c.bytes);
    CAPTURE(d.reason);
    CHECK(d.kind == c.kind);
    CHECK(d.content_ok == c.content_ok);
    CHECK_FALSE(d.reason.empty());
  }
  CHECK(std::string(qjt::flume::file_kind_name(FileKind::kLogMeta)) == "log_meta");
}

TEST_CASE("flume file kind: looks_like_flume tells Flume files from Kestrel journals") {
  const Bytes cp = checkpoint_bytes(2, 2);
  CHECK(qjt::flume::looks_like_flume("/q/checkpoint", qjt_test::span(cp)));
  CHECK(qjt::flume::looks_like_flume("/q/anything", qjt_test::span(cp)));
  CHECK(qjt::flume::looks_like_flume("/q/log-12", qjt::ByteSpan()));
  CHECK(qjt::flume::looks_like_flume("/q/inflighttakes", qjt::ByteSpan()));
  // Kestrel: an ADD record (opcode 0x02 in Kestrel 2), a legacy header, an empty queue file.
  const Bytes kestrel_add = {0x02, 5, 0, 0, 0, 'h', 'e', 'l', 'l', 'o'};
  CHECK_FALSE(qjt::flume::looks_like_flume("/q/orders", qjt_test::span(kestrel_add)));
  const Bytes kestrel_header = {0x27, 0x64, 0x26, 0x03, 0, 0, 0, 0};
  CHECK_FALSE(qjt::flume::looks_like_flume("/q/orders.1700000000000", qjt_test::span(kestrel_header)));
  CHECK_FALSE(qjt::flume::looks_like_flume("/q/orders", qjt::ByteSpan()));
  const Bytes zeros(9000, 0);  // a Kestrel journal could start with 0x00 bytes; version 0 is not Flume
  CHECK_FALSE(qjt::flume::looks_like_flume("/q/orders", qjt_test::span(zeros)));
}

TEST_CASE("flume file kind: garbage never crashes") {
  std::mt19937 rng(42);
  for (int i = 0; i < 2000; ++i) {
    Bytes b(rng() % 64);
    for (auto& x : b) x = static_cast<std::uint8_t>(rng());
    if (!b.empty() && i % 3 == 0) b[0] = static_cast<std::uint8_t>(1 + rng() % 40);  // delimited-ish
    for (const char* name : {"/x/checkpoint.meta", "/x/log-1.meta", "/x/log-1", "/x/inflightputs", "/x/f"}) {
      const auto d = detect(name, b);
      CHECK_FALSE(d.reason.empty());
    }
  }
}
