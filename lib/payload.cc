#include "payload.h"

#include "json_line.h"

namespace qjt {

std::optional<DataMode> parse_data_mode(std::string_view name) {
  if (name == "text") return DataMode::kText;
  if (name == "base64") return DataMode::kBase64;
  if (name == "hex") return DataMode::kHex;
  if (name == "none") return DataMode::kNone;
  return std::nullopt;
}

std::string base64_encode(ByteSpan bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t v = (std::uint32_t{bytes[i]} << 16) | (std::uint32_t{bytes[i + 1]} << 8) |
                            bytes[i + 2];
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(kAlphabet[(v >> 6) & 63]);
    out.push_back(kAlphabet[v & 63]);
  }
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    std::uint32_t v = std::uint32_t{bytes[i]} << 16;
    if (rest == 2) v |= std::uint32_t{bytes[i + 1]} << 8;
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(rest == 2 ? kAlphabet[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

std::string hex_encode(ByteSpan bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    out.push_back(kDigits[bytes[i] >> 4]);
    out.push_back(kDigits[bytes[i] & 15]);
  }
  return out;
}

RenderedPayload render_payload(ByteSpan payload, DataMode mode) {
  switch (mode) {
    case DataMode::kText:
      if (is_valid_utf8(payload.as_chars())) return {"data", std::string(payload.as_chars())};
      return {"data_b64", base64_encode(payload)};
    case DataMode::kBase64: return {"data_b64", base64_encode(payload)};
    case DataMode::kHex: return {"data_hex", hex_encode(payload)};
    case DataMode::kNone: break;
  }
  return {};
}

void add_payload(JsonLine* line, ByteSpan payload, DataMode mode) {
  if (mode == DataMode::kText && is_valid_utf8(payload.as_chars())) {
    line->str("data", payload.as_chars());
    return;
  }
  const RenderedPayload rendered = render_payload(payload, mode);
  if (!rendered.key.empty()) line->str(rendered.key, rendered.value);
}

}  // namespace qjt
