#include "kestrel/journal_json_parse.h"

#include <cstdint>
#include <limits>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "json_writer.h"
#include "record_format.h"

namespace qjt::kestrel {
namespace {

using nlohmann::json;

constexpr std::size_t kShownChars = 60;

// A JSON value as the message shows it, cut short when long.
std::string show(const json& value) {
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > kShownChars) {
    text.resize(kShownChars);
    text += "...";
  }
  return text;
}

std::string show_found(const json& object, std::string_view key) {
  const auto it = object.find(key);
  return it == object.end() ? std::string("no such field") : show(*it);
}

// The integer value of object[key] when it is present, an integer (or
// one spelt as a decimal string) and in
// [min, max]; otherwise nullopt with *error set.
std::optional<std::int64_t> integer_field(const json& object, std::string_view op, std::string_view key,
                                          std::int64_t min, std::int64_t max, std::string_view what,
                                          std::string* error) {
  const auto it = object.find(key);
  if (it != object.end() && it->is_number_integer()) {
    bool in_range = false;
    std::int64_t value = 0;
    if (it->is_number_unsigned()) {
      const auto u = it->get<std::uint64_t>();
      in_range = u <= static_cast<std::uint64_t>(max);
      value = in_range ? static_cast<std::int64_t>(u) : 0;
    } else {
      value = it->get<std::int64_t>();
      in_range = value >= min && value <= max;
    }
    if (in_range) return value;
  }
  // --json-big-numbers=string wrote it as a decimal string.
  if (it != object.end() && it->is_string()) {
    const auto value = parse_big_number_string(it->get_ref<const std::string&>());
    if (value && *value >= min && *value <= max) return value;
  }
  *error =
      fmt::format("{} needs \"{}\" as {} from {} to {}: found {}", op, key, what, min, max, show_found(object, key));
  return std::nullopt;
}

// Reads the one payload field of an item or BROKEN record into *storage.
bool read_payload(json* object, std::string_view op, std::string* storage, std::string* error) {
  static constexpr std::string_view kKeys[] = {"data", "data_b64", "data_hex"};
  json* found = nullptr;
  std::string_view found_key;
  for (std::string_view key : kKeys) {
    const auto it = object->find(key);
    if (it == object->end()) continue;
    if (found != nullptr) {
      *error = fmt::format(
          "{} needs its payload in exactly one of \"data\", \"data_b64\" and "
          "\"data_hex\": found both \"{}\" and \"{}\"",
          op, found_key, key);
      return false;
    }
    found = &*it;
    found_key = key;
  }
  if (found == nullptr) {
    *error = fmt::format(
        "{} needs its payload in one of \"data\", \"data_b64\" and \"data_hex\": "
        "found none (a dump made with --data=none cannot be converted back)",
        op);
    return false;
  }
  if (!found->is_string()) {
    *error = fmt::format("{} needs \"{}\" as a string: found {}", op, found_key, show(*found));
    return false;
  }
  std::string& text = found->get_ref<std::string&>();
  std::string decode_error;
  if (found_key == "data") {
    *storage = std::move(text);
    return true;
  }
  const bool ok =
      found_key == "data_b64" ? base64_decode(text, storage, &decode_error) : hex_decode(text, storage, &decode_error);
  if (!ok) *error = fmt::format("{} needs \"{}\" as {}", op, found_key, decode_error);
  return ok;
}

// The largest payload an i32 size field can announce after `header` bytes.
bool check_payload_size(std::string_view op, std::size_t size, std::int32_t header, std::string* error) {
  const auto limit = static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max() - header);
  if (size <= limit) return true;
  *error = fmt::format(
      "{} payload of {} bytes: expected at most {} bytes, the most its i32 size "
      "field can hold",
      op, size, limit);
  return false;
}

