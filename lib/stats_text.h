// The text of a StatsModel (stats_model.h), for a person at a terminal:
// per entity, a line naming it (its kind, then each label as name=value,
// the value a shell word), then its gauges and distributions as an aligned
// list, then each table with aligned columns:
//
//   queue format=kestrel path=/var/spool/kestrel/q1 queue=q1
//     queued items     3
//     queued           1536 bytes (1.5 KiB)
//     oldest item age  1h02m
//     payload          3 values: min 10 B, p50 20 B, p90 30 B, p99 30 B, max 30 B
//     segment  records  records_bytes
//     q1.1           2           40 B
//
// A size column is headed by its name and "_bytes", so that it stands
// apart from a count of the same name. Sizes are readable at a glance
// (the list's exact too), durations in their largest units, times as
// format_time() (time_value.h) shows them, a value not known as "-".
// Entities are separated by a blank line.
#pragma once

#include <string>

#include "stats_model.h"

namespace qjt {

// Appends `model` as text to *out, each line ended by "\n".
void render_stats_text(const StatsModel& model, std::string* out);

}  // namespace qjt
