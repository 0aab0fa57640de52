#include "canal/gzip_text.h"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <memory>

#include <fmt/format.h>

namespace qjt::canal {
namespace {

constexpr std::size_t kPieceBytes = 64 << 10;

// zlib's stream, ended however the inflation ends.
struct Inflater {
  z_stream z{};
  bool ready = inflateInit2(&z, 16 + MAX_WBITS) == Z_OK;
  ~Inflater() {
    if (ready) inflateEnd(&z);
  }
};

}  // namespace

bool is_gzip(ByteSpan bytes) { return bytes.size() >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b; }

bool inflate_gzip(ByteSpan bytes, const std::function<bool(std::string_view)>& on_piece, std::string* error,
                  std::uint64_t max_inflated) {
  Inflater inflater;
  if (!inflater.ready) {
    *error = "cannot initialise zlib";
    return false;
  }
  z_stream& z = inflater.z;
  const auto piece = std::make_unique<char[]>(kPieceBytes);
  std::size_t next_in = 0;  // of the input not yet handed to zlib
  std::uint64_t inflated = 0;
  while (true) {
    if (z.avail_in == 0 && next_in < bytes.size()) {  // zlib counts in 32 bits: hand the input over in slices
      z.next_in = const_cast<Bytef*>(bytes.data() + next_in);
      z.avail_in = static_cast<uInt>(std::min<std::size_t>(bytes.size() - next_in, UINT_MAX));
      next_in += z.avail_in;
    }
    z.next_out = reinterpret_cast<Bytef*>(piece.get());
    z.avail_out = kPieceBytes;
    const int rc = inflate(&z, Z_NO_FLUSH);
    const std::size_t produced = kPieceBytes - z.avail_out;
    const std::size_t allowed = static_cast<std::size_t>(std::min<std::uint64_t>(produced, max_inflated - inflated));
    if (allowed > 0 && !on_piece(std::string_view(piece.get(), allowed))) return true;
    inflated += allowed;
    if (allowed < produced) {
      const std::string limit =
          max_inflated >= (1 << 20) ? fmt::format("{} MiB", max_inflated >> 20) : fmt::format("{} bytes", max_inflated);
      *error = fmt::format("inflates beyond {}, the limit for a rolled meta.log: the lines after are not read", limit);
      return false;
    }
    const bool more_input = z.avail_in > 0 || next_in < bytes.size();
    if (rc == Z_STREAM_END && !more_input) return true;
    if (rc == Z_STREAM_END) {  // another gzip member follows
      if (inflateReset(&z) != Z_OK) break;
      continue;
    }
    if (rc == Z_OK) continue;
    const std::uint64_t at = next_in - z.avail_in;
    *error = rc == Z_BUF_ERROR ? fmt::format("the gzip data ends early, at byte {}", at)
                               : fmt::format("damaged gzip data near byte {}: {}", at, z.msg ? z.msg : "");
    return false;
  }
  *error = "cannot restart zlib for the next gzip member";
  return false;
}

}  // namespace qjt::canal
