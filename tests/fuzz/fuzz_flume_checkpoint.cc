// flume_checkpoint: a Flume checkpoint file (the memory-mapped queue).
// Decodes it, walks the V2 active-log slots and every ring element from the
// head, checks them, and dumps the file as JSON Lines.
//
// A checkpoint's header alone is 8232 bytes, mostly the 1024 zero slots of
// V2's active-log counts, so the input is the file without them: slots 0..4
// (40 bytes), one byte N, N active-log slots, then the ring. expand() puts
// the zeros back. An input shorter than 41 bytes is the file as it is.
#include <algorithm>
#include <string>

#include "flume/checkpoint_file.h"
#include "flume_fuzz.h"

using namespace qjt;
using namespace qjt::flume;

namespace {

std::string expand(std::string_view input) {
  constexpr std::size_t kHead = kCheckpointFirstActiveLogSlot * 8;
  if (input.size() <= kHead) return std::string(input);
  const std::size_t given =
      std::min<std::size_t>(static_cast<std::uint8_t>(input[kHead]) * 8, input.size() - kHead - 1);
  std::string file(input.substr(0, kHead));
  file.append(input.substr(kHead + 1, given));
  file.resize(kCheckpointHeaderSlots * 8, '\0');
  file.append(input.substr(kHead + 1 + given));
  return file;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes = expand(fuzz::text(data, size));
  const ByteSpan file(bytes);
  fuzz::RenderingReporter reporter;
  (void)fuzz::flume_dump("checkpoint", file, FileKind::kCheckpoint, &reporter);
  const auto checkpoint = CheckpointFile::decode(file, "checkpoint", &reporter);
  if (!checkpoint) return 0;
  (void)checkpoint->marker_state();
  for (const auto& slot : checkpoint->v2_active_logs()) FUZZ_CHECK(slot.slot < checkpoint->slot_count());
  const auto ring = CheckpointRing::make(*checkpoint, v2_ring_position(*checkpoint, "checkpoint"), &reporter);
  if (!ring) return 0;
  for (std::size_t i = 0; i < ring->size(); ++i) {
    FUZZ_CHECK(ring->at(i).slot < checkpoint->slot_count());
  }
  check_ring_elements(*ring, "checkpoint", &reporter);
  return 0;
}
