// Reading logback's rolled meta-<date>-<i>.log.gz files: gzip, possibly
// several members back to back, inflated piece by piece through one reused
// buffer, so that memory does not grow with the inflated size.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "byte_span.h"

namespace qjt::canal {

// Logback rolls meta.log at 32 MB, so a rolled file inflates to about that.
// What inflates beyond this limit is not a rolled meta.log but a mistake or
// a gzip bomb: reading stops there (a canal_gzip error) rather than spend
// minutes on it. Memory does not depend on it.
inline constexpr std::uint64_t kMaxInflatedBytes = std::uint64_t{256} << 20;

bool is_gzip(ByteSpan bytes);

// Passes the inflated text to `on_piece` in pieces of at most 64 KiB, each
// valid only during the call; on_piece returns false to stop early (then
// true is returned). False with *error (a sentence) when the data is
// damaged, truncated, or inflates beyond `max_inflated`: the pieces before
// that, up to the limit, have been passed.
bool inflate_gzip(ByteSpan bytes, const std::function<bool(std::string_view)>& on_piece, std::string* error,
                  std::uint64_t max_inflated = kMaxInflatedBytes);

}  // namespace qjt::canal
