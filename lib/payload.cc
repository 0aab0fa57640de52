#include "payload.h"

#include <fmt/format.h>

#include "json_line.h"

namespace qjt {

namespace {

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string show_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x21 && u < 0x7F) return fmt::format("'{}'", c);
  return fmt::format("byte 0x{:02x}", u);
}

}  // namespace

std::optional<DataMode> parse_data_mode(std::string_view name) {
  if (name == "text") return DataMode::kText;
  if (name == "base64") return DataMode::kBase64;
  if (name == "hex") return DataMode::kHex;
  if (name == "none") return DataMode::kNone;
  return std::nullopt;
}

std::string base64_encode(ByteSpan bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t v = (std::uint32_t{bytes[i]} << 16) | (std::uint32_t{bytes[i + 1]} << 8) | bytes[i + 2];
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
    case DataMode::kBase64:
      return {"data_b64", base64_encode(payload)};
    case DataMode::kHex:
      return {"data_hex", hex_encode(payload)};
    case DataMode::kNone:
      break;
  }
  return {};
}

void append_payload_text(std::string* out, ByteSpan payload, DataMode mode) {
  if (mode == DataMode::kNone) return;
  const RenderedPayload rendered = render_payload(payload, mode);
  out->append("    ");
  out->append(rendered.key);
  out->push_back('=');
  append_json_string(out, rendered.value);
  out->push_back('\n');
}

void add_payload(JsonWriter* line, ByteSpan payload, DataMode mode) {
  if (mode == DataMode::kText && is_valid_utf8(payload.as_chars())) {
    line->str("data", payload.as_chars());
    return;
  }
  const RenderedPayload rendered = render_payload(payload, mode);
  if (!rendered.key.empty()) line->str(rendered.key, rendered.value);
}

bool base64_decode(std::string_view text, std::string* out, std::string* error) {
  out->clear();
  if (text.size() % 4 != 0) {
    *error = fmt::format("base64 (padded to a multiple of 4 characters): found {} characters", text.size());
    return false;
  }
  out->reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    std::uint32_t group = 0;
    int padding = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const char c = text[i + k];
      if (c == '=' && last && k >= 2 && (k == 3 || text[i + 3] == '=')) {
        ++padding;
        group <<= 6;
        continue;
      }
      const int v = base64_value(c);
      if (v < 0 || padding > 0) {
        *error = fmt::format("base64: found {} at character {}", c == '=' ? "misplaced '='" : show_char(c), i + k);
        return false;
      }
      group = (group << 6) | static_cast<std::uint32_t>(v);
    }
    out->push_back(static_cast<char>((group >> 16) & 0xFF));
    if (padding < 2) out->push_back(static_cast<char>((group >> 8) & 0xFF));
    if (padding < 1) out->push_back(static_cast<char>(group & 0xFF));
  }
  return true;
}

bool hex_decode(std::string_view text, std::string* out, std::string* error) {
  out->clear();
  if (text.size() % 2 != 0) {
    *error = fmt::format("hex (two digits per byte): found an odd number of digits, {}", text.size());
    return false;
  }
  out->reserve(text.size() / 2);
  for (std::size_t i = 0; i < text.size(); i += 2) {
    const int high = hex_value(text[i]);
    const int low = hex_value(text[i + 1]);
    if (high < 0 || low < 0) {
      const std::size_t at = high < 0 ? i : i + 1;
      *error = fmt::format("hex: found {} at character {}", show_char(text[at]), at);
      return false;
    }
    out->push_back(static_cast<char>((high << 4) | low));
  }
  return true;
}

bool decode_payload(std::string_view key, std::string_view text, std::string* out, std::string* error) {
  if (key.ends_with("_b64")) return base64_decode(text, out, error);
  if (key.ends_with("_hex")) return hex_decode(text, out, error);
  out->assign(text);
  return true;
}

}  // namespace qjt
