// Deterministic synthetic Flume file channels, for fixtures and benchmarks
// (`qjt gen flume`, man/qjt-gen.1). No command-line code here.
//
// Contract:
//  - The same options (seed included) give the same bytes: the generator
//    uses synthetic_data.h's PRNG and no clock.
//  - Records are encoded by log_writer.h (V3, encrypted with AES-CTR when
//    a key is given) and streamed through FileWriters; the checkpoint is
//    written by checkpoint_file.h, checkpoint_meta.h, inflight_file.h and
//    log_metadata.h. Memory holds the queued event pointers (8 bytes each)
//    and the checkpoint image, never the events.
//  - Every file is written under a `~~` name (one Flume and qjt ignore),
//    fsynced, and renamed into place; a channel already in the directories
//    is refused unless `force`, which removes its files first.
//
// The channel, under `dir`: `checkpoint/` and `data1/` .. `dataN/`. Like a
// Flume agent: each data dir starts with its own log (log-1 .. log-N) and
// rolls to the next file id past `max_log_size`; each transaction goes to
// data dir txid mod N. The stream, in order:
//  1. Until the target (`events` events put, or `size` bytes of logs):
//     a take transaction when fewer than floor(take_share x events
//     committed) were taken (events of rolled-back takes count) and the
//     queue is not empty, else a put
//     transaction; each of 1 to `batch` events; a share `rollback_share`
//     of them ends in a rollback, the rest in a commit.
//  2. `open` transactions left in flight: takes (when events are queued)
//     and puts, alternately, taking the queue's head.
//  3. A checkpoint after the last record, as Flume writes one: the queue,
//     the in-flight puts and takes, every data log's meta marked.
// Each event has a "timestamp" header (start_ms + its number) and `headers`
// more (h1..) with values of `header_size` bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flume/event_pointer.h"
#include "generated_files.h"

namespace qjt::flume {

struct ChannelGeneratorOptions {
  std::uint64_t events = 1000;  // target: events put by the transactions of step 1
  std::uint64_t size = 0;       // instead, when non-zero: bytes of data logs (met or passed by one transaction)
  std::uint32_t payload_min = 32;
  std::uint32_t payload_max = 256;
  std::uint32_t headers = 0;  // beside "timestamp"
  std::uint32_t header_size = 16;
  std::uint32_t batch = 100;
  double take_share = 0.5;
  double rollback_share = 0.05;
  std::uint32_t open = 0;
  std::uint32_t data_dirs = 1;
  std::uint64_t max_log_size = 64ULL << 20;
  std::int64_t capacity = 0;  // 0: the events put (every one fits)
  int checkpoint_version = 3;
  std::optional<std::string> key_alias;  // encrypt the logs with `key` under this alias
  std::string key;                       // 16, 24 or 32 raw bytes
  std::uint64_t seed = 1;
  std::int64_t start_ms = 1700000000000;  // first transaction and write order ids, first event time
  std::string corrupt = "none";           // none, flip, checkpoint, truncate (see channel_corruptions)
  bool force = false;
};

// The --corrupt modes:
//   flip        the transaction header of a queued event's Put is damaged
//   checkpoint  a bit of inflighttakes' MD5 is flipped (Flume refuses the checkpoint)
//   truncate    the checkpoint file loses its last 4 bytes (its length fits no capacity)
std::vector<std::string_view> channel_corruptions();

struct GeneratedLog {
  std::string path;
  std::int32_t file_id = 0;
  std::uint64_t bytes = 0;
  std::uint64_t records = 0;
};

struct ChannelGeneratorReport {
  std::string checkpoint_dir;
  std::vector<std::string> data_dirs;
  std::vector<GeneratedLog> logs;  // file id order
  std::uint64_t records = 0;       // log records
  std::uint64_t bytes = 0;         // of the logs
  std::uint64_t transactions = 0;
  std::uint64_t rollbacks = 0;
  std::uint64_t events_put = 0;
  std::uint64_t events_committed = 0;
  std::uint64_t events_taken = 0;
  std::uint64_t queued = 0;  // in the checkpoint's queue
  std::uint64_t open_transactions = 0;
  std::uint64_t in_flight_puts = 0;   // events
  std::uint64_t in_flight_takes = 0;  // events, back in the queue after a replay
  std::int64_t capacity = 0;
  std::int64_t checkpoint_write_order_id = 0;
  // What Flume's replay yields: queued + in_flight_takes.
  std::uint64_t queue_length = 0;
  std::optional<GeneratedDamage> corruption;
};

// Why `options` cannot be generated (a usage error), or nothing.
std::optional<std::string> check_channel_options(const ChannelGeneratorOptions& options);

// Writes the channel under `dir`. On failure returns kUsage or kIoError with
// a sentence in *error, and leaves no temporary file behind.
GenerateStatus generate_flume_channel(const std::string& dir, const ChannelGeneratorOptions& options,
                                      ChannelGeneratorReport* report, std::string* error);

}  // namespace qjt::flume
