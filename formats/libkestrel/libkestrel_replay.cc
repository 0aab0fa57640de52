#include "libkestrel/libkestrel_replay.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "libkestrel/libkestrel_reader.h"

namespace qjt::libkestrel {

void QueueReplay::report(Severity severity, const char* code, const std::string& path,
                         std::optional<std::uint64_t> offset, std::string message) {
  reporter_->report(Finding{severity, code, path, offset, std::move(message)});
}

// What every record kind says whatever file it is in: broken, unknown, or
// in the wrong kind of file (libkestrel reads a segment for PUTs and a
// bookmark for READ_HEAD and READ_DONE only).
void QueueReplay::report_record(const std::string& path, const Record& r, bool segment) {
  if (r.op != Op::kBroken && r.op != Op::kEndOfFile) ++records_;
  if (r.op == Op::kBroken) {
    broken_ = true;
    report(Severity::kError, "broken_record", path, r.offset,
           r.error + (segment ? "; libkestrel's startup truncates the segment here"
                              : "; libkestrel's startup skips this bookmark, so its reader is lost"));
  } else if (r.op == Op::kUnknown) {
    report(Severity::kWarning, "unknown_command", path, r.offset,
           fmt::format("unknown command {} ({} data byte(s)): libkestrel skips it by its framing", r.command,
                       r.data.size()));
  } else if ((r.op == Op::kPut) != segment && r.op != Op::kEndOfFile) {
    report(Severity::kWarning, "misplaced_record", path, r.offset,
           fmt::format("a {} record in a {}: libkestrel ignores it", op_name(r.op), segment ? "segment" : "bookmark"));
  }
}

void QueueReplay::check_end(const std::string& path, ByteSpan bytes, const Record& end,
                            std::optional<std::uint64_t> garbage) {
  if (end.op != Op::kEndOfFile || !garbage) return;
  report(Severity::kWarning, "data_after_end", path, *garbage,
         fmt::format("non-zero byte after the end of data at {} (a 0x00 command byte): a segment's padding is "
                     "all zeros; libkestrel reads nothing past the end ({} byte(s) ignored)",
                     end.offset, bytes.size() - end.offset));
}

// The ids strictly between `previous` and `id` (> previous), counted in
// unsigned arithmetic: ids are read from the file, and their difference can
// pass INT64_MAX (2 - INT64_MIN + 1).
std::uint64_t gap(std::int64_t previous, std::int64_t id) {
  return static_cast<std::uint64_t>(id) - static_cast<std::uint64_t>(previous) - 1;
}

void QueueReplay::check_id(const std::string& path, const Record& put, bool first_in_segment) {
  if (items_.empty()) return;
  const std::int64_t previous = items_.back().id;
  if (put.id <= previous) {
    report(Severity::kError, first_in_segment ? "segment_out_of_order" : "id_not_increasing", path, put.offset,
           first_in_segment
               ? fmt::format("expected the segment to start above id {}, the last of the segment before it, "
                             "found id {}: segments out of order",
                             previous, put.id)
               : fmt::format("expected an id above {}, found {}", previous, put.id));
  } else if (put.id != previous + 1) {
    report(Severity::kWarning, "id_gap", path, put.offset,
           fmt::format("expected id {} (ids are allocated one by one), found {}: {} id(s) missing", previous + 1,
                       put.id, gap(previous, put.id)));
  }
}

void QueueReplay::add_segment(const std::string& path, ByteSpan bytes,
                              const std::function<void(const Record&)>& on_put) {
  const auto index = static_cast<std::uint32_t>(segments_.size());
  segment_bytes_.push_back(bytes);
  SegmentSummary summary{path, std::nullopt, std::nullopt, 0, bytes.size()};
  Reader reader(bytes, FileKind::kSegment);
  Record r;
  while (reader.next(&r)) {
    report_record(path, r, true);
    if (r.op != Op::kPut) continue;
    check_id(path, r, summary.items == 0);
    items_.push_back(ItemRef{index, static_cast<std::uint32_t>(r.data.size()), r.offset, r.id});
    if (on_put) on_put(r);
    if (!summary.first_id) summary.first_id = r.id;
    summary.last_id = r.id;
    ++summary.items;
  }
  check_end(path, bytes, r, reader.data_after_end());
  if (summary.items == 0) {
    report(Severity::kWarning, "empty_segment", path, std::nullopt,
           "expected at least one PUT, found none: libkestrel's startup deletes a segment without items");
  }
  segments_.push_back(std::move(summary));
}

void QueueReplay::add_bookmark(const std::string& path, const std::string& reader_name, ByteSpan bytes) {
  Bookmark bookmark{reader_name, path, 0, {}, 0};
  Reader reader(bytes, FileKind::kBookmark);
  Record r;
  bool broken = false;
  while (reader.next(&r)) {
    report_record(path, r, false);
    broken = broken || r.op == Op::kBroken;
    if (r.op == Op::kReadHead) bookmark.head = r.id;
    if (r.op != Op::kReadDone) continue;
    bookmark.done_offset = r.offset;
    for (std::size_t i = 0; i < r.done_count(); ++i) bookmark.done.push_back(r.done_id(i));
  }
  check_end(path, bytes, r, reader.data_after_end());
  if (!broken) bookmarks_.push_back(std::move(bookmark));
}

std::vector<std::int64_t> QueueReplay::clamp_done(const Bookmark& b, std::int64_t head) {
  std::vector<std::int64_t> done = b.done;
  std::sort(done.begin(), done.end());
  for (auto it = std::adjacent_find(done.begin(), done.end()); it != done.end();
       it = std::adjacent_find(it + 1, done.end())) {
    report(Severity::kError, "duplicate_done_id", b.path, b.done_offset,
           fmt::format("id {} is listed more than once in READ_DONE", *it));
  }
  done.erase(std::unique(done.begin(), done.end()), done.end());
  std::vector<std::int64_t> kept;
  std::vector<std::int64_t> outside;
  for (std::int64_t id : done) (id > head && id <= tail_id() ? kept : outside).push_back(id);
  if (!outside.empty()) {
    report(Severity::kWarning, "done_outside_journal", b.path, b.done_offset,
           fmt::format("expected done ids between the head {} and the last id {}, found {} outside, e.g. {}: "
                       "libkestrel drops them on load",
                       head, tail_id(), outside.size(), outside.front()));
  }
  return kept;
}

// head = max(min(head, tail), first id on disk - 1) (spec §5.6). A first
// id of INT64_MIN (a corrupt PUT) has no id before it: no head is below it.
ReaderState QueueReplay::load(const Bookmark& b) {
  const std::int64_t tail = tail_id();
  std::int64_t before_first = tail;
  if (!items_.empty()) {
    const std::int64_t first = items_.front().id;
    before_first = first == std::numeric_limits<std::int64_t>::min() ? first : first - 1;
  }
  std::int64_t head = b.head;
  if (head > tail) {
    report(Severity::kWarning, "head_beyond_tail", b.path, std::nullopt,
           fmt::format("head {} is beyond the last id on disk {}: libkestrel takes {} (normal after it "
                       "truncated a damaged segment)",
                       head, tail, tail));
    head = tail;
  }
  if (head < before_first) {
    report(Severity::kWarning, "head_before_journal", b.path, std::nullopt,
           fmt::format("head {} is below the first id on disk {}: ids {} to {} are gone without being read; "
                       "libkestrel takes {}",
                       head, before_first + 1, head + 1, before_first, before_first));
    head = before_first;
  }
  return ReaderState{b.name, b.path, head, clamp_done(b, head)};
}

void QueueReplay::finish() {
  const bool drop_default = bookmarks_.size() > 1;
  for (const Bookmark& b : bookmarks_) {
    if (drop_default && b.name.empty()) {
      report(Severity::kWarning, "default_reader_dropped", b.path, std::nullopt,
             "the default reader's bookmark beside named readers: libkestrel's startup deletes it");
      continue;
    }
    readers_.push_back(load(b));
  }
  // With no reader on disk libkestrel creates the default one at the tail.
  if (readers_.empty()) readers_.push_back(ReaderState{"", "", tail_id(), {}});
}

void QueueReplay::for_each_pending(const ReaderState& reader, const std::function<void(const ItemRef&)>& visit) const {
  for (const ItemRef& item : items_) {
    if (item.id > reader.head && !std::binary_search(reader.done.begin(), reader.done.end(), item.id)) visit(item);
  }
}

Record QueueReplay::item_record(const ItemRef& item) const {
  Reader reader(segment_bytes_[item.segment], FileKind::kSegment, item.offset);
  Record record;
  reader.next(&record);
  return record;
}

}  // namespace qjt::libkestrel
