// flume_log_meta: a log-N.meta (a protobuf LogFileMetaData message). A valid
// decode must encode to a message that decodes to the same values.
#include "flume/log_metadata.h"
#include "flume_fuzz.h"

using namespace qjt;
using namespace qjt::flume;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const ByteSpan file = fuzz::bytes(data, size);
  fuzz::RenderingReporter reporter;
  (void)fuzz::flume_dump("log-1.meta", file, FileKind::kLogMeta, &reporter);
  const LogMetadataDecode decoded = decode_log_metadata(file, "log-1.meta", &reporter);
  if (!decoded.valid) return 0;
  const std::string encoded = encode_log_metadata(decoded.metadata);
  const LogMetadataDecode again = decode_log_metadata(ByteSpan(encoded), "again", &reporter);
  FUZZ_CHECK(again.valid);
  FUZZ_CHECK(again.metadata == decoded.metadata);
  return 0;
}
