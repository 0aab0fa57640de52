// Unit tests for libkestrel's stats (formats/libkestrel/libkestrel_stats.h)
// and the compaction rule they share with qjt compact
// (libkestrel_compaction.h). Segments and bookmarks are written out by hand
// from kestrel-format.md §5.2 and §5.3; every expected figure is worked out
// below from the bytes written, never from the replay under test.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "finding.h"
#include "libkestrel/libkestrel_compaction.h"
#include "libkestrel/libkestrel_replay.h"
#include "libkestrel/libkestrel_stats.h"
#include "stats_model.h"
#include "unit_helpers.h"

using namespace qjt;
using namespace qjt::libkestrel;
using qjt_test::Bytes;
using qjt_test::cat;
using qjt_test::span;

namespace {

constexpr std::int64_t kNow = 100'000;
const Bytes kSeg = {0x27, 0x64, 0x26, 0x03};
const Bytes kMark = {0x26, 0x3C, 0x26, 0x03};

Bytes le(std::uint64_t value, int bytes) {
  Bytes out;
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
  return out;
}

// A PUT of `size` bytes 'x' (0x86, or 0x88 with an expiry): 25 + size or
// 33 + size bytes.
Bytes put(std::int64_t id, std::uint32_t size, std::int64_t add, std::optional<std::int64_t> expiry = std::nullopt) {
  Bytes out = cat({{static_cast<std::uint8_t>(expiry ? 0x88 : 0x86)},
                   le(size, 4),
                   le(0, 4),
                   le(static_cast<std::uint64_t>(id), 8),
                   le(static_cast<std::uint64_t>(add), 8)});
  if (expiry) out = cat({out, le(static_cast<std::uint64_t>(*expiry), 8)});
  return cat({out, Bytes(size, 'x')});
}

// READ_HEAD then READ_DONE: 18 + 8 per done id bytes.
Bytes bookmark(std::int64_t head, std::vector<std::int64_t> done) {
  Bytes out = cat({kMark, {0x02}, le(static_cast<std::uint64_t>(head), 8), {0x91}, le(8 * done.size(), 4)});
  for (std::int64_t id : done) out = cat({out, le(static_cast<std::uint64_t>(id), 8)});
  return out;
}

struct Reader {
  std::string name;
  Bytes bytes;
};

// The replay of `segments` (named q.1, q.2...) and `readers`, with stats
// tallied in its pass and added to `model`.
struct Queue {
  Queue(const std::vector<Bytes>& segment_bytes, const std::vector<Reader>& bookmarks)
      : segments(segment_bytes), readers(bookmarks) {
    for (std::size_t i = 0; i < segments.size(); ++i)
      replay.add_segment("dir/q." + std::to_string(i + 1), span(segments[i]),
                         [this](const Record& r) { stats.add_put(r); });
    for (const Reader& r : readers) replay.add_bookmark("dir/q.read." + r.name, r.name, span(r.bytes));
    replay.finish();
    stats.add_to(replay, {"dir", "q", 7}, &model);
  }
  std::vector<Bytes> segments;
  std::vector<Reader> readers;
  FindingList findings;
  QueueReplay replay{&findings};
  QueueStats stats{kNow};
  StatsModel model;

  const StatsEntity& entity(std::string_view kind, std::string_view reader = "") const {
    for (const StatsEntity& e : model.entities())
      if (e.kind() == kind && (kind == "queue" || e.labels().back().value == reader)) return e;
    FAIL("no ", kind, " ", reader);
    return model.entities().front();
  }
};

std::optional<StatsValue> gauge(const StatsEntity& e, std::string_view name, StatsUnit unit) {
  for (const StatsGauge& g : e.gauges())
    if (g.metric.name == name && g.metric.unit == unit) return g.value;
  return std::nullopt;
}

std::uint64_t whole(const StatsEntity& e, std::string_view name, StatsUnit unit = StatsUnit::kCount) {
  const auto value = gauge(e, name, unit);
  REQUIRE_MESSAGE(value, name);
  return value->as_whole();
}

std::int64_t ms(const StatsEntity& e, std::string_view name, StatsUnit unit) {
  const auto value = gauge(e, name, unit);
  REQUIRE_MESSAGE(value, name);
  return value->as_milliseconds();
}

const StatsTable& table(const StatsEntity& e, std::string_view kind) {
  for (const StatsTable& t : e.tables())
    if (t.row_kind() == kind) return t;
  FAIL("no table ", kind);
  return e.tables().front();
}

// A row's values as whole numbers, -1 for "not known".
std::vector<std::int64_t> row(const StatsTable& t, const std::vector<std::string>& keys) {
  for (const auto& r : t.rows()) {
    if (r.keys != keys) continue;
    std::vector<std::int64_t> out;
    for (const auto& v : r.values) out.push_back(v ? static_cast<std::int64_t>(v->as_whole()) : -1);
    return out;
  }
  FAIL("no row");
  return {};
}

std::vector<std::vector<std::string>> keys(const StatsTable& t) {
  std::vector<std::vector<std::string>> out;
  for (const auto& r : t.rows()) out.push_back(r.keys);
  return out;
}

}  // namespace

