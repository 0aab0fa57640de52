#include "compaction.h"

#include "journal_writer.h"

namespace qjt::kestrel {

JournalSize compacted_size(const ReplayState& state) {
  return JournalSize{2 * state.open_transactions().size() + state.queue().size(),
                     state.live_bytes()};
}

bool write_compacted(const ReplayState& state, const std::vector<std::int64_t>& legacy_add_time_ms,
                     const CopiedUpTo& copied, FileWriter* out, std::string* error) {
  std::string bytes;
  auto write_item = [&](const QueuedItem& item) {
    const JournalRecord record = state.item_record(item);
    const std::int64_t add_time =
        record.has_add_time ? record.add_time_ms : legacy_add_time_ms[item.file_index];
    bytes.clear();
    append_record(&bytes, addx_record(record.payload, add_time, record.expiry_ms));
    return out->append(ByteSpan(bytes), error);
  };
  const auto& open = state.open_transactions();
  for (auto it = open.rbegin(); it != open.rend(); ++it) {
    if (!write_item(it->second)) return false;
    bytes.clear();
    append_record(&bytes, xid_record(RecordType::kRemoveTentativeXid, it->first));
    if (!out->append(ByteSpan(bytes), error)) return false;
  }
  constexpr std::uint64_t kTellEvery = 4 << 20;
  std::uint64_t since_told = 0;
  for (const QueuedItem& item : state.queue()) {
    if (!write_item(item)) return false;
    since_told += item.payload_size;
    if (since_told >= kTellEvery) {
      copied(item.file_index, item.record_offset);
      since_told = 0;
    }
  }
  return out->sync(error);
}

}  // namespace qjt::kestrel
