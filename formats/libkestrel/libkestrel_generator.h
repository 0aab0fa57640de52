// Deterministic synthetic libkestrel (Kestrel 3) queues, for fixtures and
// benchmarks (`qjt gen libkestrel`, man/qjt-gen.1). No command-line code.
//
// Contract:
//  - The same options (seed included) give the same bytes: synthetic_data.h's
//    PRNG, no clock.
//  - PUT records are encoded by libkestrel_writer.h and streamed through a
//    FileWriter; bookmarks by bookmark_bytes. Memory holds one record.
//  - Every file is written under a `~~` name (libkestrel deletes those at
//    startup) and renamed into place; the queue's files already in the
//    directory are refused unless `force`, which removes them.
//
// The queue `queue` in directory `dir`: items with ids 1, 2, ... and add
// times start_ms, start_ms + 1, ..., no expiry, split into `segments`
// segments `queue.<ms>` of about equal item count (byte count with `size`),
// each named by the add time of its first item as libkestrel names a new
// segment by its clock (with `size`, segments the target leaves no room
// for are not written); then one bookmark `queue.read.<name>` per reader
// with its head and `done` ids above the head, chosen by the seed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "generated_files.h"

namespace qjt::libkestrel {

struct ReaderPosition {
  std::string name;        // empty: the default reader (bookmark `queue.read.`)
  std::uint64_t head = 0;  // every id up to it read
};

struct QueueGeneratorOptions {
  std::uint64_t items = 1000;
  std::uint64_t size = 0;  // instead, when non-zero: bytes of segments; ends before the PUT that would pass it
  std::uint32_t payload_min = 32;
  std::uint32_t payload_max = 256;
  std::uint32_t segments = 1;
  std::string queue = "q";
  std::vector<ReaderPosition> readers = {ReaderPosition{}};
  std::uint64_t done = 0;  // ids done beyond each reader's head, at most those there are
  std::uint64_t seed = 1;
  std::int64_t start_ms = 1700000000000;
  std::string corrupt = "none";  // none, truncate, flip (see queue_corruptions)
  bool force = false;
};

// The --corrupt modes:
//   truncate  the last segment is cut inside its last PUT
//   flip      the top bit of a seed-chosen PUT's data size: a negative size
std::vector<std::string_view> queue_corruptions();

struct GeneratedQueueFile {
  std::string path;
  std::string role;  // "segment" or "bookmark"
  std::uint64_t bytes = 0;
  std::uint64_t records = 0;
};

struct GeneratedReader {
  std::string name;
  std::uint64_t head = 0;
  std::uint64_t done = 0;
  std::uint64_t pending = 0;  // what a replay leaves this reader to read
};

struct QueueGeneratorReport {
  std::vector<GeneratedQueueFile> files;  // segments in order, then bookmarks
  std::uint64_t items = 0;
  std::uint64_t bytes = 0;  // of the segments
  std::vector<GeneratedReader> readers;
  std::optional<GeneratedDamage> corruption;
};

std::optional<std::string> check_queue_options(const QueueGeneratorOptions& options);

// Writes the queue into `dir` (created if need be). On failure returns
// kUsage or kIoError with a sentence in *error, leaving no temp file.
GenerateStatus generate_libkestrel_queue(const std::string& dir, const QueueGeneratorOptions& options,
                                         QueueGeneratorReport* report, std::string* error);

}  // namespace qjt::libkestrel
