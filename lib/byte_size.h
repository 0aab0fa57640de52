// Sizes on the command line: "4096", "64K", "1.5M", "2G", "1GiB", "64KB"
// (powers of 1024).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace qjt {

std::optional<std::uint64_t> parse_byte_size(std::string_view text);

// "512 bytes", "1536 bytes (1.5 KiB)", "3221225472 bytes (3.0 GiB)": exact,
// and readable at a glance.
std::string format_byte_size(std::uint64_t bytes);

}  // namespace qjt
