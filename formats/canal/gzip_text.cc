#include "canal/gzip_text.h"

#include <zlib.h>

#include <fmt/format.h>

namespace qjt::canal {

bool is_gzip(ByteSpan bytes) { return bytes.size() >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b; }

bool gunzip(ByteSpan bytes, std::string* out, std::string* error) {
  if (bytes.size() > 0xFFFFFFFFu) {
    *error = "larger than 4 GiB: not a rolled meta.log";
    return false;
  }
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
    *error = "cannot initialise zlib";
    return false;
  }
  z.next_in = const_cast<Bytef*>(bytes.data());
  z.avail_in = static_cast<uInt>(bytes.size());
  char chunk[1 << 14];
  int rc = Z_OK;
  while (true) {
    z.next_out = reinterpret_cast<Bytef*>(chunk);
    z.avail_out = sizeof chunk;
    rc = inflate(&z, Z_NO_FLUSH);
    out->append(chunk, sizeof chunk - z.avail_out);
    if (out->size() > kMaxInflatedBytes) {
      *error = fmt::format("inflates beyond {} bytes: not a rolled meta.log", kMaxInflatedBytes);
      break;
    }
    if (rc == Z_STREAM_END && z.avail_in > 0) {  // another gzip member follows
      if (inflateReset(&z) != Z_OK) break;
      continue;
    }
    if (rc == Z_STREAM_END) {
      inflateEnd(&z);
      return true;
    }
    if (rc != Z_OK) {
      *error = rc == Z_BUF_ERROR ? fmt::format("the gzip data ends early, at byte {}", z.total_in)
                                 : fmt::format("damaged gzip data near byte {}: {}", z.total_in, z.msg ? z.msg : "");
      break;
    }
  }
  inflateEnd(&z);
  return false;
}

}  // namespace qjt::canal
