// ReplayState: the queue Kestrel 2.x rebuilds at startup from a journal
// (spec 2.2 to 2.4), fed one record at a time, across files.
//
// It keeps positions, not payloads: a QueuedItem is where the record that
// added the item lies, and its opcode (16 bytes), and item_record() decodes
// that record again from the file when its payload or times are wanted, so
// replay itself never reads back: a stream can be replayed without keeping
// what it has passed. Memory grows with the number of live items, never
// with journal bytes. What Kestrel silently accepts but an
// operator must know (removes on an empty queue, unknown or reused xids,
// legacy tentative removes filed under xid 0, truncation of a broken file)
// is told to the Reporter as a warning; broken records as errors.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "chunked_deque.h"
#include "finding.h"
#include "input_file.h"
#include "kestrel/journal_record.h"

namespace qjt::kestrel {

struct QueuedItem {                   // replay holds one per live item: keep it small
  std::uint64_t record_offset = 0;    // of the record that added the item
  std::uint32_t file_index : 28 = 0;  // into the files given to begin_file
  std::uint32_t adder : 4 = 0;        // the RecordType that added it
  std::uint32_t payload_size = 0;
};
inline constexpr std::uint32_t kMaxReplayFiles = 1u << 28;
static_assert(sizeof(QueuedItem) == 16);

// What stats wants of a live item beyond its place: read off the record
// that adds it as replay passes it, so that no record is read twice.
struct ItemFigures {
  std::int64_t add_time_ms = 0;  // when has_add_time (the legacy ADD stores none)
  std::int64_t expiry_ms = 0;    // 0: never
  std::uint32_t record_length = 0;
  bool has_add_time = false;
};

struct ReplayOptions {
  // Kestrel 1.x rules: each legacy REMOVE_TENTATIVE gets the next xid
  // instead of 2.x's xid 0.
  bool legacy_xids = false;
  // Keep an ItemFigures per live item (24 more bytes each), for stats.
  bool keep_item_figures = false;
};

class ReplayState {
 public:
  ReplayState(ReplayOptions options, Reporter* reporter) : options_(options), reporter_(reporter) {}

  // Starts the next file of the stream (file_index < kMaxReplayFiles);
  // `live` says whether Kestrel appends to it (and so whether a broken
  // record truncates this very file). The records applied next must lie in
  // `bytes`, which must outlive the state; or in `input`, whose bytes()
  // item_record() asks for only when called.
  void begin_file(std::uint32_t file_index, std::string file_name, ByteSpan bytes, bool live);
  void begin_file(std::uint32_t file_index, std::string file_name, const InputFile& input, bool live);
  void apply(const JournalRecord& record);

  const ChunkedDeque<QueuedItem>& queue() const { return queue_; }
  // Open transactions by xid: the item each one holds.
  const std::map<std::int32_t, QueuedItem>& open_transactions() const { return open_; }
  // With ReplayOptions::keep_item_figures, the figures of queue()'s items,
  // in its order, and of open_transactions()' items by xid; else empty.
  const ChunkedDeque<ItemFigures>& queue_figures() const { return queue_figures_; }
  const std::map<std::int32_t, ItemFigures>& open_figures() const { return open_figures_; }
  std::int32_t xid_counter() const { return xid_counter_; }
  bool saw_broken_record() const { return broken_records_ > 0; }
  std::uint64_t record_count(RecordType type) const;
  std::uint64_t total_records() const;

  // The record that added `item` (ADD, ADDX, ADD_XID or CONTINUE), decoded
  // again: its payload view points into the file's bytes (a stream's, read
  // whole: so only after replay, over a stream whose window kept them).
  JournalRecord item_record(const QueuedItem& item) const;

  // The queue after a restart: open transactions rolled back onto the head
  // in ascending xid order, ahead of the queued items (spec 2.3).
  std::vector<QueuedItem> after_restart() const;
  // Bytes of the minimal equivalent journal: ADDX + REMOVE_TENTATIVE_XID
  // per open transaction, ADDX per queued item (spec 3.2).
  std::uint64_t live_bytes() const;

 private:
  void add(const JournalRecord& record);
  void remove(const JournalRecord& record);
  void remove_tentative(const JournalRecord& record, std::int32_t xid);
  void close_transaction(const JournalRecord& record, bool push_back);
  void broken(const JournalRecord& record);
  std::int32_t next_legacy_xid();
  std::string describe(const QueuedItem& item) const;
  void warn(const JournalRecord& record, std::string code, std::string message);

  ReplayOptions options_;
  Reporter* reporter_;
  std::vector<std::string> file_names_;
  // Where each file's bytes are: a span, or an input asked when needed.
  struct FileBytes {
    ByteSpan bytes;
    const InputFile* input = nullptr;
  };
  ByteSpan bytes_of(std::uint32_t file_index) const;

  std::vector<FileBytes> file_bytes_;
  std::uint32_t file_index_ = 0;
  bool file_is_live_ = false;

  ChunkedDeque<QueuedItem> queue_;
  std::map<std::int32_t, QueuedItem> open_;
  std::map<std::int32_t, QueuedItem>::node_type spare_;  // a closed transaction's node, for reuse
  ChunkedDeque<ItemFigures> queue_figures_;
  std::map<std::int32_t, ItemFigures> open_figures_;
  std::map<std::int32_t, ItemFigures>::node_type figures_spare_;
  std::int32_t xid_counter_ = 0;
  std::array<std::uint64_t, 10> counts_{};
  std::uint64_t broken_records_ = 0;
};

}  // namespace qjt::kestrel
