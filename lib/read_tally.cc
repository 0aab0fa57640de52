#include "read_tally.h"

#include <algorithm>

#include "input_file.h"
#include "progress.h"

namespace qjt {

void ReadTally::report(std::size_t end) {
  Progress::read(0, records_);
  records_ = 0;
  report_at_ = end + kBatch;
  if (!span_.empty()) InputFile::count_mapped_read_through(span_.data() + std::min(end, span_.size()));
}

}  // namespace qjt
