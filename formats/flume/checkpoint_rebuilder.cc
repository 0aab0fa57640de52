#include "flume/checkpoint_rebuilder.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <unordered_set>

#include "flume/checkpoint_file.h"
#include "flume/checkpoint_meta.h"
#include "flume/event_queue.h"
#include "flume/inflight_file.h"
#include "flume/java_hash_set.h"
#include "flume/log_metadata.h"
#include "flume/log_reader.h"
#include "flume/log_writer.h"
#include "int64_hash_map.h"

namespace qjt::flume {
namespace {

void report(Reporter* reporter, Severity severity, std::string code, std::string file,
            std::optional<std::uint64_t> offset, std::string message) {
  if (reporter == nullptr) return;
  reporter->report(Finding{severity, std::move(code), std::move(file), offset, std::move(message)});
}

// A put as the rebuilder's ComparableFlumeEventPointer holds it: equal by
// pointer, ordered by write order id.
struct PutEntry {
  std::int64_t pointer = 0;
  std::int64_t write_order_id = 0;
};

// One txid's values in a Guava HashMultimap: a set, so a second put of an
// equal pointer keeps the first (and its write order id). A transaction's
// records follow each other in a log, so a pointer past every one before
// is new; any other is searched for directly while the set is small, else
// through an index.
struct PointerSet {
  static constexpr std::size_t kScanned = 16;
  std::vector<PutEntry> entries;
  std::int64_t highest = 0;
  std::unique_ptr<Int64HashMap<char>> index;

  void add(PutEntry entry) {
    if (!entries.empty() && entry.pointer <= highest && holds(entry.pointer)) return;
    if (index) index->insert(entry.pointer);
    if (entries.empty() || entry.pointer > highest) highest = entry.pointer;
    entries.push_back(entry);
  }

 private:
  bool holds(std::int64_t pointer) {
    if (!index && entries.size() >= kScanned) {
      index = std::make_unique<Int64HashMap<char>>();
      for (const PutEntry& e : entries) index->insert(e.pointer);
    }
    if (index) return index->contains(pointer);
    return std::any_of(entries.begin(), entries.end(), [&](const PutEntry& e) { return e.pointer == pointer; });
  }
};

// FlumeEventPointer.hashCode(): 31 * (31 + fileID) + offset, in Java ints.
std::uint32_t pointer_hash(std::int64_t pointer) {
  const EventPointer p = EventPointer::from_long(pointer);
  const std::uint32_t h = 31u * (31u + static_cast<std::uint32_t>(p.file_id)) + static_cast<std::uint32_t>(p.offset);
  return h ^ (h >> 16);  // HashMap.hash spreads the high half down
}

// The iteration order of a java.util.HashSet (Java 8+ HashMap) of
// pointers: bins by index, each a list in insertion order; the table
// starts at 16 and doubles past 3/4 full, or when a bin of 8 grows while
// the table is below 64 (treeifyBin resizes instead); a resize splits each
// bin keeping its order. A bin that grows past 8 in a table of 64 or more
// becomes a red-black tree whose list order Flume's iteration follows but
// which is not emulated: tree_bins() says it happened.
class JavaHashSetOrder {
 public:
  void insert(std::int64_t pointer) {
    std::vector<std::int64_t>& bin = bins_[index(pointer)];
    const std::size_t before = bin.size();
    bin.push_back(pointer);
    if (before >= 8) {
      if (bins_.size() < 64)
        resize();
      else
        tree_bins_ = true;
    }
    if (++size_ > bins_.size() / 4 * 3) resize();
  }
  void erase(std::int64_t pointer) {
    std::vector<std::int64_t>& bin = bins_[index(pointer)];
    const auto it = std::find(bin.begin(), bin.end(), pointer);
    if (it == bin.end()) return;
    bin.erase(it);
    --size_;
  }
  std::vector<std::int64_t> in_order() const {
    std::vector<std::int64_t> out;
    out.reserve(size_);
    for (const auto& bin : bins_) out.insert(out.end(), bin.begin(), bin.end());
    return out;
  }
  bool tree_bins() const { return tree_bins_; }

 private:
  std::size_t index(std::int64_t pointer) const { return pointer_hash(pointer) & (bins_.size() - 1); }
  void resize() {
    std::vector<std::vector<std::int64_t>> old(bins_.size() * 2);
    old.swap(bins_);
    for (const auto& bin : old)
      for (std::int64_t p : bin) bins_[index(p)].push_back(p);
  }

