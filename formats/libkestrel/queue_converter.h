// Conversion between a classic Kestrel queue and a libkestrel (Kestrel 3)
// one, preserving the queue a reader sees.
//
// Classic to libkestrel does what Kestrel 3's QueueConverter does (spec
// §4.3): the open transactions first (a restart rolls them back onto the
// head), then the queued items, as PUTs with ids assigned in order from 1,
// their add times and expiries kept; and one reader at the head (READ_HEAD
// 0, nothing done), so it reads every item. libkestrel to classic writes an
// ADDX per item one reader has still to read, in its order.
#pragma once

#include <cstdint>
#include <string>

#include "durable_file.h"
#include "kestrel/replay_state.h"
#include "libkestrel/libkestrel_replay.h"

namespace qjt::libkestrel {

// The segment: magic, then a PUT per item of state.after_restart(). Items
// without an add time (the legacy ADD) get `legacy_add_time_ms`; an expiry
// of 0 (none) becomes a PUT without expiry. False with *error for an item
// over libkestrel's 16 MiB limit, which libkestrel refuses.
bool write_segment(const kestrel::ReplayState& state, std::int64_t legacy_add_time_ms, FileWriter* out,
                   std::string* error);

// The bookmark of a reader that has read nothing.
std::string head_bookmark();

// The classic journal: an ADDX per item `reader` has still to read, with
// its add time and expiry (0 when none). The error count has no classic
// counterpart and is dropped.
bool write_classic(const QueueReplay& replay, const ReaderState& reader, FileWriter* out, std::string* error);

}  // namespace qjt::libkestrel
