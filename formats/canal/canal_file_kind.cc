#include "canal/canal_file_kind.h"

#include <array>
#include <utility>

#include "canal/gzip_text.h"
#include "canal/line_splitter.h"
#include "canal/meta_log.h"
#include "canal/zk_cursor.h"
#include "path_name.h"

namespace qjt::canal {
namespace {

constexpr std::array<std::pair<FileKind, std::string_view>, 4> kFormatNames = {{
    {FileKind::kMetaDat, "canal-meta-dat"},
    {FileKind::kMetaLog, "canal-meta-log"},
    {FileKind::kZkCursor, "canal-zk-cursor"},
    {FileKind::kZkTree, "canal-zk-tree"},
}};

bool named_meta_log(const std::string& name) {
  const bool rolled = name.rfind("meta-", 0) == 0 && (name.ends_with(".log") || name.ends_with(".log.gz"));
  return name == "meta.log" || name == "meta.log.gz" || rolled;
}

bool starts_with_cursor_line(std::string_view text) {
  std::vector<LogEntry> entries;
  struct Ignore : Reporter {
    void report(Finding) override {}
  } ignore;
  // Whether a line is a cursor line does not depend on the zone.
  read_meta_log(text.substr(0, text.find('\n')), "", TimeZone::utc(), &entries, &ignore);
  return !entries.empty();
}

// The first line of the inflated text, or what inflates of it before
// damage. Only the head is inflated, at most a line's bound, so a damaged
// tail still detects and a file without newlines costs no more.
std::string first_gzip_line(ByteSpan bytes) {
  std::string line, error;
  LineSplitter lines([&line](const TextLine& first) {
    line = first.text;
    return false;
  });
  inflate_gzip(
      bytes, [&lines](std::string_view piece) { return lines.feed(piece); }, &error, kMaxLineBytes + 1);
  lines.finish();
  return line;
}

bool looks_like_meta_dat(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '{' &&
         text.substr(0, 4096).find("\"clientDatas\"") != std::string_view::npos;
}

}  // namespace

std::optional<FileKind> detect_file_kind(const std::string& path, ByteSpan bytes) {
  const std::string name = base_name(path);
  if (name == "meta.dat") return FileKind::kMetaDat;
  if (parse_cursor_path(path)) return FileKind::kZkCursor;
  if (is_gzip(bytes)) {
    if (named_meta_log(name) || starts_with_cursor_line(first_gzip_line(bytes))) return FileKind::kMetaLog;
    return std::nullopt;
  }
  const std::string_view text = bytes.as_chars();
  if (looks_like_meta_dat(text)) return FileKind::kMetaDat;
  if (looks_like_zk_cursor(text)) return FileKind::kZkCursor;
  if (starts_with_cursor_line(text)) return FileKind::kMetaLog;
  if (named_meta_log(name)) return FileKind::kMetaLog;
  return std::nullopt;
}

std::string_view format_name(FileKind kind) {
  for (const auto& [value, text] : kFormatNames)
    if (value == kind) return text;
  return "canal";
}

std::optional<FileKind> parse_format(const std::string& name) {
  for (const auto& [value, text] : kFormatNames)
    if (text == name) return value;
  return std::nullopt;
}

std::vector<std::string_view> format_names() {
  std::vector<std::string_view> names;
  for (const auto& entry : kFormatNames) names.push_back(entry.second);
  return names;
}

}  // namespace qjt::canal
