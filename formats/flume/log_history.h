// LogHistory: what the records of a channel's logs say, read as written
// (every log from its start, one after the other, a V3 log on past damage
// from the next record that decodes), for a repair plan that must tell an
// event lost from one consumed (repair_recovery.h): every intact put whose
// transaction commits, with that commit; every event a committed take
// names, with that take; the puts a damaged length swallows; and the puts
// that decode with their CRC32.
//
// Memory: sorted vectors, a few words per record, never a node per event.
// RecordTally gathers the records in the order read and joins them by
// transaction at the end, so another pass over the logs (a repair plan's
// integrity walk) can feed it instead of read_history reading them again.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "flume/channel_logs.h"
#include "flume/channel_replay.h"
#include "flume/event_pointer.h"
#include "flume/log_record.h"

namespace qjt::flume {

// The commit record of a put's transaction.
struct Commit {
  std::int32_t file_id = 0;
  std::uint64_t offset = 0;
  std::int64_t write_order_id = 0;
};

// An event a committed take removes: the take record's place and transaction.
struct Consumption {
  EventPointer event;
  EventPointer take;
  std::int64_t transaction_id = 0;
};

struct LogHistory {
  // By pointer; only with RecordTally::Puts::kCommitted (else empty and
  // committed_puts_known false).
  std::vector<std::pair<EventPointer, Commit>> committed_puts;
  bool committed_puts_known = true;
  std::vector<Consumption> taken;    // by event
  std::vector<EventPointer> hidden;  // ascending: puts inside another record, whose damaged length swallows them
  IntactPuts intact;                 // every put that decodes with its CRC, hidden ones too

  const Commit* commit_of(EventPointer p) const;
  bool is_hidden(EventPointer p) const;
};

// The Consumption of `event` in `taken` (sorted by event), or nullptr.
const Consumption* take_of(const std::vector<Consumption>& taken, EventPointer event);

// The records a history reads, in the order read, joined by transaction in
// history(): a commit applies to its transaction's records wherever they
// are (the last put commit of a transaction id counts; a put committed by
// two transactions takes the higher id's commit; an event taken by two,
// the lower id's take).
class RecordTally {
 public:
  // Whether to gather committed_puts, the one part as long as the logs'
  // puts: a repair plan consults it only where a replay stopped at damage.
  enum class Puts { kCommitted, kUnknown };
  explicit RecordTally(Puts puts = Puts::kCommitted) : puts_wanted_(puts == Puts::kCommitted) {}

  // A record of `log`; `hidden`: one a damaged length swallows.
  void add(const ChannelLog& log, const LogRecord& r, bool hidden);
  // The history; the tally is spent.
  LogHistory history();

 private:
  std::vector<std::pair<EventPointer, Commit>> committed_puts();
  std::vector<Consumption> taken();

  bool puts_wanted_;
  std::vector<std::pair<std::int64_t, EventPointer>> puts_;  // (txid, put)
  std::vector<Consumption> takes_;
  std::vector<std::pair<std::int64_t, Commit>> put_commits_;  // (txid, commit)
  std::vector<std::int64_t> take_commits_;
  std::vector<EventPointer> hidden_;
  IntactPuts intact_;
};

// Every readable log of `logs` read into a history.
LogHistory read_history(const ChannelLogs& logs);

}  // namespace qjt::flume
