// CheckpointFile: a zero-copy view of Flume's `checkpoint` file (V2 and V3,
// spec §1), CheckpointRing: its queue elements in logical order, and
// encode_checkpoint: the bytes Flume would have written.
//
// Contract: the file is an array of big-endian longs, 1029 header longs
// then `capacity` ring slots; the caller keeps the bytes (usually an mmap)
// alive while any view of them is used. Decoding never throws and never
// allocates from a value read in the file: every problem is a Finding with
// the absolute offset of the long that is wrong, and the caller gets back
// whatever could still be read. The whole 64-bit long is compared for the
// version and the marker, as Flume does since FLUME-1893, so a flipped high
// word is a finding too. An incomplete marker (1) is a state the format
// defines, not a decoding error: it is exposed, not reported, and the
// caller decides what Flume's reaction (a full replay) means for it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "byte_span.h"
#include "finding.h"
#include "flume/event_pointer.h"

namespace qjt::flume {

inline constexpr std::size_t kCheckpointHeaderSlots = 1029;

// The capacity a checkpoint file of `size` bytes holds, as Flume sizes it:
// (capacity + 1029) * 8 bytes; nullopt for a size Flume does not write.
std::optional<std::int64_t> capacity_of_checkpoint_size(std::uint64_t size);
inline constexpr std::size_t kCheckpointVersionSlot = 0;
inline constexpr std::size_t kCheckpointWriteOrderIdSlot = 1;
inline constexpr std::size_t kCheckpointV2SizeSlot = 2;
inline constexpr std::size_t kCheckpointV2HeadSlot = 3;
inline constexpr std::size_t kCheckpointMarkerSlot = 4;
inline constexpr std::size_t kCheckpointFirstActiveLogSlot = 5;
inline constexpr std::size_t kCheckpointMaxActiveLogs = 1024;

inline constexpr std::int64_t kCheckpointComplete = 0;
inline constexpr std::int64_t kCheckpointIncomplete = 1;

enum class CheckpointMarker { kComplete, kIncomplete, kUnknown };

// A data file's count of queue elements pointing into it (V2 header slots,
// V3 checkpoint.meta activeLogs).
struct ActiveLogCount {
  std::int32_t file_id = 0;
  std::int32_t count = 0;
  friend bool operator==(const ActiveLogCount&, const ActiveLogCount&) = default;
};

// V2 packs a count as (fileID << 32) + count; Flume unpacks it with >>> 32
// and (int), so these mirror its arithmetic exactly, borrow included.
std::int64_t pack_active_log_count(ActiveLogCount count);
ActiveLogCount unpack_active_log_count(std::int64_t packed);

class CheckpointFile {
 public:
  // Returns nullopt (with a checkpoint_length finding) only when the bytes
  // cannot hold the 1029 header longs. A length that is not
  // (capacity + 1029) * 8 for some capacity >= 1 is reported too, and then
  // capacity() is 0 (no ring) while slot() still reads every whole long.
  // Also reports checkpoint_version (not 2 or 3) and checkpoint_marker
  // (neither 0 nor 1). With the configured capacity, a file of another
  // capacity is reported as checkpoint_capacity, as Flume refuses it.
  static std::optional<CheckpointFile> decode(ByteSpan bytes, std::string_view file, Reporter* reporter,
                                              std::optional<std::size_t> expected_capacity = std::nullopt);

  std::int64_t version() const { return slot(kCheckpointVersionSlot); }
  std::int64_t write_order_id() const { return slot(kCheckpointWriteOrderIdSlot); }
  std::int64_t v2_size() const { return slot(kCheckpointV2SizeSlot); }  // raw: V3 ignores it
  std::int64_t v2_head() const { return slot(kCheckpointV2HeadSlot); }
  std::int64_t marker() const { return slot(kCheckpointMarkerSlot); }
  CheckpointMarker marker_state() const;

