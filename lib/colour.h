// Colour of severities in text output: "error" red, "warning" yellow (and
// the lines of a repair plan that lose data red, as errors are), when the
// stream they go to is a terminal (--color=auto, the default),
// always, or never. A non-empty NO_COLOR in the environment turns auto
// off (https://no-color.org).
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "finding.h"

namespace qjt {

enum class ColourMode { kAuto, kAlways, kNever };

// "auto", "always" or "never"; nullopt for anything else.
std::optional<ColourMode> parse_colour_mode(std::string_view name);
// Set once by main() before anything is written.
void set_colour_mode(ColourMode mode);

// Whether text written to `stream` (stdout or stderr) is coloured.
bool colour_on(std::FILE* stream);

// `text` in the colour of `severity` when `colour`, else as it is: for
// what carries a severity without being a finding (a repair plan's line
// that loses data is an error's).
std::string in_colour(std::string_view text, Severity severity, bool colour);
// severity_name(severity), in its colour when `colour`.
std::string severity_text(Severity severity, bool colour);

}  // namespace qjt
