// What checkpoint.meta and log-N.meta have in common (spec §2, §5.4): one
// protobuf message framed by Java's writeDelimitedTo, walked field by field
// with every problem reported at its absolute offset in the file, under the
// codes both share (meta_empty, meta_malformed, meta_missing_field,
// meta_trailing_bytes).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "byte_span.h"
#include "finding.h"
#include "flume/protobuf_wire.h"

namespace qjt::flume {

// The file, the reporter and where the message being walked starts in the
// file, so every finding carries an absolute offset.
struct MetaContext {
  std::string_view file;
  Reporter* reporter;
  std::size_t base;

  void report(std::string_view code, std::uint64_t offset, std::string message,
              Severity severity = Severity::kError) const;
  MetaContext nested(ByteSpan outer, const WireField& field) const {
    return MetaContext{file, reporter, base + static_cast<std::size_t>(field.bytes.data() - outer.data())};
  }
};

// The framed message of a meta file: *message and the context for it, or
// nullopt (reported) when the file is empty or the framing is broken. Bytes
// after the message, which Flume never reads, are a warning.
std::optional<MetaContext> open_meta_message(ByteSpan bytes, std::string_view file, Reporter* reporter,
                                             std::string_view message_name, ByteSpan* message);

const char* wire_type_name(WireType type);

// Reports meta_malformed unless `field` has the wire type `expected`.
bool has_type(const WireField& field, WireType expected, std::string_view name, const MetaContext& context);

// Reports meta_malformed when the reader stopped at a malformed field.
bool walk_failed(const WireReader& reader, const MetaContext& context);

void report_missing(const MetaContext& context, std::uint64_t offset, std::string_view message_name,
                    std::string_view field);

inline std::int32_t as_sfixed32(const WireField& field) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(field.value));
}
inline std::int64_t as_sfixed64(const WireField& field) { return static_cast<std::int64_t>(field.value); }

}  // namespace qjt::flume
