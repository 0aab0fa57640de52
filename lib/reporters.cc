#include "reporters.h"

#include <utility>

namespace qjt {

void UniqueFindings::report(Finding finding) {
  if (finding.cause.empty() && !seen_.emplace(finding.code, finding.file, finding.offset).second) return;
  next_->report(std::move(finding));
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
