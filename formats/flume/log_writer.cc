#include "flume/log_writer.h"

#include "crc32.h"

#include "flume/protobuf_wire.h"

namespace qjt::flume {
namespace {

constexpr std::size_t kV3Framing = 5;  // OP byte + int32 length
constexpr std::uint64_t kTransactionHeaderSize = 23;
constexpr std::uint64_t kTagField1Delimited = 0x0A;  // field 1, wire type 2

std::size_t varint_size(std::uint64_t value) {
  std::size_t n = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++n;
  }
  return n;
}

// A length-delimited field's size on the wire, for a one-byte tag.
std::size_t delimited_field_size(std::size_t content) { return 1 + varint_size(content) + content; }

std::size_t event_header_size(const HeaderToWrite& header) {
  return delimited_field_size(header.key.size()) + (header.value ? delimited_field_size(header.value->size()) : 0);
}

void append_be(std::string* out, std::uint64_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out->push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

void write_be32_at(std::string* out, std::size_t at, std::uint32_t value) {
  for (std::size_t i = 0; i < 4; ++i) (*out)[at + i] = static_cast<char>((value >> (8 * (3 - i))) & 0xFF);
}

void append_v2_prefix(std::string* out, std::int16_t type, std::int64_t transaction_id, std::int64_t write_order_id) {
  out->push_back(static_cast<char>(kOpRecord));
  append_be(out, 0xDEADBEEF, 4);
  append_be(out, static_cast<std::uint16_t>(type), 2);
  append_be(out, static_cast<std::uint64_t>(transaction_id), 8);
  append_be(out, static_cast<std::uint64_t>(write_order_id), 8);
}

// Hadoop Text as FlumeEvent.write puts it in its map: the Text type id
// (0x8C, -116), a VInt byte count, the bytes.
void append_v2_text(std::string* out, std::string_view text) {
  out->push_back(static_cast<char>(0x8C));
  append_hadoop_vlong(out, static_cast<std::int64_t>(text.size()));
  out->append(text);
}

}  // namespace

// 0x7F, a length placeholder, and the delimited TransactionEventHeader.
// Returns where the record starts in *out.
std::size_t V3RecordWriter::begin(std::string* out, std::int64_t transaction_id, std::int64_t write_order_id,
                                  std::int32_t type) {
  const std::size_t start = out->size();
  out->push_back(static_cast<char>(kOpRecord));
  out->append(4, '\0');
  WireWriter wire(out);
  wire.varint(kTransactionHeaderSize);
  wire.fixed32(1, static_cast<std::uint32_t>(type));
  wire.fixed64(2, static_cast<std::uint64_t>(transaction_id));
  wire.fixed64(3, static_cast<std::uint64_t>(write_order_id));
  return start;
}

// Appends the empty footer, fills in the length and encrypts the payload in
// place (CTR keeps the length).
bool V3RecordWriter::finish(std::string* out, std::size_t record_start) {
  out->push_back('\0');
  const std::size_t length = out->size() - record_start - kV3Framing;
  write_be32_at(out, record_start + 1, static_cast<std::uint32_t>(length));
  if (encryptor_ == nullptr) return true;
  auto* payload = reinterpret_cast<std::uint8_t*>(out->data() + record_start + kV3Framing);
  if (encryptor_->apply(payload, length, payload)) return true;
  out->resize(record_start);
  return false;
}

bool V3RecordWriter::put(std::string* out, std::int64_t transaction_id, std::int64_t write_order_id,
                         std::span<const HeaderToWrite> headers, std::string_view body, PutChecksum checksum) {
  // Sizes first, so the nested messages are written straight into *out.
  std::size_t event_size = delimited_field_size(body.size());
  for (const HeaderToWrite& header : headers) event_size += delimited_field_size(event_header_size(header));
  const std::size_t put_size = delimited_field_size(event_size) + (checksum == PutChecksum::kPresent ? 9 : 0);

  const std::size_t start = begin(out, transaction_id, write_order_id, 1);
  WireWriter wire(out);
  wire.varint(put_size);
  wire.varint(kTagField1Delimited);
  wire.varint(event_size);
  for (const HeaderToWrite& header : headers) {
    wire.varint(kTagField1Delimited);
    wire.varint(event_header_size(header));
    wire.bytes(1, header.key);
    if (header.value) wire.bytes(2, *header.value);
  }
  wire.bytes(2, body);
  if (checksum == PutChecksum::kPresent) {
    wire.fixed64(2, crc32_ieee(ByteSpan(body)));
  }
  return finish(out, start);
}

bool V3RecordWriter::take(std::string* out, std::int64_t transaction_id, std::int64_t write_order_id,
                          EventPointer taken) {
  const std::size_t start = begin(out, transaction_id, write_order_id, 2);
  WireWriter wire(out);
  wire.varint(10);
  wire.fixed32(1, static_cast<std::uint32_t>(taken.file_id));
  wire.fixed32(2, static_cast<std::uint32_t>(taken.offset));
  return finish(out, start);
}

bool V3RecordWriter::rollback(std::string* out, std::int64_t transaction_id, std::int64_t write_order_id) {
  const std::size_t start = begin(out, transaction_id, write_order_id, 3);
  out->push_back('\0');  // Rollback {}
  return finish(out, start);
}

bool V3RecordWriter::commit(std::string* out, std::int64_t transaction_id, std::int64_t write_order_id,
                            std::int16_t commit_type) {
  const std::size_t start = begin(out, transaction_id, write_order_id, 4);
  WireWriter wire(out);
  wire.varint(5);
  // Java widens the short to the int32 field: sign-extended.
  wire.fixed32(1, static_cast<std::uint32_t>(static_cast<std::int32_t>(commit_type)));
  return finish(out, start);
}

void append_v2_log_header(std::string* out, const V2LogHeader& header) {
  append_be(out, static_cast<std::uint32_t>(header.version), 4);
  append_be(out, static_cast<std::uint32_t>(header.file_id), 4);
  append_be(out, static_cast<std::uint64_t>(header.checkpoint_position), 8);
  append_be(out, static_cast<std::uint64_t>(header.checkpoint_write_order_id), 8);
}

void append_v2_put(std::string* out, std::int64_t transaction_id, std::int64_t write_order_id,
                   std::span<const HeaderToWrite> headers, std::optional<std::string_view> body) {
  append_v2_prefix(out, 1, transaction_id, write_order_id);
  out->push_back('\0');  // no new classes in the map's class table
  append_be(out, static_cast<std::uint32_t>(headers.size()), 4);
  for (const HeaderToWrite& header : headers) {
    append_v2_text(out, header.key);
    append_v2_text(out, header.value.value_or(std::string_view()));
  }
  if (!body) {
    append_be(out, 0xFFFFFFFFu, 4);
    return;
  }
  append_be(out, static_cast<std::uint32_t>(body->size()), 4);
  out->append(*body);
}

void append_v2_take(std::string* out, std::int64_t transaction_id, std::int64_t write_order_id, EventPointer taken) {
  append_v2_prefix(out, 2, transaction_id, write_order_id);
  append_be(out, static_cast<std::uint32_t>(taken.offset), 4);  // Take.write: offset, then fileID
  append_be(out, static_cast<std::uint32_t>(taken.file_id), 4);
}

void append_v2_rollback(std::string* out, std::int64_t transaction_id, std::int64_t write_order_id) {
  append_v2_prefix(out, 3, transaction_id, write_order_id);
}

void append_v2_commit(std::string* out, std::int64_t transaction_id, std::int64_t write_order_id,
                      std::int16_t commit_type) {
  append_v2_prefix(out, 4, transaction_id, write_order_id);
  append_be(out, static_cast<std::uint16_t>(commit_type), 2);
}

void append_hadoop_vlong(std::string* out, std::int64_t value) {
  if (value >= -112 && value <= 127) {
    out->push_back(static_cast<char>(static_cast<std::int8_t>(value)));
    return;
  }
  int length = -112;
  auto magnitude = static_cast<std::uint64_t>(value);
  if (value < 0) {
    magnitude = ~magnitude;  // one's complement, as writeVLong's i ^= -1L
    length = -120;
  }
  for (std::uint64_t rest = magnitude; rest != 0; rest >>= 8) --length;
  out->push_back(static_cast<char>(static_cast<std::int8_t>(length)));
  const int bytes = length < -120 ? -(length + 120) : -(length + 112);
  append_be(out, magnitude, bytes);
}

}  // namespace qjt::flume
