// kestrel_jsonl: JSON Lines back to a Kestrel journal (`qjt convert --to
// kestrel`, parse_record_json). Every line that parses is encoded; the
// bytes must decode with JournalReader to one record of the same type and
// length, which renders and parses back to the same bytes (BROKEN records
// are raw bytes and END_OF_FILE writes nothing: only encoded).
#include <string>

#include "fuzz_support.h"
#include "kestrel/journal_json.h"
#include "kestrel/journal_json_parse.h"
#include "kestrel/journal_reader.h"
#include "kestrel/journal_writer.h"

using namespace qjt;
using namespace qjt::kestrel;

namespace {

std::string encode_line(std::string_view line, RecordType* type) {
  JournalRecord record;
  std::string payload, error, out;
  if (!parse_record_json(line, &record, &payload, &error)) {
    FUZZ_CHECK(!error.empty());
    return out;
  }
  *type = record.type;
  append_record(&out, record);
  return out;
}

void check_line(std::string_view line) {
  RecordType type = RecordType::kEndOfFile;
  const std::string encoded = encode_line(line, &type);
  if (encoded.empty() || type == RecordType::kBroken) return;
  JournalReader reader{ByteSpan(encoded)};
  JournalRecord decoded;
  FUZZ_CHECK(reader.next(&decoded));
  FUZZ_CHECK(decoded.type == type && decoded.length == encoded.size());
  std::string json;
  append_record_json(&json, "fuzz", decoded, DataMode::kHex);
  FUZZ_CHECK(encode_line(json, &type) == encoded);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view rest = fuzz::text(data, size);
  while (!rest.empty()) {
    const std::size_t nl = rest.find('\n');
    check_line(rest.substr(0, nl));
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
  }
  return 0;
}
