#include "kestrel/compaction.h"

#include "kestrel/journal_reader.h"
#include "kestrel/journal_writer.h"

namespace qjt::kestrel {

JournalSize compacted_size(const ReplayState& state) {
  return JournalSize{2 * state.open_transactions().size() + state.queue().size(), state.live_bytes()};
}

bool write_compacted(const ReplayState& state, const std::vector<const InputFile*>& files,
                     const std::vector<std::int64_t>& legacy_add_time_ms, FileWriter* out, std::string* error) {
  std::vector<JournalReader> readers;
  readers.reserve(files.size());
  for (const InputFile* file : files) readers.emplace_back(*file);
  JournalRecord record;
  std::string header;
  const auto write_piece = [&](ByteSpan piece) { return out->append(piece, error); };
  // Copied through each file's window, piece by piece: a large item's pages
  // never become resident, so memory stays with the number of items.
  auto write_item = [&](const QueuedItem& item) {
    JournalReader& reader = readers[item.file_index];
    reader.seek(item.record_offset);
    reader.next(&record);
    if (record.type == RecordType::kAddX) return reader.for_each_encoded_piece(record, write_piece);
    if (!record.has_add_time) record.add_time_ms = legacy_add_time_ms[item.file_index];
    record.type = RecordType::kAddX;  // ADD, ADD_XID and CONTINUE items are written as ADDX
    header.clear();
    append_record_header(&header, record);
    return write_piece(ByteSpan(header)) && reader.for_each_payload_piece(record, write_piece);
  };
  const auto& open = state.open_transactions();
  for (auto it = open.rbegin(); it != open.rend(); ++it) {
    if (!write_item(it->second)) return false;
    header.clear();
    append_record(&header, xid_record(RecordType::kRemoveTentativeXid, it->first));
    if (!out->append(ByteSpan(header), error)) return false;
  }
  for (const QueuedItem& item : state.queue())
    if (!write_item(item)) return false;
  return out->sync(error);
}

}  // namespace qjt::kestrel
