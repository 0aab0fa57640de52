// A Prometheus text scrape of a running Canal server (canal-format.md §7):
// per destination, the event store's exported sequences and memory
// counters (StoreCollector: canal_instance_store_produce_seq = put,
// ..._consume_seq = ack, ..._produce_mem / ..._consume_mem in MEMSIZE mode,
// and canal_instance_store{batchMode,size}). The get sequence is not
// exported, so of the ring buffer's invariants only these can be checked:
// produce >= consume, put - ack <= bufferSize (S3), and in MEMSIZE mode
// putMem - ackMem <= bufferSize x memunit (S4, which one put may overshoot).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "finding.h"

namespace qjt::canal {

struct StoreMetrics {
  std::string destination;
  std::uint64_t offset = 0;               // first sample of this destination in the scrape
  std::optional<std::string> batch_mode;  // ITEMSIZE or MEMSIZE
  std::optional<std::int64_t> buffer_size;
  std::optional<std::int64_t> produce_seq, consume_seq, produce_mem, consume_mem;

  // put - ack and putMem - ackMem, when both sides were exported.
  std::optional<std::int64_t> in_flight_events() const;
  std::optional<std::int64_t> in_flight_bytes() const;
};

// The destinations of the scrape, in the order they first appear.
// Malformed sample lines are canal_metrics_line warnings.
std::vector<StoreMetrics> read_store_metrics(std::string_view text, const std::string& file, Reporter* reporter);

// The invariants above; `memunit` is canal.instance.memory.buffer.memunit,
// which the scrape does not carry.
void check_store(const StoreMetrics& store, std::int64_t memunit, const std::string& file, Reporter* reporter);

}  // namespace qjt::canal
