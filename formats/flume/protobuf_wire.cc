#include "flume/protobuf_wire.h"

#include <fmt/format.h>

namespace qjt::flume {

std::size_t read_varint(ByteSpan data, std::uint64_t* value) {
  if (!data.empty() && data[0] < 0x80) {  // most tags and lengths
    *value = data[0];
    return 1;
  }
  std::uint64_t result = 0;
  for (std::size_t i = 0; i < data.size() && i < 10; ++i) {
    result |= static_cast<std::uint64_t>(data[i] & 0x7F) << (7 * i);
    if ((data[i] & 0x80) == 0) {
      *value = result;
      return i + 1;
    }
  }
  return 0;
}

bool WireReader::fail(std::size_t offset, std::string message) {
  error_offset_ = offset;
  error_ = std::move(message);
  position_ = message_.size();
  return false;
}

bool WireReader::next(WireField* field) {
  if (position_ >= message_.size()) return false;
  const std::size_t start = position_;
  std::uint64_t key = 0;
  const std::size_t key_size = read_varint(message_.subspan(start), &key);
  if (key_size == 0) return fail(start, "expected a field tag (varint), found a truncated one");
  const auto wire_type = static_cast<unsigned>(key & 7);
  const std::uint64_t number = key >> 3;
  if (number == 0 || number > 0x1FFFFFFF)
    return fail(start, fmt::format("expected a field number from 1, found {}", number));
  field->number = static_cast<std::uint32_t>(number);
  field->offset = start;
  field->bytes = ByteSpan();
  std::size_t at = start + key_size;
  const ByteSpan rest = message_.subspan(at);
  switch (wire_type) {
    case 0: {
      const std::size_t n = read_varint(rest, &field->value);
      if (n == 0) return fail(start, fmt::format("field {}: expected a varint, found a truncated one", number));
      at += n;
      break;
    }
    case 1:
    case 5: {
      const std::size_t width = wire_type == 1 ? 8 : 4;
      if (rest.size() < width)
        return fail(start, fmt::format("field {}: expected {} bytes of fixed{}, found {}", number, width, width * 8,
                                       rest.size()));
      field->value = 0;
      for (std::size_t i = 0; i < width; ++i) field->value |= static_cast<std::uint64_t>(rest[i]) << (8 * i);
      at += width;
      break;
    }
    case 2: {
      std::uint64_t length = 0;
      const std::size_t n = read_varint(rest, &length);
      if (n == 0)
        return fail(start, fmt::format("field {}: expected a length (varint), found a truncated one", number));
      if (length > rest.size() - n)
        return fail(start, fmt::format("field {}: expected {} bytes, found {}", number, length, rest.size() - n));
      field->bytes = rest.subspan(n, static_cast<std::size_t>(length));
      field->value = length;
      at += n + static_cast<std::size_t>(length);
      break;
    }
    default:
      return fail(start, fmt::format("field {}: expected wire type 0, 1, 2 or 5, found {}", number, wire_type));
  }
  field->type = static_cast<WireType>(wire_type);
  position_ = at;
  return true;
}

bool read_delimited(ByteSpan data, ByteSpan* message, std::size_t* consumed, std::string* error) {
  std::uint64_t length = 0;
  const std::size_t n = read_varint(data, &length);
  if (n == 0) {
    *error = data.empty() ? "expected a varint length prefix, found no bytes"
                          : "expected a varint length prefix, found a truncated one";
    return false;
  }
  if (length > data.size() - n) {
    *error = fmt::format("expected a message of {} bytes after the length prefix, found {}", length, data.size() - n);
    return false;
  }
  *message = data.subspan(n, static_cast<std::size_t>(length));
  *consumed = n + static_cast<std::size_t>(length);
  return true;
}

void WireWriter::varint(std::uint64_t value) {
  while (value >= 0x80) {
    out_->push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out_->push_back(static_cast<char>(value));
}

void WireWriter::tag(std::uint32_t number, WireType type) {
  varint((static_cast<std::uint64_t>(number) << 3) | static_cast<std::uint64_t>(type));
}

void WireWriter::fixed32(std::uint32_t number, std::uint32_t value) {
  tag(number, WireType::kFixed32);
  for (int i = 0; i < 4; ++i) out_->push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

void WireWriter::fixed64(std::uint32_t number, std::uint64_t value) {
  tag(number, WireType::kFixed64);
  for (int i = 0; i < 8; ++i) out_->push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

void WireWriter::bytes(std::uint32_t number, std::string_view content) {
  tag(number, WireType::kLengthDelimited);
  varint(content.size());
  out_->append(content);
}

std::string delimited(std::string_view message) {
  std::string out;
  WireWriter(&out).varint(message.size());
  out.append(message);
  return out;
}

}  // namespace qjt::flume
