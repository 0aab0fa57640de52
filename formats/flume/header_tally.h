// HeaderTally: the queued events of a Flume channel and their body bytes
// per value of one event header (`qjt stats --by-header KEY`), in memory
// bounded whatever the channel holds.
//
// Contract:
//  - Values are counted exactly, each in a row of its own, while fewer than
//    kMaxValues distinct values holding kMaxValueBytes in all are kept; an
//    event whose value came after that is counted in `other`, so a value
//    kept is always exact and a value not kept is wholly in `other`.
//  - summary(): the kTopValues kept values with the most events (ties by
//    value, bytewise), the rest folded into `other`; events without the
//    header in `absent` (an empty value is a value: Flume reads "").
//  - Memory: at most kMaxValues entries and kMaxValueBytes of their text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "flume/log_record.h"

namespace qjt::flume {

class HeaderTally {
 public:
  static constexpr std::size_t kTopValues = 100;
  static constexpr std::size_t kMaxValues = 10000;
  static constexpr std::size_t kMaxValueBytes = 4 << 20;

  struct Tally {
    std::uint64_t events = 0;
    std::uint64_t bytes = 0;  // of the events' bodies
  };
  struct Row {
    std::string value;
    Tally tally;
  };
  struct Summary {
    std::vector<Row> top;  // most events first
    Tally other;
    Tally absent;
  };

  explicit HeaderTally(std::string key) : key_(std::move(key)) {}

  const std::string& key() const { return key_; }
  // Counts a queued event (a put).
  void add(const LogRecord& put);
  Summary summary() const;

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  Tally* tally_of(std::string_view value);

  std::string key_;
  std::unordered_map<std::string, Tally, Hash, std::equal_to<>> values_;
  std::size_t value_bytes_ = 0;
  Tally other_, absent_;
};

}  // namespace qjt::flume
