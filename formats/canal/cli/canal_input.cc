#include "canal/cli/canal_input.h"

#include "command_support.h"

#include <fmt/format.h>

#include "canal/gzip_text.h"
#include "canal/line_splitter.h"
#include "input_file.h"
#include "read_window.h"
#include "time_value.h"

namespace qjt::cli {

std::optional<std::int64_t> parse_at_option(std::string_view command, const std::string& at) {
  const auto ms = parse_time_option(at);
  if (!ms) usage_error(command, time_value_error("--at", at));
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

bool read_meta_logs(const std::vector<std::string>& paths, const TimeZone& zone, Reporter* reporter,
                    const LogEntrySink& on_entry, const LogFileSink& on_file_end) {
  canal::MetaLogParser parser(reporter, zone);
  canal::LogEntry entry;
  bool all = true;
  for (const std::string& path : paths) {
    Finding failure;
    const auto input = InputFile::open(path, &failure);
    if (!input) {
      reporter->report(std::move(failure));
      all = false;
      continue;
    }
    std::string error;
    canal::LineSplitter lines([&](const canal::TextLine& line) {
      if (parser.parse(path, line, &entry)) on_entry(entry);
      return true;
    });
    const auto feed = [&lines](std::string_view piece) { return lines.feed(piece); };
    if (!canal::is_gzip(input->bytes())) {
      ReadWindow window(*input);
      window.for_each_piece(0, window.size(), [&feed](ByteSpan piece) { return feed(piece.as_chars()); });
      lines.finish();
    } else if (canal::inflate_gzip(input->bytes(), feed, &error)) {
      lines.finish();
    } else {
      reporter->report(Finding{Severity::kError, "canal_gzip", path, std::nullopt, error});
    }
    if (on_file_end) on_file_end(path, input->bytes().size());
  }
  return all;
}

}  // namespace qjt::cli
