// flume_checkpoint_meta: a checkpoint.meta (a protobuf Checkpoint message).
// A valid decode must encode to a message that decodes to the same values.
#include "flume/checkpoint_meta.h"
#include "flume_fuzz.h"

using namespace qjt;
using namespace qjt::flume;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const ByteSpan file = fuzz::bytes(data, size);
  fuzz::RenderingReporter reporter;
  (void)fuzz::flume_dump("checkpoint.meta", file, FileKind::kCheckpointMeta, &reporter);
  const CheckpointMetaDecode decoded = decode_checkpoint_meta(file, "checkpoint.meta", &reporter);
  (void)meta_ring_position(decoded, "checkpoint.meta");
  if (!decoded.valid) return 0;
  const std::string encoded = encode_checkpoint_meta(decoded.meta);
  const CheckpointMetaDecode again = decode_checkpoint_meta(ByteSpan(encoded), "again", &reporter);
  FUZZ_CHECK(again.valid);
  FUZZ_CHECK(again.meta == decoded.meta);
  return 0;
}