// q.1: ids 1, 2 (10 and 20 bytes; 2 expires at 50'000): 4 + 35 + 53 = 92
// q.2: ids 3, 4 (30, 40; 4 expires at 200'000):         4 + 55 + 73 = 132
// q.3: id 5, 6 (50, 60):                                 4 + 75 + 85 = 164
// Add times 1000 * id. Readers: fast (head 4, 18 bytes), slow (head 1,
// done {3, 6}: 34 bytes), mid (head 3, done {5}: 26 bytes).
TEST_CASE("libkestrel stats: every figure of a queue of three segments and three readers") {
  const Queue q(
      {cat({kSeg, put(1, 10, 1000), put(2, 20, 2000, 50'000)}),
       cat({kSeg, put(3, 30, 3000), put(4, 40, 4000, 200'000)}), cat({kSeg, put(5, 50, 5000), put(6, 60, 6000)})},
      {{"fast", bookmark(4, {})}, {"mid", bookmark(3, {5})}, {"slow", bookmark(1, {3, 6})}});
  CHECK(q.findings.findings().empty());
  const StatsEntity& queue = q.entity("queue");
  CHECK(queue.labels().size() == 3);
  CHECK(queue.labels()[1].value == "dir");
  CHECK(queue.labels()[2].value == "q");
  CHECK(whole(queue, "records") == 6 + 3 * 2);
  CHECK(whole(queue, "journal", StatsUnit::kBytes) == 92 + 132 + 164 + 7);  // 7: the bookmark bytes given
  CHECK(whole(queue, "segments") == 3);
  CHECK(whole(queue, "readers") == 3);
  CHECK(whole(queue, "tail_id") == 6);
  CHECK(whole(queue, "queued_items") == 6);
  CHECK(whole(queue, "queued", StatsUnit::kBytes) == 210);
  REQUIRE(queue.distributions().size() == 1);
  CHECK(queue.distributions()[0].figures == Distribution{6, 210, 10, 30, 60, 60, 60});
  CHECK(ms(queue, "oldest_item_add", StatsUnit::kTime) == 1000);
  CHECK(ms(queue, "newest_item_add", StatsUnit::kTime) == 6000);
  CHECK(ms(queue, "oldest_item_age", StatsUnit::kDuration) == kNow - 1000);
  CHECK(whole(queue, "expired_items") == 1);
  CHECK(whole(queue, "items_without_expiry") == 4);
  // minHead = min(6, 5, 2, 4) = 2: only q.1 starts at or below it, and it
  // is the last of them, so nothing goes.
  CHECK(whole(queue, "reclaimable", StatsUnit::kBytes) == 0);

  // first, last, items, bytes, needing readers, deleted, freed once passed.
  const StatsTable& segments = table(queue, "segment");
  CHECK(keys(segments) == std::vector<std::vector<std::string>>{{"q.1"}, {"q.2"}, {"q.3"}});
  CHECK(row(segments, {"q.1"}) == std::vector<std::int64_t>{1, 2, 2, 92, 1, 0, 92});    // slow (1 < 2)
  CHECK(row(segments, {"q.2"}) == std::vector<std::int64_t>{3, 4, 2, 132, 2, 0, 224});  // slow, mid (< 4)
  CHECK(row(segments, {"q.3"}) == std::vector<std::int64_t>{5, 6, 2, 164, 3, 0, -1});   // all (< 6); written
  // The space report: per segment, its readers slowest first, with head,
  // and their pending items and bytes in it.
  const StatsTable& space = table(queue, "segment_reader");
  CHECK(keys(space) ==
        std::vector<std::vector<std::string>>{
            {"q.1", "slow"}, {"q.2", "slow"}, {"q.2", "mid"}, {"q.3", "slow"}, {"q.3", "mid"}, {"q.3", "fast"}});
  CHECK(row(space, {"q.1", "slow"}) == std::vector<std::int64_t>{1, 1, 20});
  CHECK(row(space, {"q.2", "slow"}) == std::vector<std::int64_t>{1, 1, 40});  // 3 is done
  CHECK(row(space, {"q.2", "mid"}) == std::vector<std::int64_t>{3, 1, 40});
  CHECK(row(space, {"q.3", "slow"}) == std::vector<std::int64_t>{1, 1, 50});
  CHECK(row(space, {"q.3", "mid"}) == std::vector<std::int64_t>{3, 1, 60});
  CHECK(row(space, {"q.3", "fast"}) == std::vector<std::int64_t>{4, 2, 110});

  const StatsEntity& slow = q.entity("reader", "slow");
  CHECK(slow.labels().size() == 4);
  CHECK(whole(slow, "head_id") == 1);
  CHECK(whole(slow, "done_items") == 2);
  CHECK(whole(slow, "pending_items") == 3);  // 2, 4, 5
  CHECK(whole(slow, "pending", StatsUnit::kBytes) == 110);
  CHECK(whole(slow, "lag_items") == 5);
  CHECK(ms(slow, "oldest_item_add", StatsUnit::kTime) == 2000);
  CHECK(ms(slow, "lag", StatsUnit::kDuration) == kNow - 2000);
  CHECK(whole(slow, "needed_segments") == 3);
  const StatsEntity& mid = q.entity("reader", "mid");
  CHECK(whole(mid, "pending_items") == 2);  // 4, 6
  CHECK(whole(mid, "pending", StatsUnit::kBytes) == 100);
  CHECK(whole(mid, "lag_items") == 3);
  CHECK(ms(mid, "lag", StatsUnit::kDuration) == kNow - 4000);
  CHECK(whole(mid, "needed_segments") == 2);
  const StatsEntity& fast = q.entity("reader", "fast");
  CHECK(whole(fast, "pending_items") == 2);
  CHECK(whole(fast, "needed_segments") == 1);

  const auto blocker = compaction_blocker(q.replay);
  REQUIRE(blocker);
  CHECK(blocker->segment == 0);
  CHECK(blocker->reader->name == "slow");
}

TEST_CASE("libkestrel stats: what compaction deletes, and who blocks the rest") {
  const Bytes s1 = cat({kSeg, put(1, 1, 0), put(2, 1, 0)}), s2 = cat({kSeg, put(3, 1, 0), put(4, 1, 0)});
  const Bytes s3 = cat({kSeg, put(5, 1, 0), put(6, 1, 0)});  // 4 + 2 * 26 = 56 bytes each
  // a at 4, b at 3: q.1 goes (minHead 4); q.2 is kept for b.
  const Queue q({s1, s2, s3}, {{"a", bookmark(4, {})}, {"b", bookmark(3, {})}});
  const StatsEntity& queue = q.entity("queue");
  CHECK(whole(queue, "reclaimable", StatsUnit::kBytes) == 56);
  const StatsTable& segments = table(queue, "segment");
  CHECK(row(segments, {"q.1"}) == std::vector<std::int64_t>{1, 2, 2, 56, 0, 1, 56});
  CHECK(row(segments, {"q.2"}) == std::vector<std::int64_t>{3, 4, 2, 56, 1, 0, 112});
  const auto blocker = compaction_blocker(q.replay);
  REQUIRE(blocker);
  CHECK(blocker->segment == 1);
  CHECK(blocker->reader->name == "b");
  CHECK(blocker->reader->head == 3);
  // Every reader at the tail: all but the last segment go, nothing blocks.
  const Queue done({s1, s2, s3}, {{"a", bookmark(6, {})}});
  CHECK(whole(done.entity("queue"), "reclaimable", StatsUnit::kBytes) == 112);
  CHECK(!compaction_blocker(done.replay));
  CHECK(whole(done.entity("reader", "a"), "needed_segments") == 0);
  CHECK(ms(done.entity("reader", "a"), "lag", StatsUnit::kDuration) == 0);
  CHECK(!gauge(done.entity("reader", "a"), "oldest_item_add", StatsUnit::kTime));
  // Ties on the head: the first name.
  const Queue tie({s1, s2}, {{"y", bookmark(1, {})}, {"x", bookmark(1, {})}});
  CHECK(compaction_blocker(tie.replay)->reader->name == "x");
}

TEST_CASE("libkestrel stats: no bookmark, the default reader; an empty segment; damaged ids") {
  // No bookmark: libkestrel's default reader at the tail.
  const Queue alone({cat({kSeg, put(1, 3, 500)}), kSeg}, {});
  const StatsEntity& reader = alone.entity("reader", "");
  CHECK(whole(reader, "head_id") == 1);
  CHECK(whole(reader, "pending_items") == 0);
  const StatsTable& segments = table(alone.entity("queue"), "segment");
  CHECK(row(segments, {"q.2"}) == std::vector<std::int64_t>{-1, -1, 0, 4, 0, 0, -1});  // no items: no figures
  // Negative ids (a damaged PUT): not known, and no crash.
  const Queue negative({cat({kSeg, put(-5, 1, 0), put(-4, 1, 0)})}, {{"r", bookmark(-9, {})}});
  CHECK(!gauge(negative.entity("queue"), "tail_id", StatsUnit::kCount));
  CHECK(!gauge(negative.entity("reader", "r"), "head_id", StatsUnit::kCount));
  CHECK(whole(negative.entity("reader", "r"), "pending_items") == 2);  // clamped to -6
  CHECK(whole(negative.entity("reader", "r"), "lag_items") == 2);
  // Add times far from now: the age is not known rather than overflowed.
  const Queue far({cat({kSeg, put(1, 1, std::numeric_limits<std::int64_t>::min())})}, {{"r", bookmark(0, {})}});
  CHECK(ms(far.entity("queue"), "oldest_item_add", StatsUnit::kTime) == std::numeric_limits<std::int64_t>::min());
  CHECK(!gauge(far.entity("queue"), "oldest_item_age", StatsUnit::kDuration));
  CHECK(!gauge(far.entity("reader", "r"), "lag", StatsUnit::kDuration));
}
