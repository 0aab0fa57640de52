// libkestrel_segment: a libkestrel (Kestrel 3) journal segment. Walks its
// records, replays it as the only segment with one bookmark at head 0, and
// reads back every pending item (its id must be the one replay indexed).
#include "libkestrel/libkestrel_writer.h"
#include "libkestrel_fuzz.h"

using namespace qjt;
using namespace qjt::libkestrel;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const ByteSpan file = fuzz::bytes(data, size);
  fuzz::walk_libkestrel(file, FileKind::kSegment);
  fuzz::RenderingReporter reporter;
  QueueReplay replay(&reporter);
  replay.add_segment("q.1", file);
  const std::string bookmark = bookmark_bytes(0, {});
  replay.add_bookmark("q.read.", "", ByteSpan(bookmark));
  fuzz::read_pending(&replay);
  return 0;
}
