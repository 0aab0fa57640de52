// Deterministic pseudo-random data for the generators of `qjt gen`
// (formats/<family>/*_generator): the same seed gives the same numbers and
// bytes on any machine, since nothing here uses std's distributions.
#pragma once

#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include <fmt/format.h>

namespace qjt {

// xoshiro256** seeded through splitmix64: fixed across platforms and
// standard libraries, unlike std's distributions.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) {
    for (auto& word : s_) {
      seed += 0x9E3779B97F4A7C15ULL;
      std::uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      word = z ^ (z >> 31);
    }
  }
  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform enough in [0, n) for n > 0 (the modulo bias is below 2^-32 for
  // the bounds used here, and determinism is what matters).
  std::uint64_t below(std::uint64_t n) { return next() % n; }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

// Payload bytes: a fixed pseudo-random pattern, read cyclically from a
// random offset; text payloads start with the item's number.
class PayloadMaker {
 public:
  PayloadMaker(std::uint64_t seed, bool binary) : binary_(binary) {
    static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    Rng rng(seed ^ 0x5061796C6F616473ULL);
    pattern_.resize(kPatternSize);
    for (auto& c : pattern_) {
      const std::uint64_t r = rng.next();
      c = binary ? static_cast<char>(r & 0xFF) : kAlphabet[r & 63];
    }
  }

  void make(std::uint64_t item, std::size_t size, std::size_t offset, std::string* out) const {
    out->clear();
    if (!binary_) {
      const std::string header = fmt::format("#{} ", item);
      out->append(header, 0, std::min(size, header.size()));
    }
    offset %= kPatternSize;
    while (out->size() < size) {
      const std::size_t n = std::min(size - out->size(), kPatternSize - offset);
      out->append(pattern_, offset, n);
      offset = 0;
    }
  }

  static constexpr std::size_t kPatternSize = 1 << 16;

 private:
  bool binary_;
  std::string pattern_;
};

// The damage of `gen --corrupt`, done to a file gen wrote: the byte at
// `offset` XORed with `flip_mask`, or without a mask the file cut to
// `offset` bytes; then fsynced. False with *error naming the file.
inline bool damage_file(const std::string& path, std::uint64_t offset, std::optional<std::uint8_t> flip_mask,
                        std::string* error) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    *error = fmt::format("cannot open {}: {}", path, std::strerror(errno));
    return false;
  }
  bool ok = true;
  if (flip_mask) {
    std::uint8_t byte = 0;
    const auto off = static_cast<off_t>(offset);
    ok = ::pread(fd, &byte, 1, off) == 1;
    byte = static_cast<std::uint8_t>(byte ^ *flip_mask);
    ok = ok && ::pwrite(fd, &byte, 1, off) == 1;
  } else {
    ok = ::ftruncate(fd, static_cast<off_t>(offset)) == 0;
  }
  ok = ok && ::fsync(fd) == 0;
  if (!ok) *error = fmt::format("cannot damage {}: {}", path, std::strerror(errno));
  ::close(fd);
  return ok;
}

}  // namespace qjt
