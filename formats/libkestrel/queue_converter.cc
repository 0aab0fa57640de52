#include "libkestrel/queue_converter.h"

#include <fmt/format.h>

#include "kestrel/journal_writer.h"
#include "libkestrel/libkestrel_writer.h"

namespace qjt::libkestrel {

bool write_segment(const kestrel::ReplayState& state, std::int64_t legacy_add_time_ms, FileWriter* out,
                   std::string* error) {
  std::string buffer;
  append_magic(&buffer, FileKind::kSegment);
  std::int64_t id = 0;
  for (const kestrel::QueuedItem& item : state.after_restart()) {
    const kestrel::JournalRecord r = state.item_record(item);
    if (r.payload.size() > static_cast<std::size_t>(kLargestData)) {
      *error = fmt::format("item {} has {} bytes, over libkestrel's limit of {}: libkestrel refuses it", id + 1,
                           r.payload.size(), kLargestData);
      return false;
    }
    PutFields put{++id, 0, r.has_add_time ? r.add_time_ms : legacy_add_time_ms, std::nullopt};
    if (r.expiry_ms != 0) put.expiry_ms = r.expiry_ms;
    append_put(&buffer, put, r.payload);
    if (!out->append(ByteSpan(buffer), error)) return false;
    buffer.clear();
  }
  return out->append(ByteSpan(buffer), error);
}

std::string head_bookmark() { return bookmark_bytes(0, {}); }

bool write_classic(const QueueReplay& replay, const ReaderState& reader, FileWriter* out, std::string* error) {
  bool ok = true;
  std::string buffer;
  replay.for_each_pending(reader, [&](const ItemRef& item) {
    if (!ok) return;
    const Record put = replay.item_record(item);
    kestrel::append_record(&buffer, kestrel::addx_record(put.data, put.add_time_ms, put.expiry_ms.value_or(0)));
    ok = out->append(ByteSpan(buffer), error);
    buffer.clear();
  });
  return ok;
}

}  // namespace qjt::libkestrel
