// canal_meta_dat: a Canal meta.dat (FileMixedMetaManager's JSON). A file
// read without a finding must write and read back to the same clients and
// cursors.
#include "canal/meta_dat.h"
#include "fuzz_support.h"

using namespace qjt;
using namespace qjt::canal;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const MetaDatSource source{"conf/example/meta.dat", "example"};
  fuzz::RenderingReporter reporter;
  const auto meta = read_meta_dat(fuzz::bytes(data, size), source, &reporter);
  if (!meta) return 0;
  for (const ClientData& client : meta->clients) (void)kept_on_load(client, source);
  if (reporter.count() > 0) return 0;
  const std::string written = write_meta_dat(*meta);
  fuzz::RenderingReporter again_reporter;
  const auto again = read_meta_dat(ByteSpan(written), source, &again_reporter);
  FUZZ_CHECK(again && again_reporter.count() == 0);
  FUZZ_CHECK(again->destination == meta->destination && again->clients.size() == meta->clients.size());
  for (std::size_t i = 0; i < meta->clients.size(); ++i) {
    FUZZ_CHECK(again->clients[i].client_id == meta->clients[i].client_id);
    FUZZ_CHECK(again->clients[i].filter == meta->clients[i].filter);
    FUZZ_CHECK(again->clients[i].cursor == meta->clients[i].cursor);
  }
  return 0;
}
