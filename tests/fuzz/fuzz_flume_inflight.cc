// flume_inflight: an inflightputs or inflighttakes file. A complete file
// with a good checksum must encode to a file that decodes to the same
// transactions.
#include "flume/inflight_file.h"
#include "flume_fuzz.h"

using namespace qjt;
using namespace qjt::flume;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const ByteSpan file = fuzz::bytes(data, size);
  fuzz::RenderingReporter reporter;
  (void)fuzz::flume_dump("inflightputs", file, FileKind::kInflight, &reporter);
  const InflightFile decoded = decode_inflight(file, "inflightputs", &reporter);
  if (!decoded.checksum_ok || !decoded.complete) return 0;
  const std::string encoded = encode_inflight(decoded.transactions);
  const InflightFile again = decode_inflight(ByteSpan(encoded), "again", &reporter);
  FUZZ_CHECK(again.checksum_ok && again.complete);
  FUZZ_CHECK(again.transactions.size() == decoded.transactions.size());
  for (std::size_t i = 0; i < again.transactions.size(); ++i) {
    FUZZ_CHECK(again.transactions[i].transaction_id == decoded.transactions[i].transaction_id);
    FUZZ_CHECK(again.transactions[i].pointers == decoded.transactions[i].pointers);
  }
  return 0;
}
