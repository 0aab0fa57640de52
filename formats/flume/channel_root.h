// ChannelRoot: a Flume file channel found by the shape of the directory
// that holds it, as Flume lays one out by default (~/.flume/file-channel
// with checkpoint/ and data/ inside) and as `qjt gen flume` writes one
// (checkpoint/, data1/, data2/..., backup/). Told by file names alone: no
// file is opened.
//
// Among the directory's subdirectories (hidden ones aside), in name order:
//   - a data directory holds a data log (log-N, or its log-N.meta);
//   - the backup checkpoint directory holds backupComplete or
//     checkpoint.snappy (what only Flume's checkpoint backup writes);
//   - the checkpoint directory holds checkpoint or checkpoint.meta; else
//     it is the one named "checkpoint" (a channel whose first checkpoint
//     has not been written yet).
// A root has at least one data directory, and at most one checkpoint and
// one backup directory: two of either is not one channel, and nothing is
// guessed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "flume/channel_layout.h"

namespace qjt::flume {

// The channel whose directories `dir` holds; nullopt when it is no root.
std::optional<ChannelDirs> find_channel_root(const std::string& dir);

// When `dir` has a root's shape but two checkpoint or backup directories:
// each channel it could hold (every checkpoint directory with every backup
// directory, or none), in name order; none when find_channel_root tells,
// or when `dir` holds no data directory.
std::vector<ChannelDirs> channel_root_candidates(const std::string& dir);

}  // namespace qjt::flume
