#include "compaction.h"

#include "journal_reader.h"
#include "journal_writer.h"

namespace qjt::kestrel {

JournalSize compacted_size(const ReplayState& state) {
  return JournalSize{2 * state.open_transactions().size() + state.queue().size(),
                     state.live_bytes()};
}

bool write_compacted(const ReplayState& state, const std::vector<const InputFile*>& files,
                     const std::vector<std::int64_t>& legacy_add_time_ms, FileWriter* out,
                     std::string* error) {
  std::vector<JournalReader> readers;
  readers.reserve(files.size());
  for (const InputFile* file : files) readers.emplace_back(*file);
  // Records gather in a batch that goes to the writer whole: a batch this
  // large is written without another copy (FileWriter::append).
  constexpr std::size_t kBatch = 1 << 20;
  std::string batch;
  batch.reserve(2 * kBatch);
  auto flush = [&] {
    const bool written = out->append(ByteSpan(batch), error);
    batch.clear();
    return written;
  };
  JournalRecord record;
  auto write_item = [&](const QueuedItem& item) {
    JournalReader& reader = readers[item.file_index];
    reader.seek(item.record_offset);
    reader.next(&record);
    if (!record.has_add_time) record.add_time_ms = legacy_add_time_ms[item.file_index];
    record.type = RecordType::kAddX;  // ADD, ADD_XID and CONTINUE items are written as ADDX
    if (record.payload.size() < kBatch) {
      append_record(&batch, record);
      return batch.size() < kBatch || flush();
    }
    append_record_header(&batch, record);
    return flush() && out->append(record.payload, error);
  };
  const auto& open = state.open_transactions();
  for (auto it = open.rbegin(); it != open.rend(); ++it) {
    if (!write_item(it->second)) return false;
    append_record(&batch, xid_record(RecordType::kRemoveTentativeXid, it->first));
  }
  for (const QueuedItem& item : state.queue())
    if (!write_item(item)) return false;
  return flush() && out->sync(error);
}

}  // namespace qjt::kestrel
