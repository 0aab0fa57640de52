#include "value_options.h"

#include <fmt/format.h>

#include "json_writer.h"
#include "time_value.h"
#include "value_set.h"
#include "whole_number.h"

namespace qjt::cli {

std::optional<std::uint64_t> parse_offset(const std::string& text) {
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const std::string_view digits = hex ? std::string_view(text).substr(2) : std::string_view(text);
  return whole_number<std::uint64_t>(digits, hex ? 16 : 10);
}

CLI::Option* add_time_option(CLI::App* command, const std::string& name, std::optional<std::int64_t>* ms,
                             const std::string& what) {
  return command
      ->add_option_function<std::string>(
          name,
          [name, ms](const std::string& text) {
            *ms = parse_time_option(text);
            if (!*ms) throw CLI::ValidationError(time_value_error(name, text));
          },
          what)
      ->type_name("TIME");
}

CLI::Option* add_offset_option(CLI::App* command, const std::string& name, std::optional<std::uint64_t>* offset,
                               const std::string& what) {
  return command
      ->add_option_function<std::string>(
          name,
          [name, offset](const std::string& text) {
            *offset = parse_offset(text);
            if (!*offset)
              throw CLI::ValidationError(
                  fmt::format("{} {}: expected a byte offset, decimal (4096) or hexadecimal (0x1000)", name, text));
          },
          what)
      ->type_name("OFFSET");
}

void add_value_display_options(CLI::App* command) {
  // Set as soon as it is read, so that the times the other options take
  // are read in it wherever it stands on the command line.
  command
      ->add_option_function<std::string>(
          "--tz",
          [](const std::string& name) {
            std::string error;
            const auto zone = TimeZone::load(name, &error);
            if (!zone)
              throw CLI::ValidationError(fmt::format(
                  "--tz {}: {}; expected an IANA zone name (Asia/Shanghai, UTC), an offset (+08:00) or a POSIX TZ "
                  "string (CST-8)",
                  name, error));
            set_local_zone(*zone);
          },
          "The local zone (IANA name, +HH:MM or POSIX TZ string; default: TZ's, else this machine's): of times "
          "typed without a zone, --local-time's, Canal meta.log's")
      ->type_name("ZONE")
      ->trigger_on_parse();
  command->add_flag_callback(
      "--local-time", [] { show_local_time(true); },
      "Show times in text output in the local zone with its offset (default: UTC)");
  command
      ->add_option_function<std::string>(
          "--json-big-numbers", [](const std::string& how) { write_big_numbers_as_strings(how == "string"); },
          "JSON integers beyond 2^53: number (default) or string, which jq does not round")
      ->check(value_set({"string", "number"}));
}

}  // namespace qjt::cli
