#include "colour.h"

#include <unistd.h>

#include <cstdlib>

#include "run_context.h"

namespace qjt {

std::optional<ColourMode> parse_colour_mode(std::string_view name) {
  if (name == "auto") return ColourMode::kAuto;
  if (name == "always") return ColourMode::kAlways;
  if (name == "never") return ColourMode::kNever;
  return std::nullopt;
}

void set_colour_mode(ColourMode mode) { RunContext::process().settings().colour = mode; }

bool colour_on(std::FILE* stream) {
  const ColourMode mode = RunContext::current().settings().colour;
  if (mode != ColourMode::kAuto) return mode == ColourMode::kAlways;
  const char* no_colour = std::getenv("NO_COLOR");
  if (no_colour != nullptr && *no_colour != '\0') return false;
  return ::isatty(::fileno(stream)) == 1;
}

std::string in_colour(std::string_view text, Severity severity, bool colour) {
  if (!colour) return std::string(text);
  return (severity == Severity::kError ? "\033[31m" : "\033[33m") + std::string(text) + "\033[0m";
}

std::string severity_text(Severity severity, bool colour) {
  return in_colour(severity_name(severity), severity, colour);
}

}  // namespace qjt
