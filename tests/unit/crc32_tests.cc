// lib/crc32.h against zlib's crc32_z, the CRC-32 java.util.zip.CRC32 and
// Flume compute: the same value for every length from 0 to 4 KiB at every
// alignment a vector load can meet.
#include <doctest/doctest.h>
#include <zlib.h>

#include <cstdint>
#include <random>
#include <vector>

#include "crc32.h"

namespace qjt {
namespace {

TEST_CASE("crc32_ieee: java.util.zip.CRC32's value for every length to 4 KiB, at every alignment") {
  constexpr std::size_t kMaxLength = 4096, kAlignments = 64;
  std::vector<std::uint8_t> bytes(kMaxLength + kAlignments);
  std::mt19937 random(20261207);
  for (auto& b : bytes) b = static_cast<std::uint8_t>(random());
  std::size_t disagreements = 0;
  for (std::size_t align = 0; align < kAlignments; ++align)
    for (std::size_t length = 0; length <= kMaxLength; ++length) {
      const std::uint8_t* start = bytes.data() + align;
      if (crc32_ieee(ByteSpan(start, length)) != crc32_z(0, start, length)) ++disagreements;
    }
  CHECK(disagreements == 0);
}

TEST_CASE("crc32_ieee: the check value of CRC-32/ISO-HDLC") {
  CHECK(crc32_ieee(ByteSpan(std::string_view("123456789"))) == 0xCBF43926u);
  CHECK(crc32_ieee(ByteSpan(std::string_view(""))) == 0u);
}

}  // namespace
}  // namespace qjt
