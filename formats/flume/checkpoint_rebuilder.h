// CheckpointRebuilder: the files Flume's standalone CheckpointRebuilder
// (`java ... org.apache.flume.channel.file.CheckpointRebuilder -c DIR -l
// DIRS -t CAPACITY`, spec §7.1) writes for a set of data logs, byte for
// byte, computed in memory: nothing is read but the logs, nothing written.
//
// What Flume does (FC/CheckpointRebuilder.java, `rebuild` and
// `writeCheckpoint`), and so what this computes:
//  1. Every log is read from its start (offset 0 for V3, 24 for V2), one
//     log after the other; checkpoint marks, inflight files and any old
//     checkpoint are ignored.
//  2. Transactions: puts and takes collect per transaction id; a Commit of
//     type 1 (put) makes each put committed unless a pending take cancels
//     it; a Commit of any other type makes each take cancel a committed put
//     or become pending; a Rollback drops the txid's puts if it has any,
//     else its takes. Work never committed is dropped.
//  3. The committed puts, sorted by their Put record's write order id, are
//     addTail'ed into a fresh V3 queue (head 0) of the given capacity.
//  4. A forced checkpoint: write order id W = WriteOrderOracle.next(), i.e.
//     1 + max(the oracle's start value, System.currentTimeMillis() when the
//     class loaded, and the highest write order id of any record read);
//     `checkpoint` (V3, marker complete), `checkpoint.meta`, empty
//     `inflightputs` and `inflighttakes`; then markCheckpoint(W) on every
//     log: the checkpoint position is kept, only the write order id
//     changes (V3: the old mark moves to the backup fields; V2: header
//     bytes 16..23 are overwritten, bytes 8..15 rewritten unchanged).
//
// Order of the logs: Flume's main lists each data dir (File.listFiles:
// directory order, unsorted) in the order the dirs are given; this function
// takes logs in ChannelLogs order (file id order). The order matters only
// when one transaction's records are split over two logs read out of
// order (a roll in the middle of a transaction): a Commit read before its
// Puts or Takes finds nothing, and those records stay uncommitted. Within
// one file id order this cannot happen, so the file id order gives the
// result Flume gets whenever its listing happens to be sorted.
//
// Equal write order ids (pre-FLUME-1432 logs use millisecond timestamps):
// Flume's TreeSet comparator never answers "equal", so ties keep the
// iteration order of the java.util.HashSet committedPuts (Java 8+ HashMap,
// FlumeEventPointer.hashCode); that order is emulated, bins, resizes and
// removals included, except for bins that become red-black trees (more
// than 8 pointers in one bin of a table of 64 or more): then the warning
// rebuild_tie_order says ties may be ordered differently.
//
// Not emulated: unknown fields in a log-N.meta, which protobuf-java would
// carry over into the new meta.
//
// When Flume's rebuild fails (returns false, or main throws) the result is
// nullopt and the findings say why:
//  - a record Flume cannot decode (broken_record) or whose CRC fails
//    (crc_mismatch): fsyncPerTransaction=true makes that an error;
//  - an encrypted log (rebuild_encrypted_log): the rebuilder opens logs
//    without a key provider and throws IllegalStateException;
//  - a log it cannot open or mark (rebuild_unreadable_log,
//    log_file_id_mismatch: its MetaDataWriter throws before the checkpoint);
//  - a capacity outside 1..2^31-1 (bad_capacity);
//  - more committed events than the capacity (queue_full): Flume ignores
//    addTail's false and silently writes the first `capacity` events; qjt
//    refuses unless options.keep_what_fits asks for Flume's exact output.
// Note that Flume's main has already created an empty checkpoint (write
// order id 0) in the checkpoint dir before a failed rebuild.
//
// Warnings: rebuild_log_cut_short (a byte that is no OP code, or a record
// running past the end of the file: Flume's reader quietly ends that log
// there), pending_takes (committed takes whose put was never seen).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "finding.h"
#include "flume/channel_logs.h"

namespace qjt::flume {

struct RebuildOptions {
  // -t. The operator's choice, not read from a file: the queue's capacity
  // slots and the checkpoint image ((capacity + 1029) * 8 bytes) are
  // allocated in full, as Flume allocates its checkpoint file.
  std::int64_t capacity = 0;
  // The checkpoint's write order id; default 1 + max(now_ms, highest
  // write order id in the logs), as WriteOrderOracle gives it.
  std::optional<std::int64_t> write_order_id;
  std::int64_t now_ms = 0;  // System.currentTimeMillis() when Flume would run
  // Produce Flume's output even when committed events do not fit: the
  // first `capacity` in write order, the rest lost (queue_full becomes a
  // warning).
  bool keep_what_fits = false;
};

struct RebuiltCheckpoint {
  std::string checkpoint;       // checkpointDir/checkpoint
  std::string checkpoint_meta;  // checkpointDir/checkpoint.meta
  std::string inflight_puts;    // checkpointDir/inflightputs (32 bytes, empty)
  std::string inflight_takes;   // checkpointDir/inflighttakes
  // For each log, in the order read: its file id (from the name, as Flume's
  // writeCheckpoint parses it) and its new log-N.meta (V3), or the new
  // first 24 bytes of log-N (V2).
  std::vector<std::pair<std::int32_t, std::string>> log_metas;
  std::int64_t write_order_id = 0;
  std::uint64_t events = 0;          // in the queue
  std::uint64_t dropped_events = 0;  // committed but past the capacity
  std::vector<EventPointer> queue;   // head to tail
};

// The rebuilder's reading of the logs, fed record by record by a pass that
// another reader drives (a repair plan's integrity walk), so that the logs
// are read once. It is the caller's to feed every log of `logs`, in order,
// from its start, and to know that each was read plainly to its end (no
// broken record, no CRC32 failure, no data after the end-of-data fill):
// only then is it what rebuild_checkpoint would read. A record the rebuild
// fails on makes it unusable, and rebuild_checkpoint reads the logs itself.
class RebuildReading {
 public:
  RebuildReading();
  ~RebuildReading();
  RebuildReading(const RebuildReading&) = delete;
  RebuildReading& operator=(const RebuildReading&) = delete;

  void add(const ChannelLog& log, const LogRecord& record);
  bool usable() const { return usable_; }

 private:
  friend std::optional<RebuiltCheckpoint> rebuild_checkpoint(const ChannelLogs&, const RebuildOptions&, Reporter*,
                                                             RebuildReading*);
  struct State;
  std::unique_ptr<State> state_;
  bool usable_ = true;
};

// `read`, when given and usable, is taken instead of reading the logs (and
// is spent).
std::optional<RebuiltCheckpoint> rebuild_checkpoint(const ChannelLogs& logs, const RebuildOptions& options,
                                                    Reporter* reporter, RebuildReading* read = nullptr);

// The iteration order of a java.util.HashMap<Integer, ?> into which `keys`
// were put in this order and none removed (java_hash_set.h). Flume writes
// checkpoint.meta's activeLogs in this order.
std::vector<std::int32_t> java_hash_map_order(const std::vector<std::int32_t>& keys);

}  // namespace qjt::flume
