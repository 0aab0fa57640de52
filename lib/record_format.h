// The "format" of the record envelope (JsonLine::envelope, man/qjt-json.5):
// the family a record stream's line belongs to, and the check a reader of
// such lines makes (qjt convert --to kestrel, --to flume-log) of its
// "type" and "format".
#pragma once

#include <string>
#include <string_view>

#include <fmt/format.h>

#include "json_writer.h"

namespace qjt::record_format {

inline constexpr std::string_view kKestrel = "kestrel";
inline constexpr std::string_view kLibkestrel = "libkestrel";
inline constexpr std::string_view kFlume = "flume";
inline constexpr std::string_view kCanal = "canal";

// True when the parsed object `line` (an nlohmann JSON object, kept generic
// so that this header needs no JSON library) is a record (its "type", when
// present, is "record": a finding, report, plan, error or summary line
// among the records is refused, not read as a record) and has no "format"
// or names `expected`. "file" is not checked: it only says where the line came from,
// and lines are often converted from another name. A line of another family
// would be read as garbage of this one, so it is refused with *error set.
template <class Json>
bool check(const Json& line, std::string_view expected, std::string* error) {
  const std::string_view record = json_type_name(JsonType::kRecord);
  if (const auto type = line.find("type"); type != line.end()) {
    if (!type->is_string() || type->template get_ref<const std::string&>() != record) {
      *error = fmt::format(
          "expected \"type\" \"{}\" or no \"type\", found {}: the line is no record (only the record lines of "
          "dump --json and convert --to jsonl convert)",
          record, type->dump(-1, ' ', false, Json::error_handler_t::replace));
      return false;
    }
  }
  const auto it = line.find("format");
  if (it == line.end()) return true;
  if (it->is_string() && it->template get_ref<const std::string&>() == expected) return true;
  *error = fmt::format(
      "expected \"format\" \"{}\" or no \"format\", found {}: the line is not a {} record "
      "(give each family's lines to its own conversion)",
      expected, it->dump(-1, ' ', false, Json::error_handler_t::replace), expected);
  return false;
}

}  // namespace qjt::record_format
