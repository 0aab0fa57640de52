#include "canal/cli/canal_input.h"

#include "commands.h"

#include <fmt/format.h>

#include "canal/gzip_text.h"
#include "input_file.h"

namespace qjt::app {

std::optional<canal::FileKind> canal_kind(const std::vector<std::string>& paths, const std::string& format) {
  if (const auto forced = canal::parse_format(format)) return forced;
  if (format != "auto" || paths.empty() || paths.front() == "-") return std::nullopt;
  std::string ignored;
  const auto input = InputFile::open(paths.front(), &ignored);
  return input ? canal::detect_file_kind(paths.front(), input->bytes()) : std::nullopt;
}

std::optional<std::int64_t> parse_at_option(const std::string& at) {
  const auto ms = canal::parse_at_time(at);
  if (!ms) usage_error("", fmt::format("--at {}: expected epoch milliseconds or yyyy-MM-dd HH:mm:ss[.SSS]", at));
  return ms;
}

bool read_whole(const std::string& path, std::string* bytes, Reporter* reporter) {
  Finding failure;
  const auto input = InputFile::open(path, &failure);
  if (!input) {
    reporter->report(std::move(failure));
    return false;
  }
  bytes->assign(input->bytes().as_chars());
  return true;
}

bool load_meta_dat(const std::string& path, MetaDatFile* out, Reporter* reporter) {
  out->source = canal::MetaDatSource{path, canal::destination_of_meta_dat(path)};
  if (!read_whole(path, &out->bytes, reporter)) return false;
  out->meta = canal::read_meta_dat(ByteSpan(out->bytes), out->source, reporter);
  return true;
}

bool load_meta_logs(const std::vector<std::string>& paths, std::vector<canal::LogEntry>* entries, Reporter* reporter) {
  bool all = true;
  for (const std::string& path : paths) {
    std::string bytes, error;
    if (!read_whole(path, &bytes, reporter)) {
      all = false;
      continue;
    }
    if (canal::is_gzip(ByteSpan(bytes))) {
      std::string text;
      if (!canal::gunzip(ByteSpan(bytes), &text, &error))
        reporter->report(Finding{Severity::kError, "canal_gzip", path, std::nullopt, error});
      bytes = std::move(text);
    }
    canal::read_meta_log(bytes, path, entries, reporter);
  }
  return all;
}

}  // namespace qjt::app
