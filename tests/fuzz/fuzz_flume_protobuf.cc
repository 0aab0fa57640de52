// flume_protobuf: the protobuf wire reader. Walks every field of the input
// as a message, and of each length-delimited field as a nested message;
// then reads the input as a sequence of varint-delimited messages.
// Re-encoding a length-delimited field must give back the same bytes.
#include "flume/protobuf_wire.h"
#include "fuzz_support.h"

using namespace qjt;
using namespace qjt::flume;

namespace {

void walk(ByteSpan message, int depth) {
  WireReader reader(message);
  WireField field;
  while (reader.next(&field)) {
    FUZZ_CHECK(field.offset < message.size());
    if (field.type != WireType::kLengthDelimited) continue;
    FUZZ_CHECK(field.bytes.size() <= message.size());
    std::string out;
    WireWriter(&out).bytes(field.number, field.bytes.as_chars());
    WireReader back{ByteSpan(out)};
    WireField again;
    FUZZ_CHECK(back.next(&again));
    FUZZ_CHECK(again.number == field.number && again.bytes.as_chars() == field.bytes.as_chars());
    if (depth < 4) walk(field.bytes, depth + 1);
  }
  (void)reader.error();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const ByteSpan input = fuzz::bytes(data, size);
  walk(input, 0);
  ByteSpan rest = input;
  ByteSpan message;
  std::size_t consumed = 0;
  std::string error;
  while (!rest.empty() && read_delimited(rest, &message, &consumed, &error)) {
    FUZZ_CHECK(consumed > 0 && consumed <= rest.size());
    FUZZ_CHECK(delimited(message.as_chars()).size() <= consumed);
    rest = rest.subspan(consumed);
  }
  return 0;
}
