// libkestrel_bookmark: a libkestrel reader bookmark (q.read.NAME). Walks its
// records and loads it against a fixed segment of items 1..8, so that the
// head and done ids are clamped and every pending item is read back.
#include "libkestrel/libkestrel_writer.h"
#include "libkestrel_fuzz.h"

using namespace qjt;
using namespace qjt::libkestrel;

namespace {

const std::string& segment() {
  static const std::string bytes = [] {
    std::string out;
    append_magic(&out, FileKind::kSegment);
    for (std::int64_t id = 1; id <= 8; ++id)
      append_put(&out, PutFields{id, 0, 1700000000000, std::nullopt}, ByteSpan("item"));
    return out;
  }();
  return bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const ByteSpan file = fuzz::bytes(data, size);
  fuzz::walk_libkestrel(file, FileKind::kBookmark);
  fuzz::RenderingReporter reporter;
  QueueReplay replay(&reporter);
  replay.add_segment("q.1", ByteSpan(segment()));
  replay.add_bookmark("q.read.x", "x", file);
  fuzz::read_pending(&replay);
  return 0;
}
