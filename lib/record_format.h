// The "format" of the record envelope (JsonLine::envelope, man/qjt-json.5):
// the family a record stream's line belongs to, and the check a reader of
// such lines makes (qjt convert --to kestrel, --to flume-log).
#pragma once

#include <string>
#include <string_view>

#include <fmt/format.h>

namespace qjt::record_format {

inline constexpr std::string_view kKestrel = "kestrel";
inline constexpr std::string_view kLibkestrel = "libkestrel";
inline constexpr std::string_view kFlume = "flume";
inline constexpr std::string_view kCanal = "canal";

// True when the parsed object `line` (an nlohmann JSON object, kept generic
// so that this header needs no JSON library) has no "format" or names
// `expected`. "file" is not checked: it only says where the line came from,
// and lines are often converted from another name. A line of another family
// would be read as garbage of this one, so it is refused with *error set.
template <class Json>
bool check(const Json& line, std::string_view expected, std::string* error) {
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
