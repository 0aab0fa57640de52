#include "flume/log_history.h"

#include <algorithm>
#include <optional>
#include <tuple>

#include "flume/log_reader.h"
#include "int64_hash_map.h"

namespace qjt::flume {
namespace {

// Where reading `log` can go on after its terminal record `r`, if anywhere.
std::optional<std::size_t> resume_after(const ChannelLog& log, const LogReader& reader, const LogRecord& r) {
  if (log.version() != 3) return std::nullopt;
  if (r.type == LogRecordType::kBroken)
    return find_decodable_record(log.bytes(), static_cast<std::size_t>(r.offset) + 1, log.cipher());
  if (const auto data = reader.data_after_end_fill())
    return find_decodable_record(log.bytes(), static_cast<std::size_t>(*data), log.cipher());
  return std::nullopt;
}

// The records that decode inside the bytes `r`'s damaged length takes in
// after its footer (trailing_bytes): those it swallowed, which Flume's
// replay never reads.
void add_swallowed(const ChannelLog& log, const LogRecord& r, RecordTally* tally) {
  const std::uint64_t end = r.offset + r.size;
  LogReader reader = log.reader(r.trailing_offset());
  LogRecord inner;
  while (reader.next(&inner) && inner.offset + inner.size <= end && inner.type != LogRecordType::kBroken &&
         inner.type != LogRecordType::kEndOfData)
    tally->add(log, inner, true);
}

}  // namespace

const Commit* LogHistory::commit_of(EventPointer p) const {
  const auto it = std::lower_bound(committed_puts.begin(), committed_puts.end(), p,
                                   [](const auto& entry, EventPointer key) { return entry.first < key; });
  return it != committed_puts.end() && it->first == p ? &it->second : nullptr;
}

bool LogHistory::is_hidden(EventPointer p) const { return std::binary_search(hidden.begin(), hidden.end(), p); }

const Consumption* take_of(const std::vector<Consumption>& taken, EventPointer event) {
  const auto it = std::lower_bound(taken.begin(), taken.end(), event,
                                   [](const Consumption& c, EventPointer key) { return c.event < key; });
  return it != taken.end() && it->event == event ? &*it : nullptr;
}

void RecordTally::add(const ChannelLog& log, const LogRecord& r, bool hidden) {
  intact_.add(log.file_id(), r);
  const EventPointer at{log.file_id(), static_cast<std::int32_t>(r.offset)};
  if (r.type == LogRecordType::kPut && r.crc_ok) {
    if (puts_wanted_) puts_.emplace_back(r.transaction_id, at);
    if (hidden) hidden_.push_back(at);
  }
  if (r.type == LogRecordType::kTake) takes_.push_back(Consumption{r.taken, at, r.transaction_id});
  if (r.type == LogRecordType::kCommit && r.commit_type == 1 && puts_wanted_)
    put_commits_.emplace_back(r.transaction_id, Commit{log.file_id(), r.offset, r.write_order_id});
  if (r.type == LogRecordType::kCommit && r.commit_type == 2) take_commits_.push_back(r.transaction_id);
}

LogHistory RecordTally::history() {
  LogHistory history;
  history.committed_puts = committed_puts();
  history.committed_puts_known = puts_wanted_;
  history.taken = taken();
  std::sort(hidden_.begin(), hidden_.end());
  hidden_.erase(std::unique(hidden_.begin(), hidden_.end()), hidden_.end());
  history.hidden = std::move(hidden_);
  intact_.seal();
  history.intact = std::move(intact_);
  return history;
}

std::vector<std::pair<EventPointer, Commit>> RecordTally::committed_puts() {
  Int64HashMap<std::size_t> last_commit;  // txid -> its last put commit, in put_commits_
  for (std::size_t i = 0; i < put_commits_.size(); ++i) last_commit.insert(put_commits_[i].first) = i;
  // The committed puts, kept in place: no copy of a vector as long as the log.
  puts_.erase(
      std::remove_if(puts_.begin(), puts_.end(), [&](const auto& put) { return !last_commit.contains(put.first); }),
      puts_.end());
  // Read log by log, each forward, the puts are in pointer order already
  // unless a pointer repeats; then the highest transaction id's commit.
  if (std::adjacent_find(puts_.begin(), puts_.end(),
                         [](const auto& a, const auto& b) { return !(a.second < b.second); }) != puts_.end()) {
    std::stable_sort(puts_.begin(), puts_.end(), [](const auto& a, const auto& b) {
      return std::tie(a.second, a.first) < std::tie(b.second, b.first);
    });
  }
  std::vector<std::pair<EventPointer, Commit>> out;
  out.reserve(puts_.size());
  for (std::size_t i = 0; i < puts_.size(); ++i)
    if (i + 1 == puts_.size() || puts_[i + 1].second != puts_[i].second)
      out.emplace_back(puts_[i].second, put_commits_[*last_commit.find(puts_[i].first)].second);
  puts_ = {};
  put_commits_ = {};
  return out;
}

std::vector<Consumption> RecordTally::taken() {
  Int64HashMap<char> committed;  // transactions whose takes commit
  for (const std::int64_t txid : take_commits_) committed.insert(txid);
  std::vector<Consumption> out;
  for (const Consumption& c : takes_)
    if (committed.contains(c.transaction_id)) out.push_back(c);
  // An event taken twice keeps the take of the lowest transaction id, then
  // the first read; takes follow the queue, so mostly in event order already.
  const auto before = [](const Consumption& a, const Consumption& b) { return a.event < b.event; };
  if (std::adjacent_find(out.begin(), out.end(), [&](const auto& a, const auto& b) { return !before(a, b); }) !=
      out.end()) {
    std::stable_sort(out.begin(), out.end(),
                     [](const Consumption& a, const Consumption& b) { return a.transaction_id < b.transaction_id; });
    std::stable_sort(out.begin(), out.end(), before);
    out.erase(std::unique(out.begin(), out.end(),
                          [](const Consumption& a, const Consumption& b) { return a.event == b.event; }),
              out.end());
  }
  return out;
}

LogHistory read_history(const ChannelLogs& logs) {
  RecordTally tally;
  LogRecord r;
  for (const ChannelLog& log : logs.logs()) {
    if (!log.readable()) continue;
    // (A plain offset and a flag, not an optional: GCC's fat LTO objects
    // see the optional's value as maybe uninitialized.)
    std::uint64_t start = log.data_start();
    for (bool more = true; more;) {
      LogReader reader = log.reader(start);
      more = false;
      while (reader.next(&r)) {
        tally.add(log, r, false);
        if (r.trailing_bytes > 0) add_swallowed(log, r, &tally);
        if (r.type == LogRecordType::kBroken || r.type == LogRecordType::kEndOfData) {
          const std::optional<std::size_t> resume = resume_after(log, reader, r);
          more = resume.has_value();
          if (resume) start = *resume;
        }
      }
    }
  }
  return tally.history();
}

}  // namespace qjt::flume
