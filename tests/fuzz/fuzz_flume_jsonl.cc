// flume_jsonl: JSON Lines back to a Flume log (`qjt convert --to
// flume-log`). Parses each line and assembles them; the log it builds must
// read back with LogReader to its end without a BROKEN record, unless a
// line gave its record's raw bytes (those are written as they are).
#include "flume/log_json.h"
#include "flume/log_reader.h"
#include "fuzz_support.h"

using namespace qjt;
using namespace qjt::flume;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view rest = fuzz::text(data, size);
  LogJsonAssembler assembler(nullptr);
  bool raw = false;
  while (!rest.empty()) {
    const std::size_t nl = rest.find('\n');
    const std::string_view text = rest.substr(0, nl);
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
    LogJsonLine line;
    std::string error;
    if (!parse_log_json_line(text, &line, &error)) continue;
    raw |= line.raw.has_value();
    if (!assembler.add(line, &error)) return 0;
  }
  (void)assembler.meta_bytes();
  const std::string& log = assembler.records();
  LogReader reader(ByteSpan(log), 3, 0);
  LogRecord record;
  while (reader.next(&record)) FUZZ_CHECK(raw || record.type != LogRecordType::kBroken);
  return 0;
}
