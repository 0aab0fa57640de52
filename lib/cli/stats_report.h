// What `qjt stats` prints of the model its families filled (stats_model.h)
// and of the findings on damaged input: text, one JSON object, or the
// Prometheus exposition format, to standard output or to -o FILE.
//
// -o FILE is for node_exporter's textfile collector, which must never read
// half a file: the report is written whole to a temp file in FILE's
// directory, fsynced, and renamed over FILE. Cron runs it again and again,
// so a FILE that qjt stats wrote before (its first line is kStatsMarker)
// is replaced without --force; any other existing file is refused (exit
// 2, nothing changed) unless --force, and then replaced by the rules of
// named_output.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exit_code.h"
#include "finding.h"
#include "stats_model.h"
#include "write_guard.h"

namespace qjt::cli {

enum class StatsStyle { kText, kJson, kPrometheus };

struct StatsOutput {
  StatsStyle style = StatsStyle::kText;
  std::string path = "-";  // -o; "-" is standard output
  WriteGuardOptions guard{};
};

// Whether each unit of a run was read, and what was found in it. The
// Prometheus report carries them as gauges, with the run's time, so that
// an alert tells a queue that is empty from one that was not read (a unit
// not read has no other figures), and a report that went stale from a
// fresh one:
//   qjt_unit_up{path}                1 read, 0 not
//   qjt_unit_findings{path,severity} its findings of each severity
//   qjt_run_started_timestamp_seconds
class StatsHealth {
 public:
  // A unit named `name` (its path): read or not, with these findings. A
  // unit given again (a walk's unit split into jobs) adds to itself.
  void unit(const std::string& name, bool read, const std::vector<Finding>& findings);
  // Whether any unit was read.
  bool read_any() const;
  // The gauges above, stamped `started_ms`.
  void add_to(StatsModel* model, std::int64_t started_ms) const;

 private:
  struct Unit {
    std::string name;
    bool read = true;
    std::uint64_t errors = 0;
    std::uint64_t warnings = 0;
  };
  std::vector<Unit> units_;
};

// The first line of a Prometheus report: a comment of the exposition
// format, which tells what wrote the file.
inline constexpr std::string_view kStatsMarker = "# qjt stats";

// Before any input is read: kUsage (told) when -o names a file that is
// not a report of qjt stats and --force was not given.
std::optional<ExitCode> refuse_stats_output(std::string_view command, const StatsOutput& output);

// The report of `model` and `findings` (in the order found) as `output`
// says. Text and Prometheus tell the findings on standard error; JSON holds
// them, and `units` (stats_json.h) when given; Prometheus, `health` when
// given. Returns kIoError (told) when the report could not be written, or
// when `health` says no unit was read: -o FILE is then left as it was, so
// that the last good report goes stale rather than turning into an empty
// queue.
ExitCode write_stats_report(std::string_view command, const StatsModel& model, const std::vector<Finding>& findings,
                            const StatsOutput& output, std::string_view units = {},
                            const StatsHealth* health = nullptr);

}  // namespace qjt::cli
