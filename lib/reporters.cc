#include "reporters.h"

#include <utility>

namespace qjt {

void UniqueFindings::report(Finding finding) {
  if (finding.cause.empty() && repeated(&seen_[{finding.code, finding.file}], finding.offset)) return;
  next_->report(std::move(finding));
}

bool UniqueFindings::repeated(Seen* seen, std::optional<std::uint64_t> offset) {
  if (seen->offsets.size() < kRemembered) return !seen->offsets.insert(offset).second;
  if (seen->offsets.count(offset) > 0) return true;
  if (seen->highest && offset <= seen->highest) return true;
  seen->highest = offset;
  return false;
}

std::size_t UniqueFindings::remembered() const {
  std::size_t n = 0;
  for (const auto& [key, seen] : seen_) n += seen.offsets.size() + (seen.highest ? 1 : 0);
  return n;
}

void ErrorWatch::report(Finding finding) {
  if (finding.severity == Severity::kError) errors_ = true;
  next_->report(std::move(finding));
}

void CodeWatch::report(Finding finding) {
  if (finding.code == code_) seen_ = true;
  next_->report(std::move(finding));
}

}  // namespace qjt