bool read_item(json* object, std::string_view op, JournalRecord* record, std::string* storage, std::string* error) {
  constexpr std::int64_t kMin64 = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t kMax64 = std::numeric_limits<std::int64_t>::max();
  // The add time is "time_ms"; lines of releases before the common fields
  // (qjt-json(5)) named it "add_time_ms", which is read when "time_ms" is absent.
  constexpr std::string_view kTimeKey = "time_ms";
  constexpr std::string_view kOlderTimeKey = "add_time_ms";
  const bool older = !object->contains(kTimeKey) && object->contains(kOlderTimeKey);
  const std::string_view time_key = older ? kOlderTimeKey : kTimeKey;
  if (record->type == RecordType::kAdd) {
    const auto add_time = object->find(time_key);
    if (add_time != object->end() && !add_time->is_null()) {
      *error = fmt::format(
          "ADD (the legacy opcode 0x00) stores no add time: expected "
          "\"{}\" null or absent, found {} (use ADDX to keep one)",
          time_key, show(*add_time));
      return false;
    }
    constexpr std::int64_t kSecondsMin = std::numeric_limits<std::int32_t>::min();
    constexpr std::int64_t kSecondsMax = std::numeric_limits<std::int32_t>::max();
    const auto expiry = integer_field(*object, op, "expiry_ms", kMin64, kMax64, "an integer (milliseconds)", error);
    if (!expiry) return false;
    if (*expiry % 1000 != 0 || *expiry / 1000 < kSecondsMin || *expiry / 1000 > kSecondsMax) {
      *error = fmt::format(
          "ADD (the legacy opcode 0x00) stores its expiry in i32 seconds: "
          "expected \"expiry_ms\" a multiple of 1000 from {} to {}, found {}",
          kSecondsMin * 1000, kSecondsMax * 1000, *expiry);
      return false;
    }
    record->expiry_ms = *expiry;
    record->has_add_time = false;
  } else {
    const auto add_time = integer_field(*object, op, time_key, kMin64, kMax64, "an integer (milliseconds)", error);
    if (!add_time) return false;
    const auto expiry = integer_field(*object, op, "expiry_ms", kMin64, kMax64, "an integer (milliseconds)", error);
    if (!expiry) return false;
    record->add_time_ms = *add_time;
    record->has_add_time = true;
    record->expiry_ms = *expiry;
  }
  if (!read_payload(object, op, storage, error)) return false;
  const std::int32_t header = record->type == RecordType::kAdd ? kLegacyBlockHeader : kItemBlockHeader;
  return check_payload_size(op, storage->size(), header, error);
}

constexpr std::string_view kOpNames =
    "ADD, REMOVE, ADDX, REMOVE_TENTATIVE, SAVE_XID, UNREMOVE, CONFIRM_REMOVE, ADD_XID, CONTINUE, "
    "REMOVE_TENTATIVE_XID, END_OF_FILE or BROKEN";

}  // namespace

bool parse_record_json(std::string_view line, JournalRecord* record, std::string* payload_storage, std::string* error) {
  *record = JournalRecord{};
  payload_storage->clear();
  json object;
  try {
    object = json::parse(line.begin(), line.end());
  } catch (const json::exception& e) {
    std::string_view what = e.what();
    const auto bracket = what.find("] ");
    if (bracket != std::string_view::npos) what.remove_prefix(bracket + 2);
    *error = fmt::format(
        "expected one JSON object per line (jq -c writes that), found invalid "
        "JSON: {}",
        what);
    return false;
  }
  if (!object.is_object()) {
    *error = fmt::format("expected a JSON object, found {}", show(object));
    return false;
  }
  if (!record_format::check(object, record_format::kKestrel, error)) return false;
  const auto op_field = object.find("op");
  if (op_field == object.end() || !op_field->is_string()) {
    *error =
        fmt::format("expected \"op\" as a string naming the record ({}), found {}", kOpNames, show_found(object, "op"));
    return false;
  }
  const std::string& op = op_field->get_ref<const std::string&>();
  const auto type = parse_record_type(op);
  if (!type) {
    *error = fmt::format("expected \"op\" one of {}, found {}", kOpNames, show(*op_field));
    return false;
  }
  record->type = *type;
  if (carries_xid(*type)) {
    const auto xid = integer_field(object, op, "xid", std::numeric_limits<std::int32_t>::min(),
                                   std::numeric_limits<std::int32_t>::max(), "an integer", error);
    if (!xid) return false;
    record->xid = static_cast<std::int32_t>(*xid);
  }
  if (carries_item(*type)) {
    if (!read_item(&object, op, record, payload_storage, error)) return false;
  } else if (*type == RecordType::kBroken) {
    if (!read_payload(&object, op, payload_storage, error)) return false;
  }
  record->payload = ByteSpan(*payload_storage);
  record->length = 0;  // offsets and lengths are the writer's business
  return true;
}

}  // namespace qjt::kestrel
