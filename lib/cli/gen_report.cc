#include "gen_report.h"

#include <fmt/format.h>

#include "command_support.h"
#include "output.h"

namespace qjt::cli {

ExitCode finish_gen(GenerateStatus status, const std::string& error, bool json, const GenReportWriter& json_report,
                    const GenReportWriter& text_report) {
  switch (status) {
    case GenerateStatus::kOk:
      break;
    case GenerateStatus::kUsage:
      return usage_error("gen", error);
    case GenerateStatus::kIoError:
      tell("gen", error);
      return ExitCode::kIoError;
  }
  Output out;
  (json ? json_report : text_report)(out.buffer());
  return finish_output(&out, ExitCode::kOk);
}

void add_damage_json(JsonWriter* line, const std::optional<GeneratedDamage>& damage) {
  if (!damage) {
    line->null("corruption");
    return;
  }
  line->begin_object("corruption").str("mode", damage->mode).str("file", damage->file);
  if (damage->offset) line->unsigned_num("offset", *damage->offset);
  line->str("description", damage->description).end_object();
}

std::string damage_text(const std::optional<GeneratedDamage>& damage) {
  if (!damage) return "";
  return fmt::format("damaged ({}): {}: {}\n", damage->mode, damage->file, damage->description);
}

}  // namespace qjt::cli
