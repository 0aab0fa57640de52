// canal_zk_cursor: a Canal ZooKeeper cursor node, alone or in zkCli's
// output, and the same bytes as a batch node (a PositionRange). A node read
// without a finding, with "@type", must write and read back to the same
// cursor, and its written bytes must be what Canal writes for it.
#include "canal/zk_cursor.h"
#include "canal/zk_tree.h"
#include "fuzz_support.h"

using namespace qjt;
using namespace qjt::canal;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::RenderingReporter batch_reporter;
  (void)read_zk_batch(fuzz::bytes(data, size), 1, "mark/0000000001", &batch_reporter);
  (void)looks_like_zk_cursor(fuzz::bytes(data, size).as_chars());
  fuzz::RenderingReporter reporter;
  const auto node = read_zk_cursor(fuzz::bytes(data, size), "cursor", &reporter);
  if (!node || !node->cursor || reporter.count() > 0) return 0;
  const std::string written = write_zk_cursor(*node->cursor);
  fuzz::RenderingReporter again_reporter;
  const auto again = read_zk_cursor(ByteSpan(written), "cursor", &again_reporter);
  FUZZ_CHECK(again && again_reporter.count() == 0 && again->typed);
  FUZZ_CHECK(again->cursor == node->cursor);
  FUZZ_CHECK(write_zk_cursor(*again->cursor) == written);
  return 0;
}
