#include "canal/zk_cursor.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "canal/json_value.h"
#include "json_writer.h"

namespace qjt::canal {
namespace {

using Kind = JsonValue::Kind;

constexpr std::string_view kDestinationsNode = "/otter/canal/destinations/";
// How far detection looks into a file: zkCli prints a few dozen lines of
// connection log before the data.
constexpr std::size_t kDetectBytes = 16 * 1024;

// Findings of a JSON read out of a slice of the file, at the file's offsets.
class ShiftedReporter final : public Reporter {
 public:
  ShiftedReporter(std::uint64_t base, Reporter* to) : base_(base), to_(to) {}
  void report(Finding f) override {
    if (f.offset) *f.offset += base_;
    to_->report(std::move(f));
  }

 private:
  std::uint64_t base_;
  Reporter* to_;
};

std::string_view trimmed(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// The node's data in the file: the whole text when it opens with a JSON
// object (the data saved alone, perhaps laid out by hand), else the first
// line of zkCli's output that opens one; nullopt when there is none.
struct DataSpan {
  std::size_t begin = 0, end = 0;
};

std::optional<DataSpan> data_span(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] == '{') return DataSpan{first, text.size()};
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t eol = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, eol - at);
    if (trimmed(line).starts_with('{')) return DataSpan{at + line.find('{'), eol};
    at = eol + 1;
  }
  return std::nullopt;
}

// The last node path zkCli's output names before `end` ("get /otter/...").
std::optional<ZkCursorPath> named_node(std::string_view text) {
  std::optional<ZkCursorPath> named;
  for (auto at = text.find(kDestinationsNode); at != std::string_view::npos;
       at = text.find(kDestinationsNode, at + 1)) {
    const auto end = text.find_first_of(" \t\r\n'\"", at);
    if (auto node = parse_cursor_path(text.substr(at, end == std::string_view::npos ? end : end - at))) named = node;
  }
  return named;
}

// An empty node as zkCli prints it: nothing, or "null", where the data goes.
bool empty_node(std::string_view text) {
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t eol = std::min(text.find('\n', at), text.size());
    if (trimmed(text.substr(at, eol - at)) == "null") return true;
    at = eol + 1;
  }
  return trimmed(text).empty();
}

void check_type(const JsonValue& top, const std::string& file, std::uint64_t base, ZkCursor* out, Reporter* reporter) {
  const JsonValue* type = top.find("@type");
  out->typed = type != nullptr && type->kind == Kind::kString && type->text == kLogPositionType;
  if (out->typed) return;
  const std::string found = type == nullptr               ? std::string("none")
                            : type->kind == Kind::kString ? fmt::format("\"{}\"", type->text)
                                                          : std::string(kind_name(type->kind));
  reporter->report(Finding{Severity::kError, "canal_zk_type", file, base + (type ? type->offset : top.offset),
                           fmt::format("cursor node: expected \"@type\":\"{}\" first, as Canal writes it (it reads "
                                       "the node as the abstract Position), found {}",
                                       kLogPositionType, found)});
}

}  // namespace

std::optional<ZkCursorPath> parse_cursor_path(std::string_view path) {
  constexpr std::string_view kCursor = "/cursor";
  if (!path.ends_with(kCursor)) return std::nullopt;
  path.remove_suffix(kCursor.size());
  const auto slash = path.rfind('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const std::string_view id = path.substr(slash + 1);
  path = path.substr(0, slash);
  const auto parent = path.rfind('/');
  const std::string_view destination = parent == std::string_view::npos ? path : path.substr(parent + 1);
  const std::string_view above = parent == std::string_view::npos ? std::string_view{} : path.substr(0, parent);
  if (!(above == "destinations" || above.ends_with("/destinations")) || destination.empty()) return std::nullopt;
  std::int64_t client = 0;
  const bool digits = !id.empty() && std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; });
  const auto [end, error] = std::from_chars(id.data(), id.data() + id.size(), client);
  if (!digits || error != std::errc{} || end != id.data() + id.size() || client > 32767) return std::nullopt;
  return ZkCursorPath{std::string(destination), client};
}

std::string cursor_znode(const ZkCursorPath& node) {
  return fmt::format("{}{}/{}/cursor", kDestinationsNode, node.destination, node.client_id);
}

std::string filter_znode(const ZkCursorPath& node) {
  return fmt::format("{}{}/{}/filter", kDestinationsNode, node.destination, node.client_id);
}

std::optional<ZkCursor> read_zk_cursor(ByteSpan bytes, const std::string& file, Reporter* reporter) {
  const std::string_view text = bytes.as_chars();
  if (const std::size_t good = valid_utf8_prefix(text); good < text.size()) {
    reporter->report(Finding{Severity::kError, "canal_invalid_utf8", file, good,
                             "expected UTF-8 (zkCli prints the node's bytes as UTF-8), found a malformed sequence"});
    return std::nullopt;
  }
  ZkCursor out;
  const auto span = data_span(text);
  out.named = named_node(text.substr(0, span ? span->begin : text.size()));
  if (!span) {
    if (empty_node(text)) return out;
    reporter->report(Finding{Severity::kError, "canal_zk_no_data", file, 0,
                             "expected a cursor node's JSON, alone or in zkCli's output, found no line opening a "
                             "JSON object"});
    return std::nullopt;
  }
  out.offset = span->begin;
  JsonValue top;
  JsonError error;
  if (!parse_json(bytes.subspan(span->begin, span->end - span->begin), &top, &error)) {
    reporter->report(Finding{Severity::kError, error.truncated ? "canal_truncated" : "canal_invalid_json", file,
                             span->begin + error.offset, "cursor node: " + error.message});
    return std::nullopt;
  }
  ShiftedReporter shifted(span->begin, reporter);
  check_type(top, file, span->begin, &out, reporter);
  out.cursor = read_log_position(top, "cursor node", file, &shifted);
  return out;
}

std::string write_zk_cursor(const Cursor& cursor) {
  std::string type;
  append_json_string(&type, kLogPositionType);
  return "{\"@type\":" + type + "," + log_position_json(cursor).substr(1);
}

bool looks_like_zk_cursor(std::string_view text) {
  text = text.substr(0, kDetectBytes);
  if (text.find("\"clientDatas\"") != std::string_view::npos) return false;
  const auto span = data_span(text);
  if (!span) return false;
  const std::string_view data = text.substr(span->begin, span->end - span->begin);
  return data.find("\"identity\"") != std::string_view::npos && data.find("\"postion\"") != std::string_view::npos;
}

}  // namespace qjt::canal
