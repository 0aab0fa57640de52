// How libkestrel records are rendered by `qjt dump` (JSON Lines and text)
// and how `qjt replay --json` renders a reader's pending items: the same
// PUT object (documented in man/qjt-dump.1 and man/qjt-replay.1).
#pragma once

#include <string>
#include <string_view>

#include "json_writer.h"
#include "libkestrel/libkestrel_record.h"
#include "payload.h"

namespace qjt::libkestrel {

// {"type":"record","format":"libkestrel","file":..,"offset":..,"op":..} then, by op: PUT
// id, error_count, time_ms (the add time), expiry_ms (null when none), size, payload;
// READ_HEAD id; READ_DONE ids; UNKNOWN command, size; BROKEN error. Ends the
// line.
void append_record_json(std::string* out, std::string_view file, const Record& record, DataMode mode);
// The same object without the envelope ("type" and "format": it is no record stream's
// line) and without the line end, to nest in a larger document.
void write_record_object(JsonWriter* out, std::string_view file, const Record& record, DataMode mode);

// "%10d  OP ..." as qdump and QueueDumper print it, but with the offset in
// decimal and times as format_time shows them (one base and one time form
// in all of qjt's text), then the payload line (classic Kestrel's
// convention) unless `mode` is none.
void append_record_text(std::string* out, const Record& record, DataMode mode);

}  // namespace qjt::libkestrel
