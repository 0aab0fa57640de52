// Reading logback's rolled meta-<date>-<i>.log.gz files: gzip, possibly
// several members back to back.
#pragma once

#include <string>

#include "byte_span.h"

namespace qjt::canal {

// Logback rolls meta.log at 32 MB: anything that inflates beyond this is
// not a rolled meta.log, and decompression stops rather than fill memory.
inline constexpr std::size_t kMaxInflatedBytes = std::size_t{256} << 20;

bool is_gzip(ByteSpan bytes);

// The decompressed text. False with *error (a sentence) when the data is
// damaged, truncated, or inflates beyond kMaxInflatedBytes; *out then holds
// what was decompressed before that.
bool gunzip(ByteSpan bytes, std::string* out, std::string* error);

}  // namespace qjt::canal
