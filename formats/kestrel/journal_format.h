// The classic Kestrel journal format (Kestrel 0.8 to 2.4), as a set of
// constants. See README.md in this folder for the byte layout; spec
// sections are cited there.
//
// A journal is a bare concatenation of records: one opcode byte, then the
// opcode's fields, all integers little-endian, no header, no checksum.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace qjt::kestrel {

// One value per opcode byte, plus the two records the reader synthesises at
// the end of every file.
enum class RecordType : std::uint8_t {
  kAdd = 0x00,  // legacy starling ADD: i32 size, i32 expiry (s), data
  kRemove = 0x01,
  kAddX = 0x02,                // i32 size, i64 add time (ms), i64 expiry (ms), data
  kRemoveTentative = 0x03,     // legacy: no xid
  kSaveXid = 0x04,             // i32 xid
  kUnremove = 0x05,            // i32 xid
  kConfirmRemove = 0x06,       // i32 xid
  kAddXid = 0x07,              // i32 xid, then an ADDX block
  kContinue = 0x08,            // i32 xid, then an ADDX block
  kRemoveTentativeXid = 0x09,  // i32 xid
  kEndOfFile = 0xFE,           // clean end at a record boundary
  kBroken = 0xFF,              // the first record that cannot be decoded
};

inline constexpr std::uint8_t kMaxOpcode = 0x09;

// Item block: i64 add time + i64 expiry precede the data.
inline constexpr std::int32_t kItemBlockHeader = 16;
// Legacy ADD block: i32 expiry in seconds precedes the data.
inline constexpr std::int32_t kLegacyBlockHeader = 4;

// Encoded size of an ADDX record carrying `payload_size` bytes.
inline constexpr std::uint64_t addx_record_size(std::uint64_t payload_size) { return 1 + 4 + 16 + payload_size; }
inline constexpr std::uint64_t kXidRecordSize = 5;

// "ADD", "REMOVE", ..., "END_OF_FILE", "BROKEN".
std::string_view record_type_name(RecordType type);
std::optional<RecordType> parse_record_type(std::string_view name);

// Records that put an item on the queue and so carry an item block.
// Inline: stats asks it of every record (record_tally.h).
inline constexpr bool carries_item(RecordType type) {
  return type == RecordType::kAdd || type == RecordType::kAddX || type == RecordType::kAddXid ||
         type == RecordType::kContinue;
}

// Records with an xid field.
bool carries_xid(RecordType type);

}  // namespace qjt::kestrel
