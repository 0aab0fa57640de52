#include "log_record.h"

namespace qjt::flume {

const char* log_record_type_name(LogRecordType type) {
  switch (type) {
    case LogRecordType::kPut: return "put";
    case LogRecordType::kTake: return "take";
    case LogRecordType::kRollback: return "rollback";
    case LogRecordType::kCommit: return "commit";
    case LogRecordType::kNoop: return "noop";
    case LogRecordType::kEndOfData: return "end_of_data";
    case LogRecordType::kBroken: return "broken";
  }
  return "broken";
}

}  // namespace qjt::flume