  bool length_ok() const { return capacity_ > 0; }
  bool version_ok() const { return version() == 2 || version() == 3; }
  std::size_t capacity() const { return capacity_; }
  std::size_t slot_count() const { return bytes_.size() / 8; }  // whole longs present

  // The long at physical slot `index`, header included; 0 past slot_count().
  std::int64_t slot(std::size_t index) const;
  static std::uint64_t slot_offset(std::size_t index) { return static_cast<std::uint64_t>(index) * 8; }

  // The non-empty V2 count slots, in slot order, each with its slot index.
  struct SlotCount {
    std::size_t slot = 0;
    ActiveLogCount count;
  };
  std::vector<SlotCount> v2_active_logs() const;

 private:
  CheckpointFile(ByteSpan bytes, std::size_t capacity) : bytes_(bytes), capacity_(capacity) {}

  ByteSpan bytes_;
  std::size_t capacity_ = 0;
};

// Where the queue's head and size come from (V2: the checkpoint header;
// V3: checkpoint.meta), so findings about them name the right file and
// offset.
struct RingPosition {
  std::int64_t head = 0;
  std::int64_t size = 0;
  std::string file;
  std::optional<std::uint64_t> head_offset;
  std::optional<std::uint64_t> size_offset;
};

RingPosition v2_ring_position(const CheckpointFile& checkpoint, std::string_view file);

struct RingElement {
  std::size_t slot = 0;  // physical slot index in the checkpoint (>= 1029)
  std::int64_t value = 0;
  EventPointer pointer;
};

class CheckpointRing {
 public:
  // Returns nullopt, with checkpoint_head / checkpoint_size findings
  // against position's file, unless the checkpoint has a ring and
  // 0 <= head < capacity and 0 <= size <= capacity.
  static std::optional<CheckpointRing> make(const CheckpointFile& checkpoint, const RingPosition& position,
                                            Reporter* reporter);

  std::size_t head() const { return head_; }
  std::size_t size() const { return size_; }
  // 1029 + (head + logical_index) mod capacity (FC getPhysicalIndex).
  std::size_t physical_slot(std::size_t logical_index) const;
  // Element `logical_index` (< size()); 0 is the queue head.
  RingElement at(std::size_t logical_index) const;

 private:
  CheckpointRing(const CheckpointFile& checkpoint, std::size_t head, std::size_t size)
      : checkpoint_(checkpoint), head_(head), size_(size) {}

  CheckpointFile checkpoint_;
  std::size_t head_;
  std::size_t size_;
};

// Reports elements of the queue Flume could not take: an empty slot
// (checkpoint_empty_element; Flume's removeHead fails its state check) and a
// pointer with a file ID below 1 or a negative offset (checkpoint_pointer).
void check_ring_elements(const CheckpointRing& ring, std::string_view file, Reporter* reporter);

struct CheckpointImage {
  std::int64_t version = 3;
  std::int64_t write_order_id = 0;
  std::int64_t marker = kCheckpointComplete;
  // Written only when version == 2; V3 leaves these slots zero.
  std::int64_t v2_size = 0;
  std::int64_t v2_head = 0;
  std::vector<ActiveLogCount> v2_active_logs;  // at most 1024, packed into slots 5..
  // The ring in physical order: slot 1029 + i holds slots[i]; its size is
  // the capacity.
  std::vector<std::int64_t> slots;
};

// The ring slots of a queue of capacity `capacity` whose element i sits at
// physical(i) from `head`; nullopt when capacity is 0, head is not below it,
// or there are more elements than slots.
std::optional<std::vector<std::int64_t>> place_in_ring(std::size_t capacity, std::size_t head,
                                                       const std::vector<EventPointer>& elements);

// The file's bytes; nullopt when there is no ring slot (Flume requires a
// capacity of at least 1) or more than 1024 active logs (Flume's V2 store
// fails with "Too many active logs").
std::optional<std::string> encode_checkpoint(const CheckpointImage& image);

}  // namespace qjt::flume