  std::vector<std::vector<std::int64_t>> bins_ = std::vector<std::vector<std::int64_t>>(16);
  std::size_t size_ = 0;
  bool tree_bins_ = false;
};

// The rebuilder's state (CheckpointRebuilder's fields). Flume never clears
// an uncommitted set on commit (it only reads them with get()), only on a
// rollback. Kept whole, they hold every record of the channel; so a commit
// here lets go of the set it consumed and remembers the transaction id as
// settled. That changes nothing unless a later record names a settled id
// (ids are unique unless the logs repeat themselves): then `revisited`
// says so, and the logs are read again with `keep_all`, as Flume keeps them.
// The HashSet's iteration order matters only to committed puts with equal
// write order ids, which logs since FLUME-1432 never have: so it is
// emulated only when `hash_order` asks (a second pass, once ties are seen).
struct RebuildState {
  RebuildState(bool hash_order, bool keep_every_set) : keep_all(keep_every_set) {
    if (hash_order) committed_order.emplace();
  }

  bool keep_all;
  Int64HashMap<PointerSet> uncommitted_puts;
  Int64HashMap<PointerSet> uncommitted_takes;
  Int64HashMap<std::int64_t> committed_puts;        // pointer -> its put's write order id
  std::optional<JavaHashSetOrder> committed_order;  // committedPuts' iteration order
  Int64HashMap<char> pending_takes;
  Int64HashMap<char> settled;           // transaction ids whose consumed set was let go
  bool revisited = false;               // a record named a settled id
  std::int64_t max_write_order_id = 0;  // Flume's seed starts at 0

  void saw(std::int64_t txid) {
    if (!keep_all && settled.contains(txid)) revisited = true;
  }
  void commit_puts(std::int64_t txid) {
    const PointerSet* puts = uncommitted_puts.find(txid);
    if (puts == nullptr) return;
    for (const PutEntry& put : puts->entries) {
      if (pending_takes.erase(put.pointer)) continue;  // taken before its put was read
      // A set: adding an equal pointer keeps the first (and its woid).
      bool inserted = false;
      committed_puts.insert(put.pointer, put.write_order_id, &inserted);
      if (inserted && committed_order) committed_order->insert(put.pointer);
    }
    settle(&uncommitted_puts, txid);
  }
  void commit_takes(std::int64_t txid) {
    const PointerSet* takes = uncommitted_takes.find(txid);
    if (takes == nullptr) return;
    for (const PutEntry& take : takes->entries) {
      if (committed_puts.erase(take.pointer)) {
        if (committed_order) committed_order->erase(take.pointer);
      } else {
        pending_takes.insert(take.pointer);
      }
    }
    settle(&uncommitted_takes, txid);
  }
  void rollback(std::int64_t txid) {
    // containsKey(txid): a HashMultimap has a key only while it has values.
    if (!uncommitted_puts.erase(txid)) uncommitted_takes.erase(txid);
  }

