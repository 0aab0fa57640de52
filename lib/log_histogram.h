// LogHistogram: the distribution of a stream of unsigned values (payload
// sizes, ages in milliseconds) kept in memory that does not grow with their
// number, and its quantiles.
//
// Why not keep the values and sort them: stats runs in the same pass as
// replay, over journals of tens of millions of records, and must cost
// replay little more than an increment per record. Log-scale buckets (as
// HdrHistogram's) bound both memory and the error, relative to the value.
//
// Contract:
//  - count(), sum() (saturating at UINT64_MAX), min() and max() are exact.
//  - The quantile of a fraction p/1000 is the value of nearest rank:
//    the ceil(p * count / 1000)-th smallest value (the first for p = 0).
//  - While count() <= kExactValues, quantiles are exact: the values are kept.
//  - Beyond, a value below kExactBelow has a bucket of its own, so its
//    quantiles stay exact; a larger value v, with 2^e <= v < 2^(e+1), falls
//    in one of kSubBuckets buckets of width 2^e / kSubBuckets, and the
//    quantile is its bucket's lower bound, raised to min(). So a reported
//    quantile r of the true quantile t satisfies r <= t < r + r / 32: at
//    most 1/32 (3.1%) below, never above.
//  - Memory: kExactValues values, dropped once exceeded, then one counter
//    per bucket up to max()'s (at most kBuckets: 15 KiB).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace qjt {

// What a distribution of values comes to: the figures stats shows of it.
// With count 0, the others are 0 and mean nothing.
struct Distribution {
  std::uint64_t count = 0;
  std::uint64_t sum = 0;
  std::uint64_t min = 0;
  std::uint64_t p50 = 0;
  std::uint64_t p90 = 0;
  std::uint64_t p99 = 0;
  std::uint64_t max = 0;

  bool operator==(const Distribution&) const = default;
};

class LogHistogram {
 public:
  static constexpr std::size_t kExactValues = 64;
  static constexpr unsigned kSubBucketBits = 5;
  static constexpr std::uint64_t kSubBuckets = std::uint64_t{1} << kSubBucketBits;
  static constexpr std::uint64_t kExactBelow = 2 * kSubBuckets;
  // kExactBelow buckets of one value, then kSubBuckets per power of two
  // from kExactBelow's to 2^63's.
  static constexpr std::size_t kBuckets = kExactBelow + (64 - (kSubBucketBits + 1)) * kSubBuckets;

  void add(std::uint64_t value);

  std::uint64_t count() const { return count_; }
  std::uint64_t sum() const { return sum_; }
  std::uint64_t min() const { return min_; }
  std::uint64_t max() const { return max_; }
  // The quantile of `per_mille` (0 to 1000) thousandths; 0 when empty.
  std::uint64_t quantile(unsigned per_mille) const;
  // count, sum, min, p50, p90, p99 and max.
  Distribution distribution() const;

 private:
  static std::size_t bucket_of(std::uint64_t value);
  static std::uint64_t lower_bound_of(std::size_t bucket);
  std::uint64_t exact_quantile(std::uint64_t rank) const;
  std::uint64_t bucket_quantile(std::uint64_t rank) const;

  std::uint64_t count_ = 0;
  std::uint64_t sum_ = 0;
  std::uint64_t min_ = 0;
  std::uint64_t max_ = 0;
  std::vector<std::uint64_t> values_;   // every value, while count_ <= kExactValues
  std::vector<std::uint64_t> buckets_;  // counts, up to max_'s bucket
};

}  // namespace qjt
