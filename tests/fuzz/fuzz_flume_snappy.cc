// flume_snappy: a snappy-java framed stream (checkpoint.snappy in a Flume
// backup). Decompresses it with a 1 MiB cap; a complete stream's data must
// compress and decompress back to itself.
#include "flume/snappy_stream.h"
#include "fuzz_support.h"

using namespace qjt;
using namespace qjt::flume;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::RenderingReporter reporter;
  constexpr std::size_t kCap = std::size_t{1} << 20;
  const SnappyStreamDecode decoded =
      decompress_snappy_stream(fuzz::bytes(data, size), kCap, "checkpoint.snappy", &reporter);
  FUZZ_CHECK(decoded.data.size() <= kCap);
  if (!decoded.complete) return 0;
  const std::string compressed = compress_snappy_stream(ByteSpan(decoded.data), 4096);
  const SnappyStreamDecode again = decompress_snappy_stream(ByteSpan(compressed), kCap, "again", &reporter);
  FUZZ_CHECK(again.complete && again.data == decoded.data);
  return 0;
}
