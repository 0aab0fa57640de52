// Sizes on the command line: "4096", "64K", "1.5M", "2G", "1GiB", "64KB"
// (powers of 1024).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace qjt {

std::optional<std::uint64_t> parse_byte_size(std::string_view text);

}  // namespace qjt
