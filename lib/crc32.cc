#include "crc32.h"

#include <libdeflate.h>

namespace qjt {

std::uint32_t crc32_ieee(ByteSpan bytes) { return libdeflate_crc32(0, bytes.data(), bytes.size()); }

}  // namespace qjt
