// What is wrong with a text as a Prometheus text exposition (version
// 0.0.4), checked line by line against its grammar: metric and label
// names, label escaping, sample values, one HELP and one TYPE per family
// before its samples, a family's lines together, no duplicate series, a
// final newline. Written for the tests from the format's description,
// independently of lib/stats_prometheus.cc.
#pragma once

#include <string>
#include <vector>

namespace qjt_test {

// One message per breach ("what: line"); empty when `text` is well-formed.
std::vector<std::string> exposition_errors(const std::string& text);

}  // namespace qjt_test
