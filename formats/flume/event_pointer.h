// EventPointer: where a Put record lives, as Flume's FlumeEventPointer packs
// it into one checkpoint slot: (long)fileID << 32 | offset of the record's
// OP byte in log-<fileID> (spec §1.2). 0 marks an empty slot.
#pragma once

#include <compare>
#include <cstdint>

namespace qjt::flume {

struct EventPointer {
  std::int32_t file_id = 0;
  std::int32_t offset = 0;

  static EventPointer from_long(std::int64_t packed) {
    const auto bits = static_cast<std::uint64_t>(packed);
    return EventPointer{static_cast<std::int32_t>(bits >> 32), static_cast<std::int32_t>(bits & 0xFFFFFFFFu)};
  }
  std::int64_t to_long() const {
    return static_cast<std::int64_t>((static_cast<std::uint64_t>(static_cast<std::uint32_t>(file_id)) << 32) |
                                     static_cast<std::uint32_t>(offset));
  }
  friend auto operator<=>(const EventPointer&, const EventPointer&) = default;
};

}  // namespace qjt::flume
