// canal_gzip: the inflation of Canal's rolled meta-*.log.gz files, split
// into lines as the commands read them. The text passed on never exceeds
// the limit, no line passed on is longer than its bound, and a failure must
// say why.
#include "canal/gzip_text.h"
#include "canal/line_splitter.h"
#include "fuzz_support.h"

using namespace qjt;
using namespace qjt::canal;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const ByteSpan input = fuzz::bytes(data, size);
  (void)is_gzip(input);
  constexpr std::uint64_t kLimit = 1 << 20;  // the real limit, 256 MiB, would make each run slow
  constexpr std::size_t kLine = 64;
  std::uint64_t inflated = 0;
  LineSplitter lines(
      [](const TextLine& line) {
        FUZZ_CHECK(line.text.size() <= kLine &&
                   (line.too_long() ? line.text.empty() : line.text.size() == line.length));
        return true;
      },
      kLine);
  std::string error;
  const bool ok = inflate_gzip(
      input,
      [&](std::string_view piece) {
        inflated += piece.size();
        return lines.feed(piece);
      },
      &error, kLimit);
  FUZZ_CHECK(inflated <= kLimit);
  FUZZ_CHECK(ok || !error.empty());
  lines.finish();
  return 0;
}
