// ChannelStats: what `qjt stats` says of a Flume file channel, added to a
// StatsModel (stats_model.h) from the replay the channel gets anyway
// (channel_replay.h) and the one read of its queued events that replay
// also makes: no file is read twice.
//
// One entity of kind "channel", labelled format "flume" and path (the
// checkpoint dir, as replay and the findings name the channel); Flume keeps
// the channel's name in the agent's configuration, not on disk, so there is
// no channel label. Its gauges, its payload distribution and its tables
// (data_log: log_space.h's report and the records replayed per log;
// recovery: where the next start recovers from; header_value: --by-header)
// are listed in formats/flume/README.md, "Stats".
//
// Use: add_event for each event for_each_queued_event visits, then fill.
// Memory: a LogHistogram, one tally per log, HeaderTally's bound per key.
#pragma once

#include <string>
#include <vector>

#include "flume/channel_layout.h"
#include "flume/channel_logs.h"
#include "flume/channel_replay.h"
#include "flume/header_tally.h"
#include "flume/log_space.h"
#include "log_histogram.h"
#include "stats_model.h"

namespace qjt::flume {

class ChannelStats {
 public:
  // `by_header`: the header keys to count queued events by (repeats ignored).
  explicit ChannelStats(const std::vector<std::string>& by_header);

  void add_event(EventPointer pointer, const LogRecord& put);
  void fill(const ChannelLayout& layout, const ChannelLogs& logs, const ChannelReplay& replay, StatsModel* model) const;

 private:
  LogHistogram payload_;
  QueuedByLog queued_;
  std::vector<HeaderTally> headers_;
};

}  // namespace qjt::flume
