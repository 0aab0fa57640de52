#include "flume/checkpoint_file.h"

#include <fmt/format.h>

namespace qjt::flume {

namespace {

void report(Reporter* reporter, std::string_view code, std::string_view file, std::optional<std::uint64_t> offset,
            std::string message) {
  if (reporter == nullptr) return;
  reporter->report(Finding{Severity::kError, std::string(code), std::string(file), offset, std::move(message)});
}

void append_be64(std::string* out, std::int64_t value) {
  const auto bits = static_cast<std::uint64_t>(value);
  for (int shift = 56; shift >= 0; shift -= 8) out->push_back(static_cast<char>((bits >> shift) & 0xFF));
}

void store_be64(std::string* out, std::size_t slot, std::int64_t value) {
  const auto bits = static_cast<std::uint64_t>(value);
  for (std::size_t i = 0; i < 8; ++i) (*out)[slot * 8 + i] = static_cast<char>((bits >> (56 - 8 * i)) & 0xFF);
}

// Length problems are phrased as the capacity they imply, since that is
// what an operator configures.
bool check_length(std::size_t length, std::string_view file, Reporter* reporter) {
  const std::size_t header_bytes = kCheckpointHeaderSlots * 8;
  if (length % 8 == 0 && length > header_bytes) return true;
  report(reporter, "checkpoint_length", file, std::uint64_t{0},
         fmt::format("expected a length of (capacity + 1029) * 8 bytes with capacity >= 1, found {} bytes{}", length,
                     length % 8 != 0 ? " (not a multiple of 8)"
                                     : (length <= header_bytes ? " (no room for a ring slot)" : "")));
  return false;
}

void check_header(const CheckpointFile& checkpoint, std::string_view file, Reporter* reporter) {
  if (!checkpoint.version_ok())
    report(reporter, "checkpoint_version", file, CheckpointFile::slot_offset(kCheckpointVersionSlot),
           fmt::format("expected version 2 or 3 (a full 64-bit long), found {}", checkpoint.version()));
  if (checkpoint.marker_state() == CheckpointMarker::kUnknown)
    report(reporter, "checkpoint_marker", file, CheckpointFile::slot_offset(kCheckpointMarkerSlot),
           fmt::format("expected checkpoint marker 0 (complete) or 1 (incomplete), found {}", checkpoint.marker()));
}

}  // namespace

std::int64_t pack_active_log_count(ActiveLogCount count) {
  const std::uint64_t high = static_cast<std::uint64_t>(static_cast<std::uint32_t>(count.file_id)) << 32;
  const auto low = static_cast<std::uint64_t>(static_cast<std::int64_t>(count.count));  // sign-extended, as Java's +
  return static_cast<std::int64_t>(high + low);
}

ActiveLogCount unpack_active_log_count(std::int64_t packed) {
  const auto bits = static_cast<std::uint64_t>(packed);
  return ActiveLogCount{static_cast<std::int32_t>(bits >> 32), static_cast<std::int32_t>(bits & 0xFFFFFFFFu)};
}

std::optional<CheckpointFile> CheckpointFile::decode(ByteSpan bytes, std::string_view file, Reporter* reporter,
                                                     std::optional<std::size_t> expected_capacity) {
  const bool length_ok = check_length(bytes.size(), file, reporter);
  if (bytes.size() < kCheckpointHeaderSlots * 8) return std::nullopt;
  const std::size_t capacity = length_ok ? bytes.size() / 8 - kCheckpointHeaderSlots : 0;
  if (length_ok && expected_capacity && *expected_capacity != capacity)
    report(reporter, "checkpoint_capacity", file, std::uint64_t{0},
           fmt::format("expected capacity {} (the configured one, a file of {} bytes), found capacity {} ({} bytes)",
                       *expected_capacity, (*expected_capacity + kCheckpointHeaderSlots) * 8, capacity, bytes.size()));
  CheckpointFile checkpoint(bytes, capacity);
  check_header(checkpoint, file, reporter);
  return checkpoint;
}

CheckpointMarker CheckpointFile::marker_state() const {
  if (marker() == kCheckpointComplete) return CheckpointMarker::kComplete;
  if (marker() == kCheckpointIncomplete) return CheckpointMarker::kIncomplete;
  return CheckpointMarker::kUnknown;
}

std::int64_t CheckpointFile::slot(std::size_t index) const {
  std::int64_t value = 0;
  ByteReader(bytes_, index * 8).read_i64_be(&value);
  return value;
}

std::vector<CheckpointFile::SlotCount> CheckpointFile::v2_active_logs() const {
  std::vector<SlotCount> counts;
  const std::size_t end = kCheckpointFirstActiveLogSlot + kCheckpointMaxActiveLogs;
  for (std::size_t index = kCheckpointFirstActiveLogSlot; index < end; ++index) {
    const std::int64_t packed = slot(index);
    if (packed != 0) counts.push_back(SlotCount{index, unpack_active_log_count(packed)});
  }
  return counts;
}

RingPosition v2_ring_position(const CheckpointFile& checkpoint, std::string_view file) {
  return RingPosition{checkpoint.v2_head(), checkpoint.v2_size(), std::string(file),
                      CheckpointFile::slot_offset(kCheckpointV2HeadSlot),
                      CheckpointFile::slot_offset(kCheckpointV2SizeSlot)};
}

std::optional<CheckpointRing> CheckpointRing::make(const CheckpointFile& checkpoint, const RingPosition& position,
                                                   Reporter* reporter) {
  if (!checkpoint.length_ok()) return std::nullopt;  // already reported by decode
  const auto capacity = static_cast<std::int64_t>(checkpoint.capacity());
  bool ok = true;
  if (position.head < 0 || position.head >= capacity) {
    report(reporter, "checkpoint_head", position.file, position.head_offset,
           fmt::format("expected a queue head from 0 to {} (capacity - 1), found {}", capacity - 1, position.head));
    ok = false;
  }
  if (position.size < 0 || position.size > capacity) {
    report(reporter, "checkpoint_size", position.file, position.size_offset,
           fmt::format("expected a queue size from 0 to {} (the capacity), found {}", capacity, position.size));
    ok = false;
  }
  if (!ok) return std::nullopt;
  return CheckpointRing(checkpoint, static_cast<std::size_t>(position.head), static_cast<std::size_t>(position.size));
}

std::size_t CheckpointRing::physical_slot(std::size_t logical_index) const {
  // head < capacity, so reducing the index first keeps the sum from wrapping.
  const std::size_t capacity = checkpoint_.capacity();
  return kCheckpointHeaderSlots + (head_ + logical_index % capacity) % capacity;
}

RingElement CheckpointRing::at(std::size_t logical_index) const {
  const std::size_t slot = physical_slot(logical_index);
  const std::int64_t value = checkpoint_.slot(slot);
  return RingElement{slot, value, EventPointer::from_long(value)};
}

void check_ring_elements(const CheckpointRing& ring, std::string_view file, Reporter* reporter) {
  for (std::size_t i = 0; i < ring.size(); ++i) {
    const RingElement element = ring.at(i);
    const std::uint64_t offset = CheckpointFile::slot_offset(element.slot);
    if (element.value == 0) {
      report(reporter, "checkpoint_empty_element", file, offset,
             fmt::format("expected an event pointer for queue element {} of {}, found an empty slot", i, ring.size()));
    } else if (element.pointer.file_id < 1 || element.pointer.offset < 0) {
      report(reporter, "checkpoint_pointer", file, offset,
             fmt::format("expected an event pointer with file ID >= 1 and offset >= 0 for queue element {}, "
                         "found file ID {} and offset {}",
                         i, element.pointer.file_id, element.pointer.offset));
    }
  }
}

std::optional<std::vector<std::int64_t>> place_in_ring(std::size_t capacity, std::size_t head,
                                                       const std::vector<EventPointer>& elements) {
  if (capacity == 0 || head >= capacity || elements.size() > capacity) return std::nullopt;
  std::vector<std::int64_t> slots(capacity, 0);
  for (std::size_t i = 0; i < elements.size(); ++i) slots[(head + i) % capacity] = elements[i].to_long();
  return slots;
}

std::optional<std::string> encode_checkpoint(const CheckpointImage& image) {
  if (image.slots.empty() || image.v2_active_logs.size() > kCheckpointMaxActiveLogs) return std::nullopt;
  std::string out;
  out.reserve((kCheckpointHeaderSlots + image.slots.size()) * 8);
  out.assign(kCheckpointHeaderSlots * 8, '\0');
  store_be64(&out, kCheckpointVersionSlot, image.version);
  store_be64(&out, kCheckpointWriteOrderIdSlot, image.write_order_id);
  store_be64(&out, kCheckpointMarkerSlot, image.marker);
  if (image.version == 2) {
    store_be64(&out, kCheckpointV2SizeSlot, image.v2_size);
    store_be64(&out, kCheckpointV2HeadSlot, image.v2_head);
    for (std::size_t i = 0; i < image.v2_active_logs.size(); ++i)
      store_be64(&out, kCheckpointFirstActiveLogSlot + i, pack_active_log_count(image.v2_active_logs[i]));
  }
  for (const std::int64_t value : image.slots) append_be64(&out, value);
  return out;
}

std::optional<std::int64_t> capacity_of_checkpoint_size(std::uint64_t size) {
  const std::uint64_t header = kCheckpointHeaderSlots * 8;
  if (size % 8 != 0 || size <= header || (size - header) / 8 > 0x7FFFFFFF) return std::nullopt;
  return static_cast<std::int64_t>((size - header) / 8);
}

}  // namespace qjt::flume
