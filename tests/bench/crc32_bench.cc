// qjt_crc32_bench: the CRC-32 of Flume's event bodies, zlib's crc32_z
// against lib/crc32.h (libdeflate), in GB/s (10^9 bytes a second) over
// bodies of 1 KiB and of 1 MiB, the fastest of 5 rounds each. Run by
// tests/bench/bench.sh flume, which prints both: the reason qjt takes the
// one it takes.
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "crc32.h"

namespace {

constexpr std::size_t kBytes = 64u << 20;  // per round

template <class Crc>
double gigabytes_per_second(const std::vector<std::uint8_t>& buffer, std::size_t body, Crc crc) {
  double best = 0;
  std::uint32_t sink = 0;
  for (int round = 0; round < 5; ++round) {
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t done = 0; done < kBytes; done += body)
      sink ^= crc(buffer.data() + done % (buffer.size() - body + 1), body);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    best = std::max(best, static_cast<double>(kBytes) / took.count() / 1e9);
  }
  if (sink == 0x12345678u) std::puts("");  // keeps the work
  return best;
}

}  // namespace

int main() {
  std::vector<std::uint8_t> buffer(4u << 20);
  std::uint32_t x = 2463534242u;
  for (auto& b : buffer) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    b = static_cast<std::uint8_t>(x);
  }
  const auto zlib = [](const std::uint8_t* p, std::size_t n) { return static_cast<std::uint32_t>(crc32_z(0, p, n)); };
  const auto qjt = [](const std::uint8_t* p, std::size_t n) { return qjt::crc32_ieee(qjt::ByteSpan(p, n)); };
  for (const std::size_t body : {std::size_t{1024}, std::size_t{1} << 20})
    std::printf("crc32 %zu-byte bodies: zlib crc32_z %.2f GB/s, libdeflate (qjt) %.2f GB/s\n", body,
                gigabytes_per_second(buffer, body, zlib), gigabytes_per_second(buffer, body, qjt));
  return 0;
}
