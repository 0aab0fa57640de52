#include "log_histogram.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace qjt {

std::size_t LogHistogram::bucket_of(std::uint64_t value) {
  if (value < kExactBelow) return value;
  const unsigned exponent = static_cast<unsigned>(std::bit_width(value)) - 1;  // at least kSubBucketBits + 1
  const unsigned shift = exponent - kSubBucketBits;
  const std::uint64_t sub_bucket = (value >> shift) - kSubBuckets;  // the bits below the top one
  return kExactBelow + (exponent - (kSubBucketBits + 1)) * kSubBuckets + sub_bucket;
}

std::uint64_t LogHistogram::lower_bound_of(std::size_t bucket) {
  if (bucket < kExactBelow) return bucket;
  const std::size_t above = bucket - kExactBelow;
  const unsigned shift = static_cast<unsigned>(above / kSubBuckets) + 1;
  return (kSubBuckets + above % kSubBuckets) << shift;
}

void LogHistogram::add(std::uint64_t value) {
  min_ = count_ == 0 ? value : std::min(min_, value);
  max_ = std::max(max_, value);
  sum_ = value > std::numeric_limits<std::uint64_t>::max() - sum_ ? std::numeric_limits<std::uint64_t>::max()
                                                                  : sum_ + value;
  ++count_;
  if (count_ <= kExactValues) {
    values_.push_back(value);
  } else if (!values_.empty()) {
    std::vector<std::uint64_t>().swap(values_);  // its memory goes too
  }
  const std::size_t bucket = bucket_of(value);
  if (bucket >= buckets_.size()) buckets_.resize(bucket + 1);
  ++buckets_[bucket];
}

std::uint64_t LogHistogram::exact_quantile(std::uint64_t rank) const {
  std::vector<std::uint64_t> sorted = values_;
  const auto nth = sorted.begin() + static_cast<std::ptrdiff_t>(rank - 1);
  std::nth_element(sorted.begin(), nth, sorted.end());
  return *nth;
}

std::uint64_t LogHistogram::bucket_quantile(std::uint64_t rank) const {
  std::uint64_t seen = 0;
  for (std::size_t bucket = 0; bucket < buckets_.size(); ++bucket) {
    seen += buckets_[bucket];
    if (seen >= rank) return std::max(lower_bound_of(bucket), min_);
  }
  return max_;  // not reached: the buckets count every value
}

std::uint64_t LogHistogram::quantile(unsigned per_mille) const {
  if (count_ == 0) return 0;
  per_mille = std::min(per_mille, 1000U);
  // ceil(per_mille * count_ / 1000) without overflow, and at least 1.
  const std::uint64_t rank = (count_ / 1000) * per_mille + ((count_ % 1000) * per_mille + 999) / 1000;
  const std::uint64_t at_least_first = std::max<std::uint64_t>(rank, 1);
  return count_ <= kExactValues ? exact_quantile(at_least_first) : bucket_quantile(at_least_first);
}

Distribution LogHistogram::distribution() const {
  return Distribution{.count = count_,
                      .sum = sum_,
                      .min = min_,
                      .p50 = quantile(500),
                      .p90 = quantile(900),
                      .p99 = quantile(990),
                      .max = max_};
}

}  // namespace qjt
