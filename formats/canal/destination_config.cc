#include "canal/destination_config.h"

#include <sys/stat.h>

#include <filesystem>

#include <fmt/format.h>

#include "input_file.h"
#include "json_writer.h"
#include "whole_number.h"

namespace qjt::canal {
namespace {

namespace fs = std::filesystem;

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\f'; }

// A logical line: its natural lines joined, continuations removed, escapes
// still in; where its first byte is.
struct LogicalLine {
  std::uint64_t offset = 0;
  std::string text;
};

// The next logical line from *at, or nullopt at the end. Comment and blank
// lines are skipped, as Properties.LineReader skips them.
std::optional<LogicalLine> next_line(std::string_view text, std::size_t* at) {
  while (*at < text.size()) {
    std::size_t i = *at;
    while (i < text.size() && is_blank(text[i])) ++i;
    LogicalLine line{i, {}};
    const bool comment = i < text.size() && (text[i] == '#' || text[i] == '!');
    bool backslash = false;  // the byte before ends an odd run of backslashes
    for (; i < text.size(); ++i) {
      const char c = text[i];
      if (c != '\n' && c != '\r') {
        backslash = c == '\\' && !backslash;
        line.text.push_back(c);
        continue;
      }
      if (comment || !backslash) break;
      // A continuation: the backslash goes, then the line end, then the
      // next line's leading blanks.
      line.text.pop_back();
      backslash = false;
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      while (i + 1 < text.size() && is_blank(text[i + 1])) ++i;
    }
    if (backslash) line.text.pop_back();  // a backslash at the end of the input continues nothing
    *at = i < text.size() && text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n' ? i + 2 : i + 1;
    if (!comment && !line.text.empty()) return line;
  }
  return std::nullopt;
}

// Java chars (UTF-16 units) into UTF-8: a surrogate pair is one code
// point, a lone surrogate U+FFFD.
class Utf16ToUtf8 {
 public:
  explicit Utf16ToUtf8(std::string* out) : out_(out) {}
  ~Utf16ToUtf8() { flush(); }
  Utf16ToUtf8(const Utf16ToUtf8&) = delete;
  Utf16ToUtf8& operator=(const Utf16ToUtf8&) = delete;

  void add(std::uint32_t unit) {
    if (high_ != 0 && unit >= 0xDC00 && unit <= 0xDFFF) {
      append_utf8(out_, 0x10000 + ((high_ - 0xD800) << 10) + (unit - 0xDC00));
      high_ = 0;
      return;
    }
    flush();
    if (unit >= 0xD800 && unit <= 0xDBFF) {
      high_ = unit;
    } else {
      append_utf8(out_, unit >= 0xDC00 && unit <= 0xDFFF ? 0xFFFD : unit);
    }
  }

 private:
  void flush() {
    if (high_ != 0) append_utf8(out_, 0xFFFD);
    high_ = 0;
  }

