#include "flume/meta_message.h"

#include <array>
#include <utility>

#include <fmt/format.h>

namespace qjt::flume {

void MetaContext::report(std::string_view code, std::uint64_t offset, std::string message, Severity severity) const {
  if (reporter == nullptr) return;
  reporter->report(Finding{severity, std::string(code), std::string(file), offset, std::move(message)});
}

std::optional<MetaContext> open_meta_message(ByteSpan bytes, std::string_view file, Reporter* reporter,
                                             std::string_view message_name, ByteSpan* message) {
  MetaContext context{file, reporter, 0};
  if (bytes.empty()) {
    context.report("meta_empty", 0,
                   fmt::format("expected a length-prefixed {} message, found an empty file", message_name));
    return std::nullopt;
  }
  std::size_t consumed = 0;
  std::string error;
  if (!read_delimited(bytes, message, &consumed, &error)) {
    context.report("meta_malformed", 0, error);
    return std::nullopt;
  }
  context.base = consumed - message->size();
  if (consumed < bytes.size())  // Flume never reads them: a warning
    context.report("meta_trailing_bytes", consumed,
                   fmt::format("expected the file to end after the {}-byte message, found {} more bytes",
                               message->size(), bytes.size() - consumed),
                   Severity::kWarning);
  return context;
}

namespace {

constexpr std::array<std::pair<WireType, const char*>, 4> kWireTypeNames = {{
    {WireType::kVarint, "varint"},
    {WireType::kFixed64, "fixed64"},
    {WireType::kLengthDelimited, "length-delimited"},
    {WireType::kFixed32, "fixed32"},
}};

}  // namespace

const char* wire_type_name(WireType type) {
  for (const auto& [value, text] : kWireTypeNames)
    if (value == type) return text;
  return "unknown";
}

bool has_type(const WireField& field, WireType expected, std::string_view name, const MetaContext& context) {
  if (field.type == expected) return true;
  context.report("meta_malformed", context.base + field.offset,
                 fmt::format("expected {} for field {} ({}), found {}", wire_type_name(expected), field.number, name,
                             wire_type_name(field.type)));
  return false;
}

bool walk_failed(const WireReader& reader, const MetaContext& context) {
  if (reader.error().empty()) return false;
  context.report("meta_malformed", context.base + reader.error_offset(), reader.error());
  return true;
}

void report_missing(const MetaContext& context, std::uint64_t offset, std::string_view message_name,
                    std::string_view field) {
  context.report("meta_missing_field", offset,
                 fmt::format("expected required field {} in the {} message, found none", field, message_name));
}

}  // namespace qjt::flume
