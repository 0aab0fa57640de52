#include "flume/header_tally.h"

#include <algorithm>

namespace qjt::flume {

HeaderTally::Tally* HeaderTally::tally_of(std::string_view value) {
  if (const auto it = values_.find(value); it != values_.end()) return &it->second;
  if (values_.size() >= kMaxValues || value.size() > kMaxValueBytes - value_bytes_) return &other_;
  value_bytes_ += value.size();
  return &values_.emplace(std::string(value), Tally{}).first->second;
}

void HeaderTally::add(const LogRecord& put) {
  Tally* tally = &absent_;
  for (const EventHeader& h : put.headers) {
    if (h.key.as_chars() == key_) {
      tally = tally_of(h.value.as_chars());
      break;
    }
  }
  ++tally->events;
  tally->bytes += put.body.size();
}

HeaderTally::Summary HeaderTally::summary() const {
  Summary s;
  s.other = other_;
  s.absent = absent_;
  std::vector<const std::pair<const std::string, Tally>*> ranked;
  ranked.reserve(values_.size());
  for (const auto& entry : values_) ranked.push_back(&entry);
  const auto more_events = [](const auto* a, const auto* b) {
    return a->second.events != b->second.events ? a->second.events > b->second.events : a->first < b->first;
  };
  const std::size_t shown = std::min(kTopValues, ranked.size());
  std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(shown), ranked.end(), more_events);
  for (std::size_t i = 0; i < ranked.size(); ++i) {
    if (i < shown) {
      s.top.push_back(Row{ranked[i]->first, ranked[i]->second});
    } else {
      s.other.events += ranked[i]->second.events;
      s.other.bytes += ranked[i]->second.bytes;
    }
  }
  return s;
}

}  // namespace qjt::flume
