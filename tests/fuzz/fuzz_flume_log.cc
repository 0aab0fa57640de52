// flume_log: a Flume data log, V3 (first byte even) or V2 with its 24-byte
// header (first byte odd), the rest of the input being the file. Walks every
// record with LogReader (checksums verified), then dumps the file as JSON
// Lines and assembles them again with LogJsonAssembler: for V3 the bytes must
// come back exactly (log_json.h's identity contract), and every V3 line
// must parse (a V2 dump gives no raw bytes for BROKEN and NOOP records).
#include "flume/log_json.h"
#include "flume/log_reader.h"
#include "flume_fuzz.h"

using namespace qjt;
using namespace qjt::flume;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const int version = (data[0] & 1) != 0 ? 2 : 3;
  const ByteSpan file = fuzz::bytes(data + 1, size - 1);
  fuzz::RenderingReporter reporter;
  if (version == 2 && !read_v2_log_header(file, "log-1", std::nullopt, &reporter)) return 0;
  LogReader reader(file, version, version == 2 ? kV2LogHeaderSize : 0);
  LogRecord record;
  while (reader.next(&record)) {
    if (record.type == LogRecordType::kPut) (void)crc_mismatch_message(record);
  }
  (void)reader.data_after_end_fill();

  const auto lines = fuzz::flume_dump("log-1", file, version == 2 ? FileKind::kLogV2 : FileKind::kLogV3, &reporter);
  LogJsonAssembler assembler(nullptr);
  for (const std::string& text : lines) {
    LogJsonLine line;
    std::string error;
    if (!parse_log_json_line(text, &line, &error)) {
      FUZZ_CHECK(version == 2);  // a V2 dump has no raw bytes for BROKEN and NOOP lines
      return 0;
    }
    if (!assembler.add(line, &error)) return 0;  // e.g. an encrypted record without its key
  }
  if (version == 3 && assembler.fill() <= kMaxFill) {
    const std::string back = assembler.records() + std::string(assembler.fill(), '\x80') + assembler.after_fill();
    FUZZ_CHECK(back == file.as_chars());
  }
  return 0;
}