 private:
  void settle(Int64HashMap<PointerSet>* sets, std::int64_t txid) {
    if (keep_all) return;
    sets->erase(txid);
    settled.insert(txid);
  }
};

// Whether Flume's SequentialReader.next() returns null (end of this log,
// quietly) where qjt's reader says kBroken: a byte that is no OP code ("non
// op-record", logged and null) or a V3 record running past the end of the
// file (readFully throws EOFException, caught as null). Every other broken
// record is a CorruptEventException or IOException that fails the rebuild.
bool flume_ends_quietly(const ChannelLog& log, const LogRecord& record) {
  const ByteSpan bytes = log.bytes();
  if (record.offset >= bytes.size()) return true;
  const std::uint8_t op = bytes[record.offset];
  if (op != kOpRecord && op != kOpNoop && op != kOpEof) return true;
  if (op != kOpRecord || log.version() != 3) return false;
  const std::uint64_t left = bytes.size() - record.offset;
  if (left < 5) return true;
  std::int32_t length = 0;
  for (std::size_t i = 1; i <= 4; ++i)
    length = static_cast<std::int32_t>((static_cast<std::uint32_t>(length) << 8) | bytes[record.offset + i]);
  return length >= 0 && static_cast<std::uint64_t>(length) > left - 5;
}

// Flume's rebuild() would not get through this log: encrypted (no key
// provider), or one its MetaDataWriter cannot open for the mark.
bool log_usable(const ChannelLog& log, Reporter* reporter) {
  const std::string& path = log.layout().path;
  if (log.metadata() && log.metadata()->encryption) {
    report(reporter, Severity::kError, "rebuild_encrypted_log", path, std::nullopt,
           "expected an unencrypted log, found one encrypted with key alias '" + log.metadata()->encryption->key_alias +
               "': Flume's CheckpointRebuilder opens logs without a key provider and fails "
               "(\"Data file is encrypted but no provider was specified\")");
    return false;
  }
  const bool has_mark = log.version() == 2 ? log.v2_header().has_value() : log.metadata().has_value();
  if (!log.readable() || !has_mark) {
    report(reporter, Severity::kError, "rebuild_unreadable_log", path, std::nullopt,
           "expected a log the rebuilder can read and mark, found one that cannot be read or has no "
           "usable " +
               std::string(log.version() == 2 ? "V2 header" : "log-N.meta"));
    return false;
  }
  if (log.file_id() != log.layout().file_id) {
    report(reporter, Severity::kError, "log_file_id_mismatch", path, std::nullopt,
           fmt::format("expected file id {} (the name) in its {}, found {}: Flume's MetaDataWriter throws "
                       "before the checkpoint is written",
                       log.layout().file_id, log.version() == 2 ? "header" : "meta", log.file_id()));
    return false;
  }
  return true;
}

// Applies one record that decoded (not a NOOP, not the end): false when
// Flume's rebuild fails on it.
bool apply_record(const ChannelLog& log, const LogRecord& r, RebuildState* state, Reporter* reporter) {
  if (r.type == LogRecordType::kPut && !r.crc_ok) {
    report(reporter, Severity::kError, "crc_mismatch", log.layout().path, r.offset,
           fmt::format("expected Put.checksum {:08x} over the body, found {:08x}: the rebuild fails",
                       r.stored_crc.value_or(0), r.computed_crc));
    return false;
  }
  state->max_write_order_id = std::max(state->max_write_order_id, r.write_order_id);
  state->saw(r.transaction_id);
  if (r.type == LogRecordType::kPut) {
    const EventPointer p{log.file_id(), static_cast<std::int32_t>(r.offset)};
    state->uncommitted_puts.insert(r.transaction_id).add(PutEntry{p.to_long(), r.write_order_id});
  } else if (r.type == LogRecordType::kTake) {
    if (r.taken.offset < 0) {
      report(reporter, Severity::kError, "broken_record", log.layout().path, r.offset,
             fmt::format("expected a Take of an offset >= 0, found {}: FlumeEventPointer throws and the "
                         "rebuild fails",
                         r.taken.offset));
      return false;
    }
    state->uncommitted_takes.insert(r.transaction_id).add(PutEntry{r.taken.to_long(), r.write_order_id});
  } else if (r.type == LogRecordType::kCommit) {
    // Flume: `commit.getType() == PUT` else the take branch, whatever the type.
    if (r.commit_type == 1)
      state->commit_puts(r.transaction_id);
    else
      state->commit_takes(r.transaction_id);
  } else if (r.type == LogRecordType::kRollback) {
    state->rollback(r.transaction_id);
  }
  return true;
}

// Applies one log's records; false when Flume's rebuild fails on it.
bool read_log(const ChannelLog& log, RebuildState* state, Reporter* reporter) {
  LogReader reader = log.reader(log.data_start());
  LogRecord r;
  while (reader.next(&r)) {
    switch (r.type) {
      case LogRecordType::kEndOfData:
        return true;
      case LogRecordType::kNoop:
        continue;
      case LogRecordType::kBroken:
        if (flume_ends_quietly(log, r)) {
          report(reporter, Severity::kWarning, "rebuild_log_cut_short", log.layout().path, r.offset,
                 "expected a record or the end-of-data fill, found " + r.error +
                     ": Flume's reader quietly ends this log here, so later records are not rebuilt");
          return true;
        }
        report(reporter, Severity::kError, "broken_record", log.layout().path, r.offset,
               r.error + ": the rebuild fails (fsyncPerTransaction=true)");
        return false;
      default:
        break;
    }
    if (!apply_record(log, r, state, reporter)) return false;
  }
  return true;
}

// Sets.newTreeSet(committedPuts) adds the HashSet's elements in its
// iteration order; the comparator answers -1 for a lower write order id and
// 1 otherwise (never 0), so an element goes after every one with an equal
// id: a stable sort of the iteration order. Without the emulated order
// (state.committed_order), the ids must be distinct: *ties says they were
// not, and the result is then to be computed again with it.
std::vector<EventPointer> sorted_puts(const RebuildState& state, bool* ties) {
  std::vector<std::pair<std::int64_t, std::int64_t>> puts;  // (woid, pointer)
  puts.reserve(state.committed_puts.size());
  if (state.committed_order) {
    for (std::int64_t pointer : state.committed_order->in_order())
      puts.emplace_back(*state.committed_puts.find(pointer), pointer);
    std::stable_sort(puts.begin(), puts.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  } else {
    state.committed_puts.for_each([&](std::int64_t pointer, std::int64_t woid) { puts.emplace_back(woid, pointer); });
    std::sort(puts.begin(), puts.end());
  }
  *ties = std::adjacent_find(puts.begin(), puts.end(),
                             [](const auto& a, const auto& b) { return a.first == b.first; }) != puts.end();
  std::vector<EventPointer> out;
  out.reserve(puts.size());
  for (const auto& p : puts) out.push_back(EventPointer::from_long(p.second));
  return out;
}

// Every log's records applied to a state; nullopt when Flume's rebuild
// fails on one.
std::optional<RebuildState> read_logs(const ChannelLogs& logs, bool hash_order, bool keep_all, Reporter* reporter) {
  RebuildState state(hash_order, keep_all);
  for (const ChannelLog& log : logs.logs())
    if (!read_log(log, &state, reporter)) return std::nullopt;
  return state;
}

// EventQueueBackingStoreFileV3.writeCheckpointMetaData: head, size, the
// oracle's id and every count != 0 in the HashMap's iteration order, the
// keys having been put in the order of each file's first addTail.
std::string checkpoint_meta_bytes(const EventQueue& queue, std::int64_t write_order_id,
                                  const std::vector<std::int32_t>& first_added) {
  CheckpointMeta meta;
  meta.write_order_id = write_order_id;
  meta.queue_size = queue.size();
  meta.queue_head = queue.head();
  for (std::int32_t file_id : java_hash_map_order(first_added)) {
    const std::int64_t count = queue.reference_count(file_id);
    if (count != 0) meta.active_logs.push_back(ActiveLogCount{file_id, static_cast<std::int32_t>(count)});
  }
  return encode_checkpoint_meta(meta);
}

// LogFile.MetaDataWriter.markCheckpoint(woid) = markCheckpoint(
// lastCheckpointOffset, woid), lastCheckpointOffset being the position the
// meta (V3) or header (V2) already holds. LogFileV3's version builds on
// the old message, moving its (position, woid) to the backup fields;
// LogFileV2's writes both longs at header offset 8.
std::string new_mark(const ChannelLog& log, std::int64_t write_order_id) {
  if (log.version() == 2) {
    V2LogHeader header = *log.v2_header();
    header.checkpoint_write_order_id = write_order_id;
    std::string out;
    append_v2_log_header(&out, header);
    return out;
  }
  LogMetadata meta = *log.metadata();
  meta.backup_checkpoint_position = meta.checkpoint_position;
  meta.backup_checkpoint_write_order_id = meta.checkpoint_write_order_id;
  meta.checkpoint_write_order_id = write_order_id;
  return encode_log_metadata(meta);
}

// addTail of every committed put; false when some do not fit and the
// caller did not ask for Flume's lossy result.
bool fill_queue(const std::vector<EventPointer>& puts, const RebuildOptions& options, EventQueue* queue,
                RebuiltCheckpoint* out, std::vector<std::int32_t>* first_added, Reporter* reporter) {
  std::unordered_set<std::int32_t> files;
  for (EventPointer p : puts) {
    if (!queue->add_tail(p)) {
      ++out->dropped_events;
      continue;
    }
    out->queue.push_back(p);
    if (files.insert(p.file_id).second) first_added->push_back(p.file_id);
  }
  out->events = out->queue.size();
  if (out->dropped_events == 0) return true;
  report(reporter, options.keep_what_fits ? Severity::kWarning : Severity::kError, "queue_full", "", std::nullopt,
         fmt::format("expected a capacity of at least {} for the committed events, found {}: Flume's rebuilder "
                     "ignores addTail's refusal and silently loses the last {} (capacity too small)",
                     puts.size(), options.capacity, out->dropped_events));
  return options.keep_what_fits;
}

}  // namespace

struct RebuildReading::State {
  RebuildState rebuild{false, false};
};

RebuildReading::RebuildReading() : state_(std::make_unique<State>()) {}
RebuildReading::~RebuildReading() = default;

void RebuildReading::add(const ChannelLog& log, const LogRecord& record) {
  if (!usable_ || record.type == LogRecordType::kEndOfData || record.type == LogRecordType::kNoop) return;
  // No reporter: a record that fails the rebuild makes this unusable, and
  // the rebuild says why when it reads the logs itself.
  usable_ = record.type != LogRecordType::kBroken && apply_record(log, record, &state_->rebuild, nullptr);
}

std::vector<std::int32_t> java_hash_map_order(const std::vector<std::int32_t>& keys) {
  JavaHashSet map(JavaBoxed::kInteger);
  for (std::int32_t key : keys) map.insert(key);
  std::vector<std::int32_t> order;
  order.reserve(keys.size());
  for (std::int64_t key : map.in_order()) order.push_back(static_cast<std::int32_t>(key));
  return order;
}

std::optional<RebuiltCheckpoint> rebuild_checkpoint(const ChannelLogs& logs, const RebuildOptions& options,
                                                    Reporter* reporter, RebuildReading* read) {
  std::string error;
  std::optional<EventQueue> queue = EventQueue::create(options.capacity, &error);
  if (!queue) {
    report(reporter, Severity::kError, "bad_capacity", "", std::nullopt,
           fmt::format("expected a capacity from 1 to 2147483647, found {}: {}", options.capacity, error));
    return std::nullopt;
  }
  bool ok = true;
  for (const ChannelLog& log : logs.logs()) ok = log_usable(log, reporter) && ok;
  if (!ok) return std::nullopt;

  std::optional<RebuildState> state;
  if (read != nullptr && read->usable())
    state = std::move(read->state_->rebuild);
  else
    state = read_logs(logs, false, false, reporter);
  if (!state) return std::nullopt;
  bool ties = false;
  std::vector<EventPointer> puts;
  // Read again (the findings were given) as Flume keeps every set, when a
  // settled transaction id came back, and for the HashSet's order on ties.
  for (bool hash_order = false;;) {
    if (!state->revisited) {
      puts = sorted_puts(*state, &ties);
      if (!ties || hash_order) break;
      hash_order = true;
    }
    FindingList given;
    state = read_logs(logs, hash_order, true, &given);
    if (!state) return std::nullopt;
  }
  if (!state->pending_takes.empty())
    report(reporter, Severity::kWarning, "pending_takes", "", std::nullopt,
           fmt::format("expected every committed take to find its put, found {} that did not: ignored",
                       state->pending_takes.size()));

  RebuiltCheckpoint out;
  if (ties && state->committed_order->tree_bins())
    report(reporter, Severity::kWarning, "rebuild_tie_order", "", std::nullopt,
           "expected distinct write order ids or a HashSet without tree bins, found equal ids and a bin of "
           "more than 8 pointers: the order of events with equal ids may differ from Flume's");
  std::vector<std::int32_t> first_added;
  if (!fill_queue(puts, options, &*queue, &out, &first_added, reporter)) return std::nullopt;

  // WriteOrderOracle: starts at currentTimeMillis, setSeed raises it to the
  // highest id read, next() adds one (FC/WriteOrderOracle.java).
  out.write_order_id = options.write_order_id.value_or(std::max(options.now_ms, state->max_write_order_id) + 1);
  CheckpointImage image;
  image.version = 3;
  image.write_order_id = out.write_order_id;
  image.marker = kCheckpointComplete;
  out.checkpoint_meta = checkpoint_meta_bytes(*queue, out.write_order_id, first_added);
  image.slots = std::move(*queue).release_slots();
  out.checkpoint = encode_checkpoint(image).value_or(std::string());
  out.inflight_puts = encode_inflight({});
  out.inflight_takes = encode_inflight({});
  for (const ChannelLog& log : logs.logs())
    out.log_metas.emplace_back(log.layout().file_id, new_mark(log, out.write_order_id));
  return out;
}

}  // namespace qjt::flume
