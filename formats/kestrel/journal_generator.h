// Deterministic synthetic classic Kestrel journals, for fixtures and
// benchmarks (`qjt gen kestrel`, man/qjt-gen.1). No command-line code here.
//
// Contract:
//  - The same options (seed included) give the same bytes, on any machine:
//    the generator uses its own PRNG (xoshiro256**), never std's
//    distributions, and no clock.
//  - Records are encoded with journal_writer.h and streamed through a
//    FileWriter: memory does not grow with the output. The state kept is
//    counters (FIFO removes need only the queue's length), never items.
//  - Every file is written under a temporary `~~` name (a name Kestrel and
//    qjt ignore), fsynced, and renamed into place; nothing existing is
//    replaced unless `force` is set.
//  - The report states what a replay of the written journal yields (queue
//    length, open transactions, xid counter), as the generator tracked it.
//
// The stream, in order (Kestrel 2.x records only: ADDX, REMOVE,
// REMOVE_TENTATIVE_XID, CONFIRM_REMOVE, UNREMOVE):
//  1. `open` items are added and reserved with REMOVE_TENTATIVE_XID, xids 1
//     to `open`; these transactions stay open to the end.
//  2. Then, until the target: an ADDX, or a remove when one is due. A
//     remove is due when fewer than floor(remove_share x items added)
//     items were removed (or, with `live`, when more than `live` items are
//     queued) and the queue is not empty. floor(transactional x removes) of
//     the removes are REMOVE_TENTATIVE_XID + CONFIRM_REMOVE with the next
//     xid; one in eight of those is first aborted (REMOVE_TENTATIVE_XID +
//     UNREMOVE) and retried under the next xid. The others are REMOVE.
//  3. The target stops the stream at an operation boundary: the journal
//     never exceeds it and falls short by less than one record. A remove
//     that does not fit whole is written as a plain REMOVE; with `live`,
//     an ADDX is written only with room for the remove it makes due.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "generated_files.h"
#include "kestrel/queue_directory.h"

namespace qjt::kestrel {

enum class Corruption {
  kNone,
  kTruncate,  // cut the last file inside its last record longer than one byte
  kFlip,      // flip the top bit of a seed-chosen record's opcode or size
  kGarbage,   // append bytes that start with an invalid opcode to the last file
};

struct GeneratorOptions {
  // Target: `size` bytes when non-zero, else `records` records.
  std::uint64_t records = 1000;
  std::uint64_t size = 0;
  std::uint32_t payload_min = 32;
  std::uint32_t payload_max = 256;
  double remove_share = 0.5;          // ignored when `live` is set
  std::optional<std::uint64_t> live;  // keep this many items queued
  double transactional = 0.5;
  std::uint32_t open = 0;
  std::uint64_t seed = 1;
  std::int64_t add_time_ms = 1700000000000;  // of the first item; +1 ms per item
  bool binary = false;                       // payload bytes 0-255 instead of printable ASCII
  // 0: `path` is one journal file. N >= 1: `path` is a queue directory that
  // receives queue `queue` as N-1 archived segments `queue.<ts>` and the
  // live `queue`.
  std::uint32_t segments = 0;
  std::string queue = "q";
  Corruption corrupt = Corruption::kNone;
  bool force = false;  // replace existing files (with segments: the queue's files)
};

struct GeneratedFile {
  std::string path;
  FileRole role = FileRole::kGiven;
  std::uint64_t bytes = 0;
  std::uint64_t records = 0;  // records written (before any corruption)
};

struct CorruptionReport {
  Corruption mode = Corruption::kNone;
  std::string file;
  std::uint64_t offset = 0;  // of the damaged record, or where garbage starts
  std::string description;
};

struct GeneratorReport {
  std::vector<GeneratedFile> files;  // replay order
  std::uint64_t records = 0;
  std::uint64_t bytes = 0;  // total, after any corruption
  std::uint64_t items_added = 0;
  std::uint64_t removes = 0;  // items removed for good, all kinds
  std::uint64_t transactional_removes = 0;
  std::uint64_t unremoves = 0;
  // What a replay of the undamaged journal yields.
  std::uint64_t queue_length = 0;
  std::uint64_t open_transactions = 0;
  std::int32_t xid_counter = 0;
  std::optional<CorruptionReport> corruption;
};

const char* corruption_name(Corruption mode);  // "none", "truncate", "flip", "garbage"
std::optional<Corruption> parse_corruption(std::string_view name);

// Why `options` cannot be generated (a usage error), or nothing.
std::optional<std::string> check_generator_options(const GeneratorOptions& options);

// Writes the journal at `path`. On failure returns kUsage or kIoError with a
// sentence in *error, and leaves no temporary file behind.
GenerateStatus generate_kestrel_journal(const std::string& path, const GeneratorOptions& options,
                                        GeneratorReport* report, std::string* error);

}  // namespace qjt::kestrel
