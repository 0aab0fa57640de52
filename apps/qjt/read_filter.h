// ReadFilter: the record filters dump takes for every family, with the same
// names everywhere: --op, --xid, --since/--until, --from-offset/--to-offset.
// They are parsed once, here; each family's driver says which of its
// records' fields they select on (FilterFields) and applies them, and an
// option for a field the family's records do not have is a usage error
// naming the family (check_filter_fields, called once by dispatch.h).
//
// Times take every form of lib/time_value.h; offsets are decimal or
// 0x-prefixed hexadecimal, and text output prints them in decimal.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qjt::app {

struct ReadFilter {
  std::vector<std::string> ops;                    // --op, as given
  std::optional<std::int64_t> xid;                 // --xid
  std::optional<std::int64_t> since_ms, until_ms;  // --since, --until (inclusive)
  std::optional<std::uint64_t> from_offset;        // --from-offset (inclusive)
  std::optional<std::uint64_t> to_offset;          // --to-offset (exclusive)

  // Each test passes when its option was not given.
  bool op_in(std::string_view op_name) const;  // case-insensitive
  bool xid_is(std::int64_t id) const { return !xid || *xid == id; }
  bool time_in(std::int64_t ms) const { return (!since_ms || ms >= *since_ms) && (!until_ms || ms <= *until_ms); }
  bool offset_in(std::uint64_t offset) const {
    return (!from_offset || offset >= *from_offset) && (!to_offset || offset < *to_offset);
  }
  // Whether an offset past `offset` can still pass: reading may stop once not.
  bool before_end(std::uint64_t offset) const { return !to_offset || offset < *to_offset; }
};

// The fields a family's records offer to the filters.
struct FilterFields {
  std::vector<std::string_view> ops{};  // the names --op takes; empty: no such field
  std::string_view xid{};               // what --xid selects ("a transaction id"); empty: none
  std::string_view time{};              // what --since/--until compare ("the add time"); empty: none
  bool offsets = false;                 // --from-offset/--to-offset
};

// Adds the filter options to `command` (dump).
void add_read_filter_options(CLI::App* command, ReadFilter* filter);

// An option of `filter` that `family` cannot apply (a field its records do
// not have, or an --op name it does not know) as the usage message; nullopt
// when all apply.
std::optional<std::string> check_filter_fields(const ReadFilter& filter, std::string_view family,
                                               const FilterFields& fields);

}  // namespace qjt::app
