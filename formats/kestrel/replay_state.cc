#include "kestrel/replay_state.h"

#include <fmt/format.h>

#include "kestrel/journal_reader.h"

namespace qjt::kestrel {

void ReplayState::begin_file(std::uint32_t file_index, std::string file_name, ByteSpan bytes, bool live) {
  if (file_names_.size() <= file_index) {
    file_names_.resize(file_index + 1);
    file_bytes_.resize(file_index + 1);
  }
  file_names_[file_index] = std::move(file_name);
  file_bytes_[file_index] = FileBytes{bytes, nullptr};
  file_index_ = file_index;
  file_is_live_ = live;
}

void ReplayState::begin_file(std::uint32_t file_index, std::string file_name, const InputFile& input, bool live) {
  begin_file(file_index, std::move(file_name), ByteSpan(), live);
  file_bytes_[file_index].input = &input;
}

ByteSpan ReplayState::bytes_of(std::uint32_t file_index) const {
  const FileBytes& file = file_bytes_[file_index];
  return file.input != nullptr ? file.input->bytes() : file.bytes;
}

std::uint64_t ReplayState::record_count(RecordType type) const {
  const auto op = static_cast<std::size_t>(type);
  return op < counts_.size() ? counts_[op] : 0;
}

std::uint64_t ReplayState::total_records() const {
  std::uint64_t total = 0;
  for (auto c : counts_) total += c;
  return total;
}

void ReplayState::apply(const JournalRecord& record) {
  if (record.type == RecordType::kEndOfFile) return;
  if (record.type == RecordType::kBroken) return broken(record);
  ++counts_[static_cast<std::size_t>(record.type)];
  switch (record.type) {
    case RecordType::kAdd:
    case RecordType::kAddX:
    case RecordType::kAddXid:
      return add(record);
    case RecordType::kRemove:
      return remove(record);
    case RecordType::kRemoveTentative:
      return remove_tentative(record, options_.legacy_xids ? next_legacy_xid() : 0);
    case RecordType::kRemoveTentativeXid:
      return remove_tentative(record, record.xid);
    case RecordType::kSaveXid:
      xid_counter_ = record.xid;
      return;
    case RecordType::kUnremove:
      return close_transaction(record, true);
    case RecordType::kConfirmRemove:
      return close_transaction(record, false);
    case RecordType::kContinue:
      close_transaction(record, false);
      return add(record);
    default:
      return;
  }
}

namespace {

// Files `value` under `key` in `map`, where `found` is map->find(key): in
// a spare node when there is one (a closed transaction's), so that a
// transaction costs no malloc and free. Xids mostly grow: the hint at the
// end is usually right.
template <typename Map>
void put(Map* map, typename Map::node_type* spare, typename Map::iterator found, std::int32_t key,
         const typename Map::mapped_type& value) {
  if (found != map->end()) {
    found->second = value;
  } else if (spare->empty()) {
    map->emplace_hint(map->end(), key, value);
  } else {
    spare->key() = key;
    spare->mapped() = value;
    map->insert(map->end(), std::move(*spare));
  }
}

}  // namespace

void ReplayState::add(const JournalRecord& record) {
  queue_.push_back(QueuedItem{.record_offset = record.offset,
                              .file_index = file_index_ & (kMaxReplayFiles - 1),
                              .adder = static_cast<std::uint32_t>(record.type) & 0xFu,
                              .payload_size = static_cast<std::uint32_t>(record.payload.size())});
  if (options_.keep_item_figures)
    queue_figures_.push_back(ItemFigures{.add_time_ms = record.add_time_ms,
                                         .expiry_ms = record.expiry_ms,
                                         .record_length = static_cast<std::uint32_t>(record.length),
                                         .has_add_time = record.has_add_time});
}

void ReplayState::remove(const JournalRecord& record) {
  if (queue_.empty()) {
    warn(record, "remove_on_empty_queue",
         "REMOVE with an empty queue: expected an item to remove, found none; Kestrel ignores it");
    return;
  }
  queue_.pop_front();
  if (options_.keep_item_figures) queue_figures_.pop_front();
}

void ReplayState::remove_tentative(const JournalRecord& record, std::int32_t xid) {
  if (queue_.empty()) {
    const auto name = record_type_name(record.type);
    warn(record, "remove_on_empty_queue",
         fmt::format("{} (xid {}) with an empty queue: expected an item to reserve, found none; "
                     "Kestrel ignores it but still sets the xid counter to {}",
                     name, xid, xid));
  } else {
    const QueuedItem item = queue_.front();
    queue_.pop_front();
    const auto previous = open_.find(xid);
    const bool legacy_2x = record.type == RecordType::kRemoveTentative && !options_.legacy_xids;
    if (previous != open_.end()) {
      warn(record, legacy_2x ? "legacy_xid_collision" : "xid_reopened",
           fmt::format("{} opens xid {} while it is already open: expected a free xid; Kestrel "
                       "{}replaces the open item, and {} is lost",
                       record_type_name(record.type), xid,
                       legacy_2x ? "2.x files every legacy tentative remove under 0, "
                                   "so it "
                                 : "",
                       describe(previous->second)));
    } else if (legacy_2x) {
      warn(record, "legacy_remove_tentative",
           fmt::format("legacy REMOVE_TENTATIVE (opcode 3): Kestrel 2.x files {} under xid 0, "
                       "not the xid 1.x assigned, so a later UNREMOVE or CONFIRM_REMOVE naming "
                       "that xid misses it (use --legacy-xids for 1.x rules)",
                       describe(item)));
    }
    put(&open_, &spare_, previous, xid, item);
    if (options_.keep_item_figures) {
      put(&open_figures_, &figures_spare_, open_figures_.find(xid), xid, queue_figures_.front());
      queue_figures_.pop_front();
    }
  }
  xid_counter_ = xid;
}

void ReplayState::close_transaction(const JournalRecord& record, bool push_back) {
  const auto it = open_.find(record.xid);
  if (it == open_.end()) {
    warn(record, "unknown_xid",
         fmt::format("{} of xid {}: expected an open transaction, found none; Kestrel ignores it",
                     record_type_name(record.type), record.xid));
    return;
  }
  if (push_back) queue_.push_front(it->second);
  if (options_.keep_item_figures) {
    const auto figures = open_figures_.find(record.xid);
    if (push_back) queue_figures_.push_front(figures->second);
    figures_spare_ = open_figures_.extract(figures);
  }
  spare_ = open_.extract(it);  // reused by the next tentative remove: no free and malloc per transaction
}

void ReplayState::broken(const JournalRecord& record) {
  ++broken_records_;
  const std::string& file = file_names_[file_index_];
  std::string consequence;
  if (record.kestrel_cannot_start) {
    consequence =
        "Kestrel 2.x cannot start on this journal (an uncaught "
        "NegativeArraySizeException) and truncates nothing";
  } else if (file_is_live_) {
    consequence =
        fmt::format("Kestrel stops replaying this file and truncates it to {} bytes, dropping {}", record.offset,
                    record.tail_whole ? fmt::format("{} byte(s)", record.length) : "the rest of it");
  } else {
    consequence = fmt::format(
        "Kestrel stops replaying this file and then truncates the live "
        "journal, not this file, to {} bytes (a Kestrel 2.x bug)",
        record.offset);
  }
  reporter_->report(Finding{Severity::kError, "broken_record", file, record.offset,
                            fmt::format("{}; {}", record.error, consequence)});
}

std::int32_t ReplayState::next_legacy_xid() {
  auto counter = static_cast<std::uint32_t>(xid_counter_);
  do {
    ++counter;
  } while (counter == 0 || open_.count(static_cast<std::int32_t>(counter)) != 0);
  return static_cast<std::int32_t>(counter);
}

JournalRecord ReplayState::item_record(const QueuedItem& item) const {
  JournalReader reader(bytes_of(item.file_index), item.record_offset);
  JournalRecord record;
  reader.next(&record);
  return record;
}

std::string ReplayState::describe(const QueuedItem& item) const {
  return fmt::format("the {}-byte item added by {} at {}:{}", item.payload_size,
                     record_type_name(static_cast<RecordType>(item.adder)), file_names_[item.file_index],
                     item.record_offset);
}

void ReplayState::warn(const JournalRecord& record, std::string code, std::string message) {
  reporter_->report(
      Finding{Severity::kWarning, std::move(code), file_names_[file_index_], record.offset, std::move(message)});
}

std::vector<QueuedItem> ReplayState::after_restart() const {
  std::vector<QueuedItem> items;
  items.reserve(open_.size() + queue_.size());
  for (const auto& [xid, item] : open_) items.push_back(item);
  items.insert(items.end(), queue_.begin(), queue_.end());
  return items;
}

std::uint64_t ReplayState::live_bytes() const {
  std::uint64_t total = 0;
  for (const auto& [xid, item] : open_) total += addx_record_size(item.payload_size) + kXidRecordSize;
  for (const auto& item : queue_) total += addx_record_size(item.payload_size);
  return total;
}

}  // namespace qjt::kestrel
