#include "kestrel/kestrel_stats.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kestrel/record_tally.h"
#include "path_name.h"

namespace qjt::kestrel {
namespace {

using Values = std::vector<std::optional<StatsValue>>;

// The queue's records.
constexpr StatsMetric kRecords{"records", StatsUnit::kCount, "Records in the queue's journal files."};
constexpr StatsMetric kOpRecords{"records", StatsUnit::kCount, "Records of this opcode in the queue's journal."};
constexpr StatsMetric kOpBytes{"records", StatsUnit::kBytes, "Bytes of the records of this opcode."};
constexpr StatsMetric kPayload{"payload", StatsUnit::kBytes,
                               "Payload sizes of the records that add an item (ADD, ADDX, ADD_XID, CONTINUE)."};
// Its items.
constexpr StatsMetric kQueuedItems{"queued_items", StatsUnit::kCount,
                                   "Items in the queue, open transactions' items aside."};
constexpr StatsMetric kQueued{"queued", StatsUnit::kBytes, "Payload bytes of the items in the queue."};
constexpr StatsMetric kQueuedPayload{"queued_payload", StatsUnit::kBytes, "Payload sizes of the items in the queue."};
constexpr StatsMetric kOldestAdd{"oldest_item_add", StatsUnit::kTime,
                                 "Add time of the earliest added item in the queue."};
constexpr StatsMetric kNewestAdd{"newest_item_add", StatsUnit::kTime,
                                 "Add time of the latest added item in the queue."};
constexpr StatsMetric kOldestAge{"oldest_item_age", StatsUnit::kDuration,
                                 "Age of the earliest added item in the queue."};
constexpr StatsMetric kNewestAge{"newest_item_age", StatsUnit::kDuration, "Age of the latest added item in the queue."};
constexpr StatsMetric kExpired{"expired_items", StatsUnit::kCount,
                               "Items in the queue whose expiry has passed (Kestrel discards them when next read)."};
constexpr StatsMetric kNoExpiry{"items_without_expiry", StatsUnit::kCount, "Items in the queue that never expire."};
constexpr StatsMetric kOpenTransactions{
    "open_transactions", StatsUnit::kCount,
    "Open transactions: items removed tentatively, neither confirmed nor put back."};
constexpr StatsMetric kItemAdd{"item_add", StatsUnit::kTime, "Add time of the item the open transaction holds."};
constexpr StatsMetric kItemAge{"item_age", StatsUnit::kDuration, "Age of the item the open transaction holds."};
// Its space.
constexpr StatsMetric kJournal{"journal", StatsUnit::kBytes, "Bytes of the queue's journal files."};
constexpr StatsMetric kArchived{"archived", StatsUnit::kBytes,
                                "Bytes of the queue's journal files Kestrel no longer appends to."};
constexpr StatsMetric kLive{"live", StatsUnit::kBytes, "Bytes of the journal a compaction would write."};
constexpr StatsMetric kOverflow{"journal_overflow", StatsUnit::kRatio,
                                "Journal bytes per live byte (what Kestrel 1.x compares with max_journal_overflow)."};
constexpr StatsMetric kReclaimable{"reclaimable", StatsUnit::kBytes,
                                   "Bytes a compaction would free: journal bytes less live bytes."};
constexpr StatsMetric kSegmentRecords{"records", StatsUnit::kCount, "Records in the journal file."};
constexpr StatsMetric kSegmentBytes{"journal", StatsUnit::kBytes, "Bytes of the journal file."};
constexpr StatsMetric kSegmentItems{"queued_items", StatsUnit::kCount,
                                    "Items queued or held by an open transaction that the journal file adds."};
constexpr StatsMetric kSegmentReclaimable{"reclaimable", StatsUnit::kBytes,
                                          "Bytes of the journal file outside the records of the items still in it."};
// Kestrel's next startup.
constexpr StatsMetric kPackInstalls{"startup_pack_installs", StatsUnit::kCount,
                                    "Leftover packs Kestrel's startup installs in place of the segments they cover."};
constexpr StatsMetric kDeletions{"startup_deletions", StatsUnit::kCount,
                                 "Files Kestrel's startup deletes: temporary files and segments a pack covers."};
constexpr StatsMetric kFileSize{"size", StatsUnit::kBytes, "Bytes of the file."};

std::uint64_t less(std::uint64_t a, std::uint64_t b) { return a > b ? a - b : 0; }

std::string queue_path(const OpenJournal& journal) {
  if (!journal.directory.empty()) return journal.directory;
  if (journal.files.empty() || journal.files.front().path == "-") return "-";
  const std::string parent = std::filesystem::path(journal.files.front().path).parent_path().string();
  return parent.empty() ? "." : parent;
}

void add_records(const RecordTally& tally, std::uint64_t records, StatsEntity* queue) {
  queue->set(kRecords, StatsValue::whole(records));
  queue->set(kPayload, tally.payloads().distribution());
  if (records == 0) return;
  StatsTable& ops = queue->table("opcode", {"op"}, {kOpRecords, kOpBytes});
  for (std::uint8_t op = 0; op <= kMaxOpcode; ++op) {
    const auto type = static_cast<RecordType>(op);
    if (tally.records(type) == 0) continue;
    ops.add_row({std::string(record_type_name(type))},
                {StatsValue::whole(tally.records(type)), StatsValue::whole(tally.bytes(type))});
  }
}

// What a journal file still holds: the items it adds that are queued or
// held by an open transaction, and the bytes of the records that add them.
struct Held {
  std::uint64_t items = 0;
  std::uint64_t bytes = 0;
};

// Counts an item as held by the file whose record adds it.
void hold(const QueuedItem& item, const ItemFigures& figures, std::vector<Held>* held) {
  ++(*held)[item.file_index].items;
  (*held)[item.file_index].bytes += figures.record_length;
}

void add_queued(const ReplayState& state, std::int64_t now, std::vector<Held>* held, StatsEntity* queue) {
  LogHistogram payloads;
  std::uint64_t expired = 0, without_expiry = 0;
  std::optional<std::int64_t> oldest, newest;  // of the items that store an add time (the legacy ADD does not)
  auto figures = state.queue_figures().begin();
  for (const QueuedItem& item : state.queue()) {
    const ItemFigures& f = *figures++;
    hold(item, f, held);
    payloads.add(item.payload_size);
    if (f.expiry_ms == 0) {
      ++without_expiry;
    } else if (f.expiry_ms <= now) {
      ++expired;
    }
    if (!f.has_add_time) continue;
    oldest = std::min(oldest.value_or(f.add_time_ms), f.add_time_ms);
    newest = std::max(newest.value_or(f.add_time_ms), f.add_time_ms);
  }
  queue->set(kQueuedItems, StatsValue::whole(state.queue().size()));
  queue->set(kQueued, StatsValue::whole(payloads.sum()));
  queue->set(kQueuedPayload, payloads.distribution());
  queue->set(kExpired, StatsValue::whole(expired));
  queue->set(kNoExpiry, StatsValue::whole(without_expiry));
  if (oldest) {
    queue->set(kOldestAdd, StatsValue::milliseconds(*oldest));
    if (const auto age = elapsed(*oldest, now)) queue->set(kOldestAge, *age);
    queue->set(kNewestAdd, StatsValue::milliseconds(*newest));
    if (const auto age = elapsed(*newest, now)) queue->set(kNewestAge, *age);
  }
}

// The oldest open transaction is the one whose item was added first (the
// lowest xid among equals): when a transaction opened is not journaled.
void add_open_transactions(const ReplayState& state, std::int64_t now, std::vector<Held>* held, StatsEntity* queue) {
  std::optional<std::pair<std::int32_t, std::int64_t>> oldest;  // xid, add time
  for (const auto& [xid, item] : state.open_transactions()) {
    const ItemFigures& f = state.open_figures().at(xid);
    hold(item, f, held);
    if (f.has_add_time && (!oldest || f.add_time_ms < oldest->second)) oldest = {xid, f.add_time_ms};
  }
  queue->set(kOpenTransactions, StatsValue::whole(state.open_transactions().size()));
  if (!oldest) return;
  // The xid is a text, not a key: a label would start a new series with
  // every transaction.
  queue->table("oldest_open_transaction", {}, {kItemAdd, kItemAge}, {"xid"})
      .add_row({}, {StatsValue::milliseconds(oldest->second), elapsed(oldest->second, now)},
               {std::to_string(oldest->first)});
}

void add_space(const OpenJournal& journal, const ReplayState& state, const std::vector<std::uint64_t>& records,
               const std::vector<Held>& held, StatsEntity* queue) {
  std::uint64_t journal_bytes = 0, archived = 0;
  StatsTable* segments = journal.files.empty()
                             ? nullptr
                             : &queue->table("segment", {"file", "role"},
                                             {kSegmentRecords, kSegmentBytes, kSegmentItems, kSegmentReclaimable});
  for (std::size_t i = 0; i < journal.files.size(); ++i) {
    const JournalFile& file = journal.files[i];
    const std::uint64_t size = journal.size_of(i);
    journal_bytes += size;
    if (!is_live_journal(file)) archived += size;
    segments->add_row({file.name, file_role_name(file.role)},
                      {StatsValue::whole(records[i]), StatsValue::whole(size), StatsValue::whole(held[i].items),
                       StatsValue::whole(less(size, held[i].bytes))});
  }
  const std::uint64_t live = state.live_bytes();
  queue->set(kJournal, StatsValue::whole(journal_bytes));
  queue->set(kArchived, StatsValue::whole(archived));
  queue->set(kLive, StatsValue::whole(live));
  if (live > 0)
    queue->set(kOverflow, StatsValue::fraction(static_cast<double>(journal_bytes) / static_cast<double>(live)));
  queue->set(kReclaimable, StatsValue::whole(less(journal_bytes, live)));
}

bool is_pack(const JournalFile& file) { return file.name.ends_with(".pack"); }

std::optional<StatsValue> file_size(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  return ec ? std::nullopt : std::optional(StatsValue::whole(size));
}

// What startup does with a leftover file: a temporary one ("~~" in its
// name) was never finished; any other was superseded by a pack.
const char* leftover_action(const std::string& name) {
  if (name.find("~~") != std::string::npos) return "delete_temp_file";
  return "delete_superseded_segment";
}

// Startup installs each leftover pack (replay reads it in its place) and
// deletes the files QueueJournal::leftovers names.
void add_startup(const OpenJournal& journal, StatsEntity* queue) {
  const auto packs = static_cast<std::uint64_t>(std::count_if(journal.files.begin(), journal.files.end(), is_pack));
  queue->set(kPackInstalls, StatsValue::whole(packs));
  queue->set(kDeletions, StatsValue::whole(journal.leftovers.size()));
  if (packs == 0 && journal.leftovers.empty()) return;
  StatsTable& actions = queue->table("startup_action", {"file", "action"}, {kFileSize});
  for (std::size_t i = 0; i < journal.files.size(); ++i)
    if (is_pack(journal.files[i]))
      actions.add_row({journal.files[i].name, "install_pack"}, {StatsValue::whole(journal.size_of(i))});
  for (const std::string& path : journal.leftovers) {
    const std::string name = base_name(path);
    actions.add_row({name, leftover_action(name)}, {file_size(path)});
  }
}

}  // namespace

void add_queue_stats(const OpenJournal& journal, ReplayOptions options, std::int64_t now, Reporter* findings,
                     StatsModel* model) {
  options.keep_item_figures = true;
  ReplayState state(options, findings);
  RecordTally tally;
  const std::vector<std::uint64_t> records = replay_journal(journal, &state, {}, &tally);
  StatsEntity& queue =
      model->entity("queue", {{"format", "kestrel"}, {"path", queue_path(journal)}, {"queue", journal.queue}});
  std::uint64_t total = 0;
  for (const std::uint64_t n : records) total += n;
  add_records(tally, total, &queue);
  std::vector<Held> held(journal.files.size());
  add_queued(state, now, &held, &queue);
  add_open_transactions(state, now, &held, &queue);
  add_space(journal, state, records, held, &queue);
  add_startup(journal, &queue);
}

}  // namespace qjt::kestrel
