// JsonLine: one JSON object written as one line, field by field, in the
// order the fields are added: a JsonWriter (json_writer.h) that opens the
// object itself. Nested members go through the writer's begin_/end_ calls;
// finish() closes the object and ends the line, end_object() closes it
// without a newline (for objects nested in a larger document).
#pragma once

#include <string>
#include <string_view>

#include "json_writer.h"

namespace qjt {

class JsonLine : public JsonWriter {
 public:
  // Starts an object at the end of *out, with "type" (json_writer.h) as its
  // first member: every line qjt prints says what it is.
  JsonLine(std::string* out, JsonType type) : JsonWriter(out) { begin_object().type(type); }

  // The two fields every record of a stream (dump --json, convert --to
  // jsonl) has after "type":"record": "format", the family (record_format.h), then
  // "file", the file the record came from as it was given. Lines of
  // several files and families, once concatenated, still say where each
  // came from. Must be the first fields added after the type.
  JsonWriter& envelope(std::string_view format, std::string_view file) {
    return str("format", format).str("file", file);
  }
};

}  // namespace qjt
