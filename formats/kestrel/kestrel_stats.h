// Stats of a classic Kestrel queue (issue 26, qjt-stats(1)): what `qjt
// stats` shows of it, added to the family-neutral model (stats_model.h)
// from the state its replay builds, in the same pass.
//
// One entity of kind "queue" per queue, labelled format ("kestrel"), path
// and queue. path is the queue's directory: the directory named, or for
// files named directly the directory they are in ("-" for standard input),
// so that a queue is the same series however its files were named.
// README.md ("Stats") says what each figure means; in short:
//  - its records: records and bytes per opcode (table "opcode", key "op",
//    as dump names them) and the payload sizes of the records that add;
//  - its items: how many are queued, their bytes and payload sizes, the
//    add times of the oldest and newest and their ages against `now`, how
//    many have expired and how many never expire; the open transactions
//    and the oldest of them (table "oldest_open_transaction", key "xid");
//  - its space: journal, archived and live bytes, the overflow ratio and
//    what compaction would reclaim; per journal file (table "segment",
//    keys "file" and "role"): records, bytes, the items still in it and the
//    bytes that hold none;
//  - what Kestrel's startup would do: packs installed, files deleted (table
//    "startup_action", keys "file" and "action").
//
// Replay's findings go to `findings`, and the figures are added all the
// same. The records of the items a queue holds are read again once each
// after replay, for their times and expiries: replay keeps positions only.
#pragma once

#include <cstdint>

#include "finding.h"
#include "kestrel/journal_selection.h"
#include "kestrel/replay_state.h"
#include "stats_model.h"

namespace qjt::kestrel {

// Replays `journal` under `options` and adds its queue's entity to `model`;
// ages are taken against `now` (milliseconds since the Unix epoch).
void add_queue_stats(const OpenJournal& journal, ReplayOptions options, std::int64_t now, Reporter* findings,
                     StatsModel* model);

}  // namespace qjt::kestrel
