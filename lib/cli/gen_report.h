// What every family's gen does once its generator has run (man/qjt-gen.1):
// a usage error or an I/O error told, else the report printed, as text or
// as one JSON object whose last member is "corruption".
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "exit_code.h"
#include "generated_files.h"
#include "json_writer.h"

namespace qjt::cli {

// Appends one report (text, or the JSON object's line) to *out.
using GenReportWriter = std::function<void(std::string*)>;

// kOk: the report (JSON with `json`), exit 0; kUsage: `error` as a usage
// error, exit 2; kIoError: `error` told, exit 3.
ExitCode finish_gen(GenerateStatus status, const std::string& error, bool json, const GenReportWriter& json_report,
                    const GenReportWriter& text_report);

// "corruption": {mode, file, offset, description}, or null when undamaged.
void add_damage_json(JsonWriter* line, const std::optional<GeneratedDamage>& damage);
// "damaged (MODE): FILE: DESCRIPTION\n", or nothing.
std::string damage_text(const std::optional<GeneratedDamage>& damage);

}  // namespace qjt::cli
