// QueueReplay: what libkestrel's startup makes of one queue's segments and
// bookmarks (spec §5.4, §5.6): the items on disk, each reader's head and
// done set as it clamps them on load, and so the items each reader still
// has to read. Problems go to a Reporter as findings:
//
//   errors    broken_record (a segment is cut there by libkestrel; a broken
//             bookmark is skipped, so its reader is lost), id_not_increasing,
//             segment_out_of_order, duplicate_done_id
//   warnings  unknown_command, data_after_end, misplaced_record, id_gap,
//             empty_segment, head_beyond_tail (normal after libkestrel cut a
//             damaged segment), head_before_journal, done_outside_journal,
//             default_reader_dropped
//
// The replay keeps views into the files: the caller keeps them mapped.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "finding.h"
#include "libkestrel/libkestrel_record.h"

namespace qjt::libkestrel {

struct ItemRef {              // one per item on disk: keep it small
  std::uint32_t segment = 0;  // index in add_segment order
  std::uint32_t size = 0;     // of its data (at most 16 MiB: the reader's limit)
  std::uint64_t offset = 0;   // of its PUT record
  std::int64_t id = 0;
};

struct SegmentSummary {
  std::string path;
  std::optional<std::int64_t> first_id, last_id;  // none without items
  std::uint64_t items = 0;
  std::uint64_t bytes = 0;  // the file's size
};

struct ReaderState {
  std::string name;                // empty: the default reader
  std::string path;                // its bookmark; empty when libkestrel would create it
  std::int64_t head = 0;           // as clamped on load
  std::vector<std::int64_t> done;  // ascending, inside (head, tail]
};

class QueueReplay {
 public:
  explicit QueueReplay(Reporter* reporter) : reporter_(reporter) {}

  // The segments in libkestrel's order (ascending number), then every
  // bookmark, then finish(). `on_put`, when given, sees each PUT record
  // as it is read: what stats tallies of the items, in replay's pass.
  void add_segment(const std::string& path, ByteSpan bytes, const std::function<void(const Record&)>& on_put = {});
  void add_bookmark(const std::string& path, const std::string& reader, ByteSpan bytes);
  void finish();

  const std::vector<SegmentSummary>& segments() const { return segments_; }
  const std::vector<ReaderState>& readers() const { return readers_; }
  const std::vector<ItemRef>& items() const { return items_; }
  std::int64_t tail_id() const { return items_.empty() ? 0 : items_.back().id; }
  bool saw_broken_record() const { return broken_; }
  // Records decoded in every file, terminal records left out.
  std::uint64_t records() const { return records_; }

  // The items `reader` has still to read, in journal order: ids above its
  // head and not in its done set.
  void for_each_pending(const ReaderState& reader, const std::function<void(const ItemRef&)>& visit) const;
  // The PUT record of `item`, decoded again from its segment.
  Record item_record(const ItemRef& item) const;

 private:
  struct Bookmark {
    std::string name, path;
    std::int64_t head = 0;
    std::vector<std::int64_t> done;
    std::uint64_t done_offset = 0;
  };
  void check_id(const std::string& path, const Record& put, bool first_in_segment);
  void report(Severity severity, const char* code, const std::string& path, std::optional<std::uint64_t> offset,
              std::string message);
  void report_record(const std::string& path, const Record& record, bool segment);
  void check_end(const std::string& path, ByteSpan bytes, const Record& end, std::optional<std::uint64_t> garbage);
  ReaderState load(const Bookmark& bookmark);
  std::vector<std::int64_t> clamp_done(const Bookmark& bookmark, std::int64_t head);

  Reporter* reporter_;
  std::vector<ByteSpan> segment_bytes_;
  std::vector<SegmentSummary> segments_;
  std::vector<ItemRef> items_;
  std::vector<Bookmark> bookmarks_;
  std::vector<ReaderState> readers_;
  bool broken_ = false;
  std::uint64_t records_ = 0;
};

}  // namespace qjt::libkestrel
