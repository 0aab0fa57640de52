// canal_gzip: gunzip as used for Canal's rolled meta-*.log.gz files. The
// output is capped (kMaxInflatedBytes); a failure must say why.
#include "canal/gzip_text.h"
#include "fuzz_support.h"

using namespace qjt;
using namespace qjt::canal;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const ByteSpan input = fuzz::bytes(data, size);
  (void)is_gzip(input);
  std::string out, error;
  if (gunzip(input, &out, &error)) {
    FUZZ_CHECK(out.size() <= kMaxInflatedBytes);
  } else {
    FUZZ_CHECK(!error.empty());
  }
  return 0;
}
