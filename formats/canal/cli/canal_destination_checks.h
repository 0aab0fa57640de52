// What verify and stats say of a meta.dat's destination beyond the file:
// where Canal will start it (meta.dat over instance.properties over SHOW
// MASTER STATUS) and the table-meta store beside it. Only for a file named
// meta.dat, whose directory is the destination's (conf/<destination>/).
//
// Findings: canal_tsdb_newer (the H2 store was written after the restart
// cursor's binlog time: a rewind below DDL it recorded needs it reset),
// canal_start_ignored (instance.properties configures a start that
// meta.dat overrides), canal_properties (what Java refuses in a
// properties file).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "canal/destination_config.h"
#include "canal/meta_dat.h"
#include "canal/start_position.h"
#include "canal/tsdb_store.h"
#include "command_support.h"
#include "finding.h"
#include "stats_model.h"

namespace qjt::cli {

struct DestinationReport {
  std::string meta_dat;  // the path as named
  std::string destination;
  std::optional<canal::DestinationConfig> config;
  canal::TsdbStore store;
  canal::StartDecision start;
};

// nullopt for a file not named meta.dat. `meta` nullopt: the file could
// not be read as a meta.dat (Canal starts without it).
std::optional<DestinationReport> check_destination(const canal::MetaDatSource& source,
                                                   const std::optional<canal::MetaDat>& meta, Reporter* reporter);

// Whether `path` is the meta.dat of a destination Canal has not started
// yet: named meta.dat, missing, in a directory holding instance.properties.
// verify reports where Canal will start it rather than an unreadable file.
bool absent_meta_dat(const std::string& path);

// The table-meta store in words: "h2.mv.db (8192 bytes, written ...)",
// "MySQL tables ...", "none beside meta.dat".
std::string tsdb_text(const std::optional<canal::DestinationConfig>& config, const canal::TsdbStore& store);

// verify's report: a "destinations" member in JSON, and in text (unless
// `quiet`, which promises silence when all is well) a line each on where
// Canal starts and one on the store when there is one to speak of.
void add_destinations(VerifyTally* tally, const std::vector<DestinationReport>& reports, bool quiet);

// stats: the store's figures on the destination (canal_stats.h).
void add_destination_stats(const DestinationReport& report, const canal::MetaDat& meta, StatsModel* model);

}  // namespace qjt::cli
