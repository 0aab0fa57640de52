// The Protocol Buffers wire format, as far as Flume's file channel uses it
// (proto2 messages of varints, sfixed32/sfixed64 and length-delimited
// fields; filechannel.proto), read and written without a protobuf library.
//
// Contract: WireReader walks the fields of one message held in a ByteSpan,
// never copies or allocates, and stops at the first malformed field with a
// sentence in error() and the message-relative offset of the field's tag in
// error_offset(). Lengths are checked against the bytes present before they
// are used, so a huge length field is an error, not an allocation.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "byte_span.h"

namespace qjt::flume {

enum class WireType : std::uint8_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

struct WireField {
  std::uint32_t number = 0;
  WireType type = WireType::kVarint;
  std::uint64_t value = 0;  // varint, fixed32 or fixed64 value (little-endian decoded)
  ByteSpan bytes;           // the content of a length-delimited field
  std::size_t offset = 0;   // of the field's tag, relative to the message start
};

class WireReader {
 public:
  explicit WireReader(ByteSpan message) : message_(message) {}

  // The next field; false at the end of the message or on a malformed field
  // (then error() is non-empty).
  bool next(WireField* field);

  const std::string& error() const { return error_; }
  std::size_t error_offset() const { return error_offset_; }

 private:
  bool fail(std::size_t offset, std::string message);

  ByteSpan message_;
  std::size_t position_ = 0;
  std::string error_;
  std::size_t error_offset_ = 0;
};

// A base-128 varint at the start of `data` (at most 10 bytes). Returns the
// bytes it takes, or 0 when it is truncated or longer than 10 bytes.
std::size_t read_varint(ByteSpan data, std::uint64_t* value);

// A message written by Java's writeDelimitedTo: a varint byte count, then
// the message. On success *message views it and *consumed is the total size;
// on failure *error says what was wrong (offsets relative to `data`).
bool read_delimited(ByteSpan data, ByteSpan* message, std::size_t* consumed, std::string* error);

// Appends fields in the order called, as protobuf-java writes them (in field
// number order when the caller calls in that order).
class WireWriter {
 public:
  explicit WireWriter(std::string* out) : out_(out) {}

  void varint(std::uint64_t value);
  void fixed32(std::uint32_t number, std::uint32_t value);
  void fixed64(std::uint32_t number, std::uint64_t value);
  void bytes(std::uint32_t number, std::string_view content);

 private:
  void tag(std::uint32_t number, WireType type);
  std::string* out_;
};

// varint(message.size()) + message: writeDelimitedTo.
std::string delimited(std::string_view message);

}  // namespace qjt::flume
