// Record: one decoded record of a libkestrel segment or bookmark.
//
// Item data and READ_DONE ids are views into the input; a record never
// owns bytes read from a file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "byte_span.h"
#include "libkestrel/libkestrel_format.h"

namespace qjt::libkestrel {

struct Record {
  Op op = Op::kEndOfFile;
  std::uint64_t offset = 0;  // of the command byte (END_OF_FILE: where the data ends)
  std::uint64_t length = 0;  // encoded bytes; BROKEN: bytes from offset to end of file

  std::int64_t id = 0;                    // PUT: the item id; READ_HEAD: the head
  std::int32_t error_count = 0;           // PUT
  std::int64_t add_time_ms = 0;           // PUT
  std::optional<std::int64_t> expiry_ms;  // PUT: absent in a 0x86 record
  ByteSpan data;                          // PUT: the item; READ_DONE: the ids, 8 bytes each
  std::uint8_t command = 0;               // UNKNOWN: the 4-bit command number
  std::string error;                      // BROKEN: what was expected and what was found

  std::size_t done_count() const { return data.size() / 8; }
  std::int64_t done_id(std::size_t i) const {
    std::int64_t id_value = 0;
    ByteReader(data, i * 8).read_i64_le(&id_value);
    return id_value;
  }
};

}  // namespace qjt::libkestrel
