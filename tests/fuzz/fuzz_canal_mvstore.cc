// canal_mvstore: the first block of an H2 MVStore file (h2.mv.db), whose
// "format" qjt reads to name the H2 release (tsdb_store.h); only its first
// 4096 bytes are ever looked at.
#include "canal/tsdb_store.h"
#include "fuzz_support.h"

using namespace qjt;
using namespace qjt::canal;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto format = mvstore_format(fuzz::bytes(data, size));
  if (format) (void)mvstore_release(*format);
  return 0;
}
