// Where Canal starts a destination's parser, by its order of precedence
// (MysqlEventParser.findStartPosition, canal-format.md §5, issue 785):
//
//   1  meta.dat: the restart cursor, the minimum over the clients Canal
//      keeps that have a usable cursor (restart_cursor.h);
//   2  else canal.instance.master.* of instance.properties: a journal
//      (with its position, or searched by the timestamp), else a
//      timestamp (the binlogs searched by time), else in GTID mode a gtid;
//   3  else SHOW MASTER STATUS: the master's current end, every event
//      before it skipped.
//
// A start configured in instance.properties is ignored whenever meta.dat
// gives one: the confusion of issues 770, 2575 and 1238.
#pragma once

#include <optional>
#include <string>

#include "canal/destination_config.h"
#include "canal/restart_cursor.h"

namespace qjt::canal {

enum class StartSource { kMetaDat, kInstanceProperties, kShowMasterStatus };

// "meta.dat", "instance.properties", "show master status": the JSON value.
const char* start_source_name(StartSource source);

struct StartDecision {
  StartSource source = StartSource::kShowMasterStatus;
  bool has_meta_dat = false;             // a meta.dat was read
  std::optional<RestartCursor> restart;  // kMetaDat: the cursor it starts from
  // Whether instance.properties names a start of its own, which meta.dat
  // overrides (source kMetaDat) or which is used.
  bool configured = false;
  std::string configured_text;  // that start, in words ("" when none)
};

// `meta` nullopt: no meta.dat (or one Canal cannot read, which it also
// starts without). `config` nullopt: no properties file found.
StartDecision where_canal_starts(const std::optional<MetaDat>& meta, const MetaDatSource& source,
                                 const std::optional<DestinationConfig>& config);

// One sentence: where Canal starts, and why there.
std::string describe_start(const StartDecision& decision);

}  // namespace qjt::canal
