// Deterministic synthetic Canal consumer checkpoints, for fixtures and
// benchmarks (`qjt gen canal`, man/qjt-gen.1). No command-line code here.
//
// Contract:
//  - The same options (seed included) give the same bytes: synthetic_data.h's
//    PRNG, no clock, and the log's times written in UTC (read them back
//    with TZ=UTC or --tz UTC to get the same instants).
//  - meta.log is streamed through a FileWriter; memory holds one cursor
//    per client. meta.dat is written by write_meta_dat, Canal's layout.
//  - Both files are written under `~~` names and renamed into place;
//    existing ones are refused unless `force`.
//
// Under `dir`: conf/<destination>/meta.dat and logs/<destination>/meta.log,
// as a Canal server's data and log dirs lay them out. The log holds
// `updates` lines, one flush a second from start_ms: first one for each
// client (ids 1001, 1002, ...) at the start of binlog mysql-bin.000001,
// then a client chosen by the seed moves forward 100 to 10000 bytes, or to
// the next binlog one time in fifty. meta.dat holds each client's last
// cursor, as Canal flushed it after the last line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "generated_files.h"

namespace qjt::canal {

struct MetaGeneratorOptions {
  std::uint64_t updates = 1000;
  std::uint32_t clients = 2;
  std::string destination = "example";
  std::uint64_t seed = 1;
  std::int64_t start_ms = 1700000000000;
  std::string corrupt = "none";  // none, truncate, empty (see meta_corruptions)
  bool force = false;
};

// The --corrupt modes:
//   truncate  meta.dat is cut in the middle (as by a crash during Canal's in-place rewrite)
//   empty     meta.dat is left empty (as by a full disk)
std::vector<std::string_view> meta_corruptions();

struct MetaGeneratorReport {
  std::string meta_dat, meta_log;  // paths
  std::uint64_t meta_dat_bytes = 0;
  std::uint64_t meta_log_bytes = 0;
  std::uint64_t updates = 0;
  std::uint64_t binlog_rolls = 0;
  std::string last_time;  // of the last line, as written
  std::optional<GeneratedDamage> corruption;
};

std::optional<std::string> check_meta_options(const MetaGeneratorOptions& options);

GenerateStatus generate_canal_meta(const std::string& dir, const MetaGeneratorOptions& options,
                                   MetaGeneratorReport* report, std::string* error);

}  // namespace qjt::canal
