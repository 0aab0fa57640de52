#include "tzif.h"

#include <fmt/format.h>

namespace qjt {
namespace {

struct Header {
  std::uint8_t version = 0;
  std::uint32_t isutcnt = 0, isstdcnt = 0, leapcnt = 0, timecnt = 0, typecnt = 0, charcnt = 0;
};

bool fail(std::string* error, std::size_t at, std::string_view what) {
  *error = fmt::format("not a valid TZif file: byte {}: {}", at, what);
  return false;
}

bool read_header(ByteReader* r, Header* h, std::string* error) {
  const std::size_t at = r->position();
  ByteSpan magic, reserved;
  if (!r->read_span(4, &magic) || magic.as_chars() != "TZif") return fail(error, at, "no \"TZif\" magic");
  if (!r->read_u8(&h->version) || !r->read_span(15, &reserved) || !r->read_u32_be(&h->isutcnt) ||
      !r->read_u32_be(&h->isstdcnt) || !r->read_u32_be(&h->leapcnt) || !r->read_u32_be(&h->timecnt) ||
      !r->read_u32_be(&h->typecnt) || !r->read_u32_be(&h->charcnt))
    return fail(error, at, "the header is cut short (44 bytes)");
  return true;
}

// The bytes a data block with these counts takes; at most about 2^38, so
// no overflow.
std::uint64_t block_size(const Header& h, std::uint64_t time_size) {
  return h.timecnt * (time_size + 1) + std::uint64_t{h.typecnt} * 6 + h.charcnt + h.leapcnt * (time_size + 4) +
         h.isstdcnt + h.isutcnt;
}

// Checks the counts of `h` against each other and against the bytes left.
bool check_counts(const Header& h, std::uint64_t time_size, const ByteReader& r, std::size_t header_at,
                  std::string* error) {
  if (h.typecnt == 0) return fail(error, header_at, "typecnt is 0 (a zone has at least one type)");
  if (h.charcnt == 0) return fail(error, header_at, "charcnt is 0 (at least one abbreviation)");
  if (h.isutcnt != 0 && h.isutcnt != h.typecnt)
    return fail(error, header_at, fmt::format("isutcnt {} is neither 0 nor typecnt {}", h.isutcnt, h.typecnt));
  if (h.isstdcnt != 0 && h.isstdcnt != h.typecnt)
    return fail(error, header_at, fmt::format("isstdcnt {} is neither 0 nor typecnt {}", h.isstdcnt, h.typecnt));
  const std::uint64_t size = block_size(h, time_size);
  if (size > r.remaining())
    return fail(error, r.position(),
                fmt::format("the counts need a data block of {} bytes; {} remain", size, r.remaining()));
  return true;
}

// Reads the data block `h` describes (its size already checked) into *out.
bool read_block(ByteReader* r, const Header& h, std::size_t time_size, Tzif* out, std::string* error) {
  out->times.reserve(h.timecnt);
  for (std::uint32_t i = 0; i < h.timecnt; ++i) {
    const std::size_t at = r->position();
    std::int64_t t = 0;
    if (time_size == 4) {
      std::int32_t t32 = 0;
      r->read_i32_be(&t32);
      t = t32;
    } else {
      r->read_i64_be(&t);
    }
    if (!out->times.empty() && t <= out->times.back())
      return fail(error, at,
                  fmt::format("transition {} at {} is not after the one before, at {}", i, t, out->times.back()));
    out->times.push_back(t);
  }
  out->type_of.reserve(h.timecnt);
  for (std::uint32_t i = 0; i < h.timecnt; ++i) {
    const std::size_t at = r->position();
    std::uint8_t type = 0;
    r->read_u8(&type);
    if (type >= h.typecnt)
      return fail(error, at, fmt::format("transition {} has type {}, of {} types", i, type, h.typecnt));
    out->type_of.push_back(type);
  }
  out->types.reserve(h.typecnt);
  for (std::uint32_t i = 0; i < h.typecnt; ++i) {
    const std::size_t at = r->position();
    std::int32_t offset = 0;
    std::uint8_t isdst = 0, abbreviation = 0;
    r->read_i32_be(&offset);
    r->read_u8(&isdst);
    r->read_u8(&abbreviation);
    if (offset < kMinTzifOffset || offset > kMaxTzifOffset)
      return fail(error, at,
                  fmt::format("type {} has offset {} s, beyond {} to {}", i, offset, kMinTzifOffset, kMaxTzifOffset));
    if (isdst > 1) return fail(error, at + 4, fmt::format("type {} has isdst {}, neither 0 nor 1", i, isdst));
    if (abbreviation >= h.charcnt)
      return fail(error, at + 5,
                  fmt::format("type {} has abbreviation index {}, of {} characters", i, abbreviation, h.charcnt));
    out->types.push_back(LocalOffset{offset, isdst == 1});
  }
  ByteSpan skipped;
  r->read_span(h.charcnt, &skipped);
  r->read_span(h.leapcnt * (time_size + 4), &skipped);
  for (std::uint32_t i = 0; i < h.isstdcnt + h.isutcnt; ++i) {
    const std::size_t at = r->position();
    std::uint8_t indicator = 0;
    r->read_u8(&indicator);
    if (indicator > 1) return fail(error, at, fmt::format("a standard/wall or UT/local indicator is {}", indicator));
  }
  return true;
}

}  // namespace

std::optional<Tzif> parse_tzif(ByteSpan bytes, std::string* error) {
  ByteReader r(bytes);
  Header first;
  if (!read_header(&r, &first, error)) return std::nullopt;
  Tzif out;
  if (first.version == 0) {
    out.version = 1;
  } else if (first.version >= '2') {
    out.version = first.version >= '4' ? 4 : first.version - '0';
  } else {
    fail(error, 4, fmt::format("unknown version byte 0x{:02x}", first.version));
    return std::nullopt;
  }
  if (!check_counts(first, 4, r, 0, error)) return std::nullopt;
  if (out.version == 1) {
    if (!read_block(&r, first, 4, &out, error)) return std::nullopt;
    return out;
  }
  // Versions 2 and up: the 32-bit block is there for old readers only.
  ByteSpan skipped;
  r.read_span(static_cast<std::size_t>(block_size(first, 4)), &skipped);
  const std::size_t second_at = r.position();
  Header second;
  if (!read_header(&r, &second, error)) return std::nullopt;
  if (!check_counts(second, 8, r, second_at, error) || !read_block(&r, second, 8, &out, error)) return std::nullopt;
  const std::string_view rest = bytes.subspan(r.position()).as_chars();
  if (rest.empty() || rest.front() != '\n') {
    fail(error, r.position(), "no footer (a newline, a POSIX TZ string and a newline) after the data");
    return std::nullopt;
  }
  const std::size_t close = rest.find('\n', 1);
  if (close == std::string_view::npos) {
    fail(error, r.position(), "the footer has no closing newline");
    return std::nullopt;
  }
  if (close + 1 != rest.size()) {
    fail(error, r.position() + close + 1, fmt::format("{} bytes after the footer", rest.size() - close - 1));
    return std::nullopt;
  }
  out.footer = std::string(rest.substr(1, close - 1));
  if (!out.footer->empty()) {
    std::string why;
    out.rule = PosixTz::parse(*out.footer, &why);
    if (!out.rule) {
      fail(error, r.position() + 1, fmt::format("footer: {}", why));
      return std::nullopt;
    }
  }
  return out;
}

}  // namespace qjt
