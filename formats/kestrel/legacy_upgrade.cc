#include "kestrel/legacy_upgrade.h"

#include "kestrel/journal_writer.h"

namespace qjt::kestrel {

LegacyUpgrade::LegacyUpgrade(std::int64_t legacy_add_time_ms)
    : legacy_add_time_ms_(legacy_add_time_ms), state_(ReplayOptions{true}, &silent_) {
  state_.begin_file(0, "", ByteSpan(), true);  // items are never read back
}

LegacyUpgrade::~LegacyUpgrade() = default;

void LegacyUpgrade::convert(const JournalRecord& record, std::string* out) {
  switch (record.type) {
    case RecordType::kEndOfFile:
      return;
    case RecordType::kBroken:
      // Nothing after it is decoded; the replay state is not told, so the
      // reporter stays silent about it (the caller reports it).
      counts_.broken_bytes += record.payload.size();
      append_record(out, record);
      return;
    case RecordType::kAdd:
      ++counts_.legacy_adds;
      append_record(out, addx_record(record.payload, legacy_add_time_ms_, record.expiry_ms));
      break;
    case RecordType::kAddXid:
      ++counts_.add_xids;
      append_record(out, addx_record(record.payload, record.add_time_ms, record.expiry_ms));
      break;
    case RecordType::kSaveXid:
      ++counts_.save_xids;
      break;
    case RecordType::kRemoveTentative:
      break;  // written below, once its xid is known
    default:
      ++counts_.copied;
      append_record(out, record);
      break;
  }
  state_.apply(record);
  if (record.type == RecordType::kRemoveTentative) {
    // With legacy xids, the tentative remove sets the counter to the xid it
    // assigned, whether or not the queue had an item to take.
    ++counts_.legacy_removes;
    append_record(out, xid_record(RecordType::kRemoveTentativeXid, state_.xid_counter()));
  }
}

}  // namespace qjt::kestrel