  std::string* out_;
  std::uint32_t high_ = 0;  // a high surrogate waiting for its low one; 0 for none
};

// Properties.loadConvert: the escapes of `raw` resolved, each byte an
// ISO-8859-1 character. false on a malformed \uXXXX (Java throws).
bool unescape(std::string_view raw, std::string* out) {
  Utf16ToUtf8 utf8(out);
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const auto byte = static_cast<unsigned char>(raw[i]);
    if (byte != '\\' || i + 1 == raw.size()) {
      utf8.add(byte);
      continue;
    }
    const char c = raw[++i];
    if (c == 'u') {
      const auto unit = i + 4 < raw.size() ? whole_number<std::uint32_t>(raw.substr(i + 1, 4), 16) : std::nullopt;
      if (!unit) return false;
      utf8.add(*unit);
      i += 4;
      continue;
    }
    utf8.add(c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c == 'f' ? '\f' : static_cast<unsigned char>(c));
  }
  return true;
}

// Where the key ends and the value starts in a logical line (load0).
std::pair<std::size_t, std::size_t> split_key(std::string_view line) {
  std::size_t key_end = 0;
  bool backslash = false, separator = false;
  for (; key_end < line.size(); ++key_end) {
    const char c = line[key_end];
    if (!backslash && (c == '=' || c == ':')) {
      separator = true;
      break;
    }
    if (!backslash && is_blank(c)) break;
    backslash = c == '\\' && !backslash;
  }
  std::size_t value = key_end + 1;
  if (key_end == line.size()) return {key_end, key_end};
  for (; value < line.size(); ++value) {
    const char c = line[value];
    if (is_blank(c)) continue;
    if (separator || (c != '=' && c != ':')) break;
    separator = true;
  }
  return {key_end, std::min(value, line.size())};
}

std::string get(const Properties& p, const std::string& key) {
  const auto it = p.find(key);
  return it == p.end() ? "" : it->second;
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (is_blank(s.back()) || s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  return s;
}

std::optional<std::int64_t> number(const Properties& p, const std::string& key) {
  return whole_number<std::int64_t>(trimmed(get(p, key)));
}

bool is_false(std::string_view value) { return trimmed(value) == "false"; }

// Which store the keys name: the Spring file of the store, else the JDBC
// URL, else H2, Canal's default.
void decide_tsdb(const Properties& p, DestinationConfig* config) {
  const std::string enable = get(p, "canal.instance.tsdb.enable");
  if (is_false(enable)) {
    config->tsdb = TsdbKind::kDisabled;
    config->tsdb_because = "canal.instance.tsdb.enable=" + enable;
    return;
  }
  const std::string xml = get(p, "canal.instance.tsdb.spring.xml");
  const std::string url = get(p, "canal.instance.tsdb.url");
  if (xml.find("mysql-tsdb.xml") != std::string::npos) {
    config->tsdb = TsdbKind::kMySql;
    config->tsdb_because = "canal.instance.tsdb.spring.xml=" + xml;
  } else if (xml.find("h2-tsdb.xml") == std::string::npos && trimmed(url).starts_with("jdbc:mysql:")) {
    config->tsdb = TsdbKind::kMySql;
    config->tsdb_because = "canal.instance.tsdb.url=" + url;
  } else if (!xml.empty()) {
    config->tsdb_because = "canal.instance.tsdb.spring.xml=" + xml;
  }
}

// The file's bytes, at most kMaxPropertiesBytes; false with a finding.
bool read_bounded(const std::string& path, std::string* bytes, Reporter* reporter) {
  Finding failure;
  const auto input = InputFile::open(path, &failure);
  if (!input) {
    reporter->report(std::move(failure));
    return false;
  }
  if (input->bytes().size() <= kMaxPropertiesBytes) {
    bytes->assign(input->bytes().as_chars());
    return true;
  }
  reporter->report(Finding{Severity::kWarning, "canal_properties", path, std::nullopt,
                           fmt::format("expected a properties file of at most {} bytes, found a larger one: not read",
                                       kMaxPropertiesBytes)});
  return false;
}

}  // namespace

void read_properties(std::string_view text, Properties* properties, std::vector<PropertiesProblem>* problems) {
  std::size_t at = 0;
  while (const auto line = next_line(text, &at)) {
    const auto [key_end, value_start] = split_key(line->text);
    std::string key, value;
    const std::string_view view(line->text);
    if (!unescape(view.substr(0, key_end), &key) || !unescape(view.substr(value_start), &value)) {
      problems->push_back(PropertiesProblem{
          line->offset, "expected \\u and four hex digits, found a malformed \\uXXXX escape: Java refuses the file"});
      continue;
    }
    (*properties)[std::move(key)] = std::move(value);
  }
}

bool MasterPosition::names_start(bool gtid_mode) const {
  return !journal_name.empty() || (timestamp && *timestamp > 0) || (gtid_mode && !gtid.empty());
}

DestinationConfig destination_config(const Properties& p) {
  DestinationConfig config;
  config.master.address = std::string(trimmed(get(p, "canal.instance.master.address")));
  config.master.journal_name = std::string(trimmed(get(p, "canal.instance.master.journal.name")));
  config.master.position = number(p, "canal.instance.master.position");
  config.master.timestamp = number(p, "canal.instance.master.timestamp");
  config.master.gtid = std::string(trimmed(get(p, "canal.instance.master.gtid")));
  config.gtid_mode = trimmed(get(p, "canal.instance.gtidon")) == "true";
  decide_tsdb(p, &config);
  return config;
}

std::optional<DestinationConfig> load_destination_config(const std::string& dir, Reporter* reporter) {
  Properties merged;
  std::vector<std::string> read;
  const fs::path base = dir.empty() ? fs::path(".") : fs::path(dir);
  for (const fs::path& path : {base / ".." / "canal.properties", base / "instance.properties"}) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) continue;
    const std::string name = path.lexically_normal().string();
    std::string bytes;
    if (!read_bounded(name, &bytes, reporter)) continue;
    std::vector<PropertiesProblem> problems;
    read_properties(bytes, &merged, &problems);
    for (const PropertiesProblem& problem : problems)
      reporter->report(Finding{Severity::kError, "canal_properties", name, problem.offset, problem.message});
    read.push_back(name);
  }
  if (read.empty()) return std::nullopt;
  DestinationConfig config = destination_config(merged);
  config.files = std::move(read);
  return config;
}

}  // namespace qjt::canal
