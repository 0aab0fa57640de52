// How Kestrel records and queued items are rendered: the JSON Lines schema
// of `qjt dump --json` and the item objects of `qjt replay --json`
// (documented in man/qjt-dump.1 and man/qjt-replay.1), and the qdump-style
// text line.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "json_writer.h"
#include "kestrel/journal_record.h"
#include "payload.h"

namespace qjt::kestrel {

// {"type":"record","format":"kestrel","file":..,"offset":..,"op":..,[xid],[time_ms,expiry_ms,size,data],
//  [tail_bytes,data,error]}; a BROKEN record's data is its raw tail bytes.
void append_record_json(std::string* out, std::string_view file, const JournalRecord& record, DataMode mode);

// "%10d  OP [size] [xid=N] [add=TIME] [exp=TIME]" (the offset in decimal,
// as JSON has it; times by time_value.h format_time), then the payload on
// its own indented line unless `mode` is none.
void append_record_text(std::string* out, const JournalRecord& record, DataMode mode);

// {"file":..,"offset":..,"time_ms":..,"expiry_ms":..,"size":..,data},
// with "xid" first when the item is held by an open transaction. `added_by`
// is the record that added the item (ReplayState::item_record); `file`
// names the file holding it.
void write_item_json(JsonWriter* out, std::string_view file, const JournalRecord& added_by, DataMode mode,
                     std::optional<std::int32_t> xid = std::nullopt);

}  // namespace qjt::kestrel
