// CheckpointState: one checkpoint (the main one, or a backup copy) opened as
// Flume's EventQueueBackingStoreFactory, EventQueueBackingStoreFile and
// FlumeEventQueue open it at startup (spec §1.5, §2, §3): either the queue
// it holds, its write order id and its inflight transactions, or nothing,
// where Flume would throw BadCheckpointException.
//
// Every reason for refusing it is a finding (error) on the file concerned;
// the caller then says what Flume does instead (restore the backup, or
// replay every log).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "byte_span.h"
#include "finding.h"
#include "flume/event_queue.h"
#include "flume/inflight_file.h"

namespace qjt::flume {

// The bytes of a checkpoint directory's files; a file that does not exist
// has no bytes (nullopt). Paths name the files in findings.
struct CheckpointBytes {
  std::string checkpoint_path;
  std::optional<ByteSpan> checkpoint;
  std::string meta_path;
  std::optional<ByteSpan> meta;
  std::string inflight_puts_path;
  std::optional<ByteSpan> inflight_puts;
  std::string inflight_takes_path;
  std::optional<ByteSpan> inflight_takes;
};

struct CheckpointState {
  int version = 3;  // 2 for a V2 checkpoint (Flume upgrades it in place at start)
  std::int64_t write_order_id = 0;
  EventQueue queue;
  std::vector<InflightTransaction> inflight_puts;
  std::vector<InflightTransaction> inflight_takes;
};

struct CheckpointLoadOptions {
  std::optional<std::int64_t> capacity;  // the configured capacity, when known
};

// nullopt when Flume would refuse the checkpoint. `bytes.checkpoint` must be
// present (a missing checkpoint is a fresh start, decided by the caller).
std::optional<CheckpointState> load_checkpoint(const CheckpointBytes& bytes, const CheckpointLoadOptions& options,
                                               Reporter* reporter);

}  // namespace qjt::flume
