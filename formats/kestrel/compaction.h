// Compaction: the minimal journal equivalent to a replayed one, as Kestrel
// 2.x's rewrite writes it (spec 3.2): for each open transaction, highest
// xid first, ADDX + REMOVE_TENTATIVE_XID; then one ADDX per queued item, in
// queue order, with the items' add times and expiries.
//
// This is the second of compaction's two passes: the first (replay) found
// the surviving items by position; this one copies their bytes from the
// mapped journal into the writer. Nothing is held but the writer's buffer.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "durable_file.h"
#include "replay_state.h"

namespace qjt::kestrel {

struct JournalSize {
  std::uint64_t records = 0;
  std::uint64_t bytes = 0;
};

// What write_compacted will write for `state`.
JournalSize compacted_size(const ReplayState& state);

// Writes the compacted journal. The legacy ADD stores no add time; its
// items get legacy_add_time_ms[item.file_index] (callers pass the file's
// modification time, as `qjt convert --to kestrel2` does).
//
// `copied(file_index, offset)` is told, every few MiB, that the queued
// items up to that record have been copied, so the caller can drop the
// pages behind them (queued items lie in file order, so this keeps the
// resident journal pages to a window rather than the whole journal).
using CopiedUpTo = std::function<void(std::uint32_t file_index, std::uint64_t offset)>;
bool write_compacted(const ReplayState& state, const std::vector<std::int64_t>& legacy_add_time_ms,
                     const CopiedUpTo& copied, FileWriter* out, std::string* error);

}  // namespace qjt::kestrel
