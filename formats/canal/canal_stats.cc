#include "canal/canal_stats.h"

#include <algorithm>
#include <iterator>
#include <limits>

#include "canal/restart_cursor.h"

namespace qjt::canal {
namespace {

// A cursor's figures, on a client and in a destination's restart row.
// The position is a byte offset, not a size: a count, shown exactly.
constexpr StatsMetric kPosition{"position", StatsUnit::kCount,
                                "The cursor's byte offset in its binlog, where the event last acknowledged starts."};
constexpr StatsMetric kJournalSequence{"journal_sequence", StatsUnit::kCount,
                                       "The sequence number of the cursor's binlog: 6 for mysql-bin.000006."};
constexpr StatsMetric kCursorTime{"cursor", StatsUnit::kTime, "The binlog timestamp of the event at the cursor."};
constexpr StatsMetric kLag{"lag", StatsUnit::kDuration, "How far the cursor's binlog timestamp is behind now."};

// A meta.dat client against the server's binlogs.
constexpr StatsMetric kBinlogPurged{
    "binlog_purged", StatsUnit::kCount,
    "1 when the cursor's binlog is not among the server's binlogs (Canal cannot restart from it), else 0."};
constexpr StatsMetric kBehindBinlogs{"behind_binlogs", StatsUnit::kCount, "The server's binlogs after the cursor's."};
constexpr StatsMetric kBehind{"behind", StatsUnit::kBytes,
                              "The binlog bytes after the cursor: the rest of its binlog and every later one."};

// A meta.dat's destination.
constexpr StatsMetric kClients{"clients", StatsUnit::kCount, "The clients in the meta.dat."};
constexpr StatsMetric kNeededBinlogs{"needed_binlogs", StatsUnit::kCount,
                                     "The server's binlogs from the restart cursor's on, which the slowest client "
                                     "still needs."};
constexpr StatsMetric kNeeded{"needed", StatsUnit::kBytes, "The size of the binlogs the slowest client still needs."};
constexpr StatsMetric kReclaimableBinlogs{"reclaimable_binlogs", StatsUnit::kCount,
                                          "The server's binlogs before the restart cursor's, which no client needs."};
constexpr StatsMetric kReclaimable{
    "reclaimable", StatsUnit::kBytes,
    "The size of the binlogs no client needs: what PURGE BINARY LOGS TO the restart cursor's binlog frees."};
constexpr StatsMetric kTsdb{"tsdb", StatsUnit::kBytes,
                            "The size of the H2 table-meta store beside meta.dat (h2.mv.db and its h2.* files)."};
constexpr StatsMetric kTsdbWritten{"tsdb_written", StatsUnit::kTime,
                                   "When the table-meta store was last written: the newest mtime of its files."};

// A meta.log's client.
constexpr StatsMetric kClientLines{"records", StatsUnit::kCount, "The client's cursor lines in the meta.log."};
constexpr StatsMetric kPositionChanges{"position_changes", StatsUnit::kCount,
                                       "The client's lines whose journal or position differs from its line before "
                                       "in the same meta.log."};
constexpr StatsMetric kUpdateRate{"position_changes", StatsUnit::kRate,
                                  "The client's position changes per second of the meta.log's span."};
constexpr StatsMetric kLastChange{"last_change", StatsUnit::kTime,
                                  "When the line of the client's last position change was logged."};

// A meta.log's destination.
constexpr StatsMetric kLogLines{"records", StatsUnit::kCount, "The meta.log's cursor lines."};
constexpr StatsMetric kJournal{"journal", StatsUnit::kBytes, "The meta.log's size on disk (gzip'd when rolled)."};
constexpr StatsMetric kLogSpan{"log_span", StatsUnit::kDuration, "From the meta.log's earliest line to its latest."};
constexpr StatsMetric kOldestEntryAge{"oldest_entry_age", StatsUnit::kDuration,
                                      "How long ago the meta.log's earliest line was logged."};
constexpr StatsMetric kNewestEntryAge{"newest_entry_age", StatsUnit::kDuration,
                                      "How long ago the meta.log's latest line was logged (Canal logs a cursor when "
                                      "it flushes a client's update)."};

constexpr std::string_view kFormat = "canal";

// Sizes from --binlogs are untrusted: their sums saturate rather than wrap.
void add_bytes(std::uint64_t* sum, std::uint64_t bytes) {
  if (__builtin_add_overflow(*sum, bytes, sum)) *sum = std::numeric_limits<std::uint64_t>::max();
}

// A number of binlogs and their bytes.
struct BinlogSpan {
  std::uint64_t binlogs = 0;
  std::uint64_t bytes = 0;
};

BinlogSpan span_of(BinlogSizes::const_iterator first, BinlogSizes::const_iterator last) {
  BinlogSpan span;
  for (; first != last; ++first) {
    ++span.binlogs;
    add_bytes(&span.bytes, first->second);
  }
  return span;
}

// The cursor's place in a binlog: none for Canal's search by time, a
// cursor missing its journal or position, or a negative position.
std::optional<std::uint64_t> binlog_position(const Cursor& c) {
  if (!c.journal_name || !c.position || *c.position < 0 || is_timestamp_cursor(c)) return std::nullopt;
  return static_cast<std::uint64_t>(*c.position);
}

std::vector<StatsLabel> destination_labels(const std::string& path, const std::string& destination) {
  return {{"format", std::string(kFormat)}, {"path", path}, {"destination", destination}};
}

std::vector<StatsLabel> client_labels(const std::string& path, const std::string& destination, std::int64_t client_id) {
  auto labels = destination_labels(path, destination);
  labels.push_back({"client", std::to_string(client_id)});
  return labels;
}

// The digits that end a binlog's name (mysql-bin.000006: 6); none when it
// does not end in 1 to 19 of them (npos + 1 wraps to 0: all digits).
std::optional<StatsValue> journal_sequence(const std::string& journal) {
  const std::size_t digits = journal.size() - (journal.find_last_not_of("0123456789") + 1);
  if (digits == 0 || digits > 19) return std::nullopt;
  return StatsValue::whole(std::stoull(journal.substr(journal.size() - digits)));
}

void add_cursor_figures(const Cursor& c, std::int64_t now_ms, StatsEntity* client) {
  if (const auto position = binlog_position(c))
    client->table("cursor", {}, {kJournalSequence, kPosition}, {"journal"})
        .add_row({}, {journal_sequence(*c.journal_name), StatsValue::whole(*position)}, {*c.journal_name});
  if (!c.timestamp) return;
  client->set(kCursorTime, StatsValue::milliseconds(*c.timestamp));
  if (const auto lag = elapsed(*c.timestamp, now_ms)) client->set(kLag, *lag);
}

// As check_against_binlogs judges the cursor: a cursor it does not check
// gets no figure, and one past its binlog's end no distance.
void add_binlog_figures(const Cursor& c, const BinlogSizes& binlogs, StatsEntity* client) {
  const auto position = binlog_position(c);
  if (!c.valid || !position) return;
  const auto own = binlogs.find(*c.journal_name);
  client->set(kBinlogPurged, StatsValue::whole(own == binlogs.end() ? 1 : 0));
  if (own == binlogs.end() || *position > own->second) return;
  BinlogSpan behind = span_of(std::next(own), binlogs.end());
  add_bytes(&behind.bytes, own->second - *position);
  client->set(kBehindBinlogs, StatsValue::whole(behind.binlogs));
  client->set(kBehind, StatsValue::whole(behind.bytes));
}

// The restart row: the slowest client, where it is, and with binlogs what
// it still needs; the binlogs before it are the destination's reclaimable.
void add_restart(const RestartCursor& restart, const BinlogSizes* binlogs, std::int64_t now_ms,
                 StatsEntity* destination) {
  const Cursor& c = restart.cursor;
  const auto position = binlog_position(c);

  std::vector<std::optional<StatsValue>> row{
      position ? journal_sequence(*c.journal_name) : std::nullopt,
      position ? std::optional(StatsValue::whole(*position)) : std::nullopt,
      c.timestamp ? std::optional(StatsValue::milliseconds(*c.timestamp)) : std::nullopt,
      c.timestamp ? elapsed(*c.timestamp, now_ms) : std::nullopt,
      std::nullopt,
      std::nullopt};
  if (binlogs && position) {
    const auto own = binlogs->find(*c.journal_name);
    if (own != binlogs->end()) {
      const BinlogSpan needed = span_of(own, binlogs->end());
      const BinlogSpan before = span_of(binlogs->begin(), own);
      row[4] = StatsValue::whole(needed.binlogs);
      row[5] = StatsValue::whole(needed.bytes);
      destination->set(kReclaimableBinlogs, StatsValue::whole(before.binlogs));
      destination->set(kReclaimable, StatsValue::whole(before.bytes));
    }
  }
  destination
      ->table("restart", {"client"}, {kJournalSequence, kPosition, kCursorTime, kLag, kNeededBinlogs, kNeeded},
              {"journal"})
      .add_row({std::to_string(restart.client_id)}, std::move(row), {c.journal_name.value_or("")});
}

}  // namespace

void add_meta_dat_stats(const MetaDat& meta, const MetaDatSource& source, const BinlogSizes* binlogs,
                        std::int64_t now_ms, StatsModel* model) {
  StatsEntity& destination = model->entity("destination", destination_labels(source.file, meta.destination));
  destination.set(kClients, StatsValue::whole(meta.clients.size()));
  if (const auto restart = restart_cursor(meta, source)) add_restart(*restart, binlogs, now_ms, &destination);
  for (const ClientData& c : meta.clients) {
    StatsEntity& client = model->entity("client", client_labels(source.file, meta.destination, c.client_id));
    if (!c.cursor) continue;
    add_cursor_figures(*c.cursor, now_ms, &client);
    if (binlogs) add_binlog_figures(*c.cursor, *binlogs, &client);
  }
}

void add_tsdb_stats(const TsdbStore& store, const MetaDat& meta, const MetaDatSource& source, StatsModel* model) {
  if (!store.present()) return;
  StatsEntity& destination = model->entity("destination", destination_labels(source.file, meta.destination));
  destination.set(kTsdb, StatsValue::whole(store.size()));
  destination.set(kTsdbWritten, StatsValue::milliseconds(store.newest_modified_ms()));
}

void MetaLogStats::add(const LogEntry& entry) {
  earliest_ms_ = lines_ == 0 ? entry.time_ms : std::min(earliest_ms_, entry.time_ms);
  latest_ms_ = lines_ == 0 ? entry.time_ms : std::max(latest_ms_, entry.time_ms);
  ++lines_;
  const auto [at, added] = index_.try_emplace(entry.client_id, clients_.size());
  if (added) clients_.emplace_back().client_id = entry.client_id;
  ClientLog& client = clients_[at->second];
  const Cursor& cursor = entry.cursor;
  if (client.lines > 0 &&
      (cursor.journal_name != client.cursor.journal_name || cursor.position != client.cursor.position)) {
    ++client.position_changes;
    client.last_change_ms = entry.time_ms;
  }
  ++client.lines;
  client.cursor = cursor;  // its strings' buffers reused
}

void MetaLogStats::finish_file(const std::string& path, std::uint64_t bytes, StatsModel* model) {
  const std::string name = destination_of_meta_log(path);
  StatsEntity& destination = model->entity("destination", destination_labels(path, name));
  destination.set(kLogLines, StatsValue::whole(lines_));
  destination.set(kJournal, StatsValue::whole(bytes));
  const auto span = lines_ > 0 ? elapsed(earliest_ms_, latest_ms_) : std::nullopt;
  if (span) destination.set(kLogSpan, *span);
  if (lines_ > 0) {
    if (const auto age = elapsed(earliest_ms_, now_ms_)) destination.set(kOldestEntryAge, *age);
    if (const auto age = elapsed(latest_ms_, now_ms_)) destination.set(kNewestEntryAge, *age);
  }
  for (const ClientLog& c : clients_) {
    StatsEntity& client = model->entity("client", client_labels(path, name, c.client_id));
    add_cursor_figures(c.cursor, now_ms_, &client);
    client.set(kClientLines, StatsValue::whole(c.lines));
    client.set(kPositionChanges, StatsValue::whole(c.position_changes));
    // Changes per second; no rate over a span of no time.
    if (span && span->as_milliseconds() > 0)
      client.set(kUpdateRate, StatsValue::fraction(static_cast<double>(c.position_changes) * 1000.0 /
                                                   static_cast<double>(span->as_milliseconds())));
    if (c.last_change_ms) client.set(kLastChange, StatsValue::milliseconds(*c.last_change_ms));
  }
  clients_.clear();
  index_.clear();
  lines_ = 0;
}

}  // namespace qjt::canal
