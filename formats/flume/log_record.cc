#include "flume/log_record.h"

#include <array>
#include <utility>

#include <fmt/format.h>

namespace qjt::flume {

namespace {

constexpr std::array<std::pair<LogRecordType, const char*>, 7> kLogRecordTypeNames = {{
    {LogRecordType::kPut, "put"},
    {LogRecordType::kTake, "take"},
    {LogRecordType::kRollback, "rollback"},
    {LogRecordType::kCommit, "commit"},
    {LogRecordType::kNoop, "noop"},
    {LogRecordType::kEndOfData, "end_of_data"},
    {LogRecordType::kBroken, "broken"},
}};

}  // namespace

const char* log_record_type_name(LogRecordType type) {
  for (const auto& [value, text] : kLogRecordTypeNames)
    if (value == type) return text;
  return "broken";
}

const char* log_record_op_name(LogRecordType type) {
  switch (type) {
    case LogRecordType::kPut:
      return "PUT";
    case LogRecordType::kTake:
      return "TAKE";
    case LogRecordType::kRollback:
      return "ROLLBACK";
    case LogRecordType::kCommit:
      return "COMMIT";
    case LogRecordType::kNoop:
      return "NOOP";
    case LogRecordType::kEndOfData:
      return "END_OF_DATA";
    case LogRecordType::kBroken:
      return "BROKEN";
  }
  return "BROKEN";
}

std::string crc_mismatch_message(const LogRecord& put) {
  return fmt::format("expected CRC32 {:08x}, found {:08x} over bytes {} to {}", put.stored_crc.value_or(0),
                     put.computed_crc, put.body_offset, put.body_offset + put.body.size());
}

std::string trailing_bytes_message(const LogRecord& record) {
  return fmt::format(
      "expected the {} to end at byte {} with its footer, found {} more byte(s) up to byte {} that its length "
      "takes in: Flume skips them, and any records a damaged length swallowed there are never replayed",
      log_record_type_name(record.type), record.trailing_offset(), record.trailing_bytes, record.offset + record.size);
}

}  // namespace qjt::flume
