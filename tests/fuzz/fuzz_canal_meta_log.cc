// canal_meta_log: a Canal meta.log (the cursor history). Reads its entries,
// checks their order, picks the cursors at the last entry's time and builds
// the meta.dat they give, which must write without trouble. Times are read
// in New York's rule, so that gaps and overlaps are met.
#include "canal/meta_dat.h"
#include "canal/meta_log.h"
#include "fuzz_support.h"
#include "time_value.h"

using namespace qjt;
using namespace qjt::canal;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const TimeZone zone = [] {
    std::string error;
    return *TimeZone::from_posix_tz("EST5EDT,M3.2.0,M11.1.0", &error);
  }();
  fuzz::RenderingReporter reporter;
  std::vector<LogEntry> entries;
  read_meta_log(fuzz::text(data, size), "logs/example/meta.log", zone, &entries, &reporter);
  if (entries.empty()) return 0;
  CursorOrderCheck order;
  CursorsAt at(entries.back().time_ms);
  for (const LogEntry& entry : entries) {
    FUZZ_CHECK(entry.offset < size && entry.line >= 1);
    order.add(entry, &reporter);
    at.add(entry);
  }
  FUZZ_CHECK(!at.cursors().empty());
  const MetaDat meta = meta_dat_from_log(at.cursors(), "example", nullptr);
  FUZZ_CHECK(!write_meta_dat(meta).empty());
  (void)parse_time_value(entries.front().time, 0, zone);  // as --at reads it
  return 0;
}
