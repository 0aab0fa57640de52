// canal_binlogs: a binlog listing (SHOW BINARY LOGS as text), read and
// checked against a fixed meta.dat whose cursor names mysql-bin.000002.
#include "canal/binlog_list.h"
#include "canal/meta_dat.h"
#include "fuzz_support.h"

using namespace qjt;
using namespace qjt::canal;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::RenderingReporter reporter;
  const auto binlogs = read_binlog_list(fuzz::text(data, size), "binlogs.txt", &reporter);
  MetaDat meta;
  meta.destination = "example";
  Cursor cursor;
  cursor.address = "127.0.0.1";
  cursor.port = 3306;
  cursor.journal_name = "mysql-bin.000002";
  cursor.position = 4;
  meta.clients.push_back(ClientData{1001, "example", std::nullopt, cursor, 0});
  check_against_binlogs(meta, binlogs, "binlogs.txt", &reporter);
  return 0;
}
