// Compaction: the minimal journal equivalent to a replayed one, as Kestrel
// 2.x's rewrite writes it (spec 3.2): for each open transaction, highest
// xid first, ADDX + REMOVE_TENTATIVE_XID; then one ADDX per queued item, in
// queue order, with the items' add times and expiries.
//
// This is the second of compaction's two passes: the first (replay) found
// the surviving items by position; this one reads their records again and
// copies them into the writer. Queued items lie mostly in file order, so
// each file is read forward through one window (lib/read_window.h); the
// few that do not (items put back by UNREMOVE, open transactions) cost a
// page read each. Nothing is held but the windows and the writer's buffer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "durable_file.h"
#include "input_file.h"
#include "kestrel/replay_state.h"

namespace qjt::kestrel {

struct JournalSize {
  std::uint64_t records = 0;
  std::uint64_t bytes = 0;
};

// What write_compacted will write for `state`.
JournalSize compacted_size(const ReplayState& state);

// Writes the compacted journal. `files[i]` is the input begin_file was
// given as file i. The legacy ADD stores no add time; its items get
// legacy_add_time_ms[i] (callers pass the file's modification time, as
// `qjt convert --to kestrel2` does).
bool write_compacted(const ReplayState& state, const std::vector<const InputFile*>& files,
                     const std::vector<std::int64_t>& legacy_add_time_ms, FileWriter* out, std::string* error);

}  // namespace qjt::kestrel
