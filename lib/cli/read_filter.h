// ReadFilter: the record filters dump takes for every family, with the same
// names everywhere: --op, --xid, --since/--until, --from-offset/--to-offset.
// replay takes --since/--until: it still rebuilds the whole queue, and
// lists only the items within the range, saying how many it left out
// (TimeRangeCount). They are parsed once, here; each family's driver says
// which of its records' fields they select on (FilterFields) and applies
// them, and an option for a field the family's records do not have is a
// usage error naming the family (check_filter_fields, called once by
// dispatch.h).
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

#include "json_writer.h"

namespace qjt::cli {

struct ReadFilter {
  std::vector<std::string> ops{};                      // --op, as given
  std::optional<std::int64_t> xid{};                   // --xid
  std::optional<std::int64_t> since_ms{}, until_ms{};  // --since, --until (inclusive)
  std::optional<std::uint64_t> from_offset{};          // --from-offset (inclusive)
  std::optional<std::uint64_t> to_offset{};            // --to-offset (exclusive)

  // Each test passes when its option was not given.
  bool op_in(std::string_view op_name) const;  // case-insensitive
  bool xid_is(std::int64_t id) const { return !xid || *xid == id; }
  bool time_in(std::int64_t ms) const { return (!since_ms || ms >= *since_ms) && (!until_ms || ms <= *until_ms); }
  bool selects_time() const { return since_ms || until_ms; }
  // Whether something of time `ms` passes --since/--until; something
  // without a time (nullopt) passes only when neither was given.
  bool time_passes(std::optional<std::int64_t> ms) const { return ms ? time_in(*ms) : !selects_time(); }
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

// Adds the filter options to `command` (dump); --op takes `op_names`, in
// any letter case (each family checks its own after parsing).
void add_read_filter_options(CLI::App* command, ReadFilter* filter, std::vector<std::string> op_names);
// Adds --since and --until only (replay); `things` names what they select
// in --help ("items").
void add_time_filter_options(CLI::App* command, ReadFilter* filter, std::string_view things);

// What replay's --since/--until let through of the items a replay
// recovered: each item is counted once, as shown or left out.
class TimeRangeCount {
 public:
  explicit TimeRangeCount(const ReadFilter& filter)
      : range_{.since_ms = filter.since_ms, .until_ms = filter.until_ms} {}

  // Counts an item of time `ms` (nullopt: it has none); whether to show it.
  bool show(std::optional<std::int64_t> ms);
  std::uint64_t shown() const { return shown_; }
  std::uint64_t left_out() const { return left_out_; }

  // Adds "time_filter" (since_ms, until_ms, shown, left_out) to the open
  // object `json`; nothing when neither option was given.
  void write_json(JsonWriter* json) const;
  // "--since T --until T: N of M THINGS within, K left out" (the times as
  // text output shows them); empty when neither option was given.
  std::string summary(std::string_view things) const;
  // The summary as a line of a text report: INDENT, it, a newline; empty
  // when it is.
  std::string text(std::string_view indent, std::string_view things) const;

 private:
  ReadFilter range_;  // --since and --until only
  std::uint64_t shown_ = 0, left_out_ = 0;
};

// An option of `filter` that `family` cannot apply (a field its records do
// not have, or an --op name it does not know) as the usage message; nullopt
// when all apply.
std::optional<std::string> check_filter_fields(const ReadFilter& filter, std::string_view family,
                                               const FilterFields& fields);

}  // namespace qjt::cli
