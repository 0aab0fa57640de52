// The JSON of a StatsModel (stats_model.h): one object, "type":"stats"
// (json_writer.h): "ok" (no error among the findings), the counts of
// errors and warnings, the findings on what was damaged (finding.h's
// objects), then "entities", the model's, in its order:
//
//   {"type":"stats","ok":true,"errors":0,"warnings":0,"findings":[],
//    "entities":[{"kind":"queue",
//     "labels":{"format":"kestrel","path":"q1","queue":"q1"},
//     "gauges":{"queued_items":3,"queued_bytes":1536,"oldest_item_age_ms":5000},
//     "distributions":{"payload_bytes":{"count":3,"sum":60,"min":10,"p50":20,
//                                       "p90":30,"p99":30,"max":30}},
//     "tables":{"segment":[{"segment":"q1.1","records":3,"records_bytes":60}]}}]}
//
// Keys are the metrics' names followed by their unit's suffix: _bytes,
// _ms (durations), _time_ms (times), _ratio; counts have none. Times and
// durations are integers of milliseconds, as everywhere in qjt's JSON; a
// ratio that is not a finite number is null, as is a value not known, and
// the figures of an empty distribution after its count and sum.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "finding.h"
#include "stats_model.h"

namespace qjt {

// Appends `model` and `findings` as one JSON object and a newline to *out;
// with `units` (a JSON array: what a walk of the PATHs found,
// lib/cli/walk_report.h), its last member "units".
void render_stats_json(const StatsModel& model, const std::vector<Finding>& findings, std::string* out,
                       std::string_view units = {});

}  // namespace qjt
