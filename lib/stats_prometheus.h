// The Prometheus text exposition format (version 0.0.4) of a StatsModel
// (stats_model.h): what node_exporter's textfile collector reads.
//
// Contract:
//  - A gauge named N of an entity of kind K is the series qjt_K_N followed
//    by its unit's suffix: _bytes, _seconds (durations), _timestamp_seconds
//    (times), _ratio; counts have none. Durations and times are written in
//    seconds, exactly (milliseconds as a decimal fraction).
//  - A distribution is a summary: quantile "0" (the minimum), "0.5", "0.9",
//    "0.99" and "1" (the maximum), then _sum and _count; the quantiles of
//    an empty one are NaN.
//  - A table's row is an entity of the table's row kind, labelled with its
//    entity's labels and then its key cells; a value not known is left out.
//  - Labels come in the model's order, their values escaped (backslash,
//    double quote, newline) and bytes that are not UTF-8 replaced by U+FFFD.
//  - Each metric family has one # HELP and one # TYPE line, followed by all
//    of its samples; families come in the order first met. A series met
//    again (two entities that spell the same one) is written once, the
//    first time; so are the samples of a family met again as another type.
#pragma once

#include <string>

#include "stats_model.h"

namespace qjt {

// Appends `model` in the exposition format to *out, each line ended by "\n".
void render_stats_prometheus(const StatsModel& model, std::string* out);

}  // namespace qjt
