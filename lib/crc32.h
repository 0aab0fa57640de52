// CRC-32 as java.util.zip.CRC32 computes it (IEEE 802.3: polynomial
// 0xEDB88320 reflected, initial and final XOR 0xFFFFFFFF), the checksum
// Flume stores with each event body.
//
// Computed by libdeflate, whose carry-less-multiply CRC runs at several
// GB/s where zlib 1.2.13's bytewise-braided crc32_z runs at one to three
// (tests/bench/crc32_bench measures both; README "Benchmarks"). The two
// agree on every input (tests/unit/crc32_tests.cc).
#pragma once

#include <cstdint>

#include "byte_span.h"

namespace qjt {

std::uint32_t crc32_ieee(ByteSpan bytes);

}  // namespace qjt
