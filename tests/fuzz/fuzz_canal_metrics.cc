// canal_metrics: a Prometheus scrape of Canal's store metrics. Reads every
// destination's samples and checks each store (ITEMSIZE and MEMSIZE sizing).
#include "canal/store_metrics.h"
#include "fuzz_support.h"

using namespace qjt;
using namespace qjt::canal;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::RenderingReporter reporter;
  for (const StoreMetrics& store : read_store_metrics(fuzz::text(data, size), "metrics.prom", &reporter)) {
    FUZZ_CHECK(store.offset < size);
    (void)store.in_flight_events();
    (void)store.in_flight_bytes();
    check_store(store, 1024, "metrics.prom", &reporter);
  }
  return 0;
}
