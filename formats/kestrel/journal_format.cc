#include "kestrel/journal_format.h"

#include <array>
#include <utility>

namespace qjt::kestrel {
namespace {

constexpr std::array<std::pair<RecordType, std::string_view>, 12> kNames = {{
    {RecordType::kAdd, "ADD"},
    {RecordType::kRemove, "REMOVE"},
    {RecordType::kAddX, "ADDX"},
    {RecordType::kRemoveTentative, "REMOVE_TENTATIVE"},
    {RecordType::kSaveXid, "SAVE_XID"},
    {RecordType::kUnremove, "UNREMOVE"},
    {RecordType::kConfirmRemove, "CONFIRM_REMOVE"},
    {RecordType::kAddXid, "ADD_XID"},
    {RecordType::kContinue, "CONTINUE"},
    {RecordType::kRemoveTentativeXid, "REMOVE_TENTATIVE_XID"},
    {RecordType::kEndOfFile, "END_OF_FILE"},
    {RecordType::kBroken, "BROKEN"},
}};

}  // namespace

std::string_view record_type_name(RecordType type) {
  for (const auto& [t, name] : kNames)
    if (t == type) return name;
  return "UNKNOWN";
}

std::optional<RecordType> parse_record_type(std::string_view name) {
  for (const auto& [t, n] : kNames)
    if (n == name) return t;
  return std::nullopt;
}

bool carries_xid(RecordType type) {
  switch (type) {
    case RecordType::kSaveXid:
    case RecordType::kUnremove:
    case RecordType::kConfirmRemove:
    case RecordType::kAddXid:
    case RecordType::kContinue:
    case RecordType::kRemoveTentativeXid:
      return true;
    default:
      return false;
  }
}

}  // namespace qjt::kestrel
