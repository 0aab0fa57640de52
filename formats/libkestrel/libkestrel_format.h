// The libkestrel journal format (Kestrel 3), as constants: the two file
// magics, the command numbers and the record names. See README.md in this
// folder, "Kestrel 3 (libkestrel)"; spec sections (§5.x) are cited there.
//
// Both file kinds are a 4-byte big-endian magic, then records: one command
// byte (command in the high nibble, header size in 32-bit words in the low
// nibble), the header words, then, for commands 8 and up, a data block whose
// byte count is the first header word. Integers after the magic are
// little-endian.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "byte_span.h"

namespace qjt::libkestrel {

inline constexpr std::uint32_t kSegmentMagic = 0x27642603;   // writer segment Q.<n>
inline constexpr std::uint32_t kBookmarkMagic = 0x263C2603;  // reader bookmark Q.read.<name>

// What a file is, told by its first four bytes and never by its name: a
// file without either magic (a 0-byte file included) is a classic journal.
enum class FileKind { kClassic, kSegment, kBookmark };
FileKind file_kind(ByteSpan bytes);
// The same from the file's first bytes on disk; kClassic when unreadable.
FileKind file_kind_of(const std::string& path);

inline constexpr std::uint8_t kCmdReadHead = 0;  // bookmark: i64 head id
inline constexpr std::uint8_t kCmdPut = 8;       // segment: an item
inline constexpr std::uint8_t kCmdReadDone = 9;  // bookmark: ids done beyond the head
// Commands from this one up carry a data block sized by their first header word.
inline constexpr std::uint8_t kFirstDataCommand = 8;
// libkestrel's Record.LARGEST_DATA: larger items are refused on write and
// on read.
inline constexpr std::int32_t kLargestData = 16 << 20;

// PUT header words: data size, error count, id (2), add time (2), and the
// expiry (2) when present.
inline constexpr std::uint8_t kPutWords = 6;
inline constexpr std::uint8_t kPutWordsWithExpiry = 8;

enum class Op : std::uint8_t { kPut, kReadHead, kReadDone, kUnknown, kEndOfFile, kBroken };

// "PUT", "READ_HEAD", "READ_DONE", "UNKNOWN", "END_OF_FILE", "BROKEN".
std::string_view op_name(Op op);

}  // namespace qjt::libkestrel
