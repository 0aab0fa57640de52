#include "flume/log_record.h"

#include <fmt/format.h>

namespace qjt::flume {

const char* log_record_type_name(LogRecordType type) {
  switch (type) {
    case LogRecordType::kPut:
      return "put";
    case LogRecordType::kTake:
      return "take";
    case LogRecordType::kRollback:
      return "rollback";
    case LogRecordType::kCommit:
      return "commit";
    case LogRecordType::kNoop:
      return "noop";
    case LogRecordType::kEndOfData:
      return "end_of_data";
    case LogRecordType::kBroken:
      return "broken";
  }
  return "broken";
}

std::string crc_mismatch_message(const LogRecord& put) {
  return fmt::format("expected CRC32 {:08x}, found {:08x} over bytes {} to {}", put.stored_crc.value_or(0),
                     put.computed_crc, put.body_offset, put.body_offset + put.body.size());
}

}  // namespace qjt::flume
