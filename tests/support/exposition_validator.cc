#include "exposition_validator.h"

#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string_view>

namespace qjt_test {
namespace {

const std::regex kMetricName("[a-zA-Z_:][a-zA-Z0-9_:]*");
const std::regex kLabelName("[a-zA-Z_][a-zA-Z0-9_]*");
const std::regex kSampleValue(R"([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|NaN|[+-]Inf)");

bool matches(const std::regex& re, const std::string& text) { return std::regex_match(text, re); }

// Reads `labels="value",...}` from `text` at `*at` into `*out` (name to
// raw value); false on a breach of the grammar.
bool parse_labels(const std::string& text, std::size_t* at, std::map<std::string, std::string>* out) {
  while (*at < text.size() && text[*at] != '}') {
    const std::size_t eq = text.find("=\"", *at);
    if (eq == std::string::npos) return false;
    const std::string name = text.substr(*at, eq - *at);
    if (!matches(kLabelName, name) || name.starts_with("__") || out->count(name) != 0) return false;
    std::string value;
    std::size_t i = eq + 2;
    for (; i < text.size() && text[i] != '"'; ++i) {
      if (text[i] != '\\') {
        value += text[i];
        continue;
      }
      if (++i == text.size() || (text[i] != '\\' && text[i] != '"' && text[i] != 'n')) return false;
      value += text[i] == 'n' ? '\n' : text[i];
    }
    if (i == text.size()) return false;
    (*out)[name] = value;
    *at = i + 1;
    if (*at < text.size() && text[*at] == ',') ++*at;
  }
  if (*at == text.size()) return false;
  ++*at;  // the '}'
  return true;
}

// What is wrong with `text` as a Prometheus text exposition: one message
// per breach, empty when it is well-formed.
class ExpositionValidator {
 public:
  std::vector<std::string> check(const std::string& text) {
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) check_line(line);
    if (!text.empty() && text.back() != '\n') errors_.push_back("no final newline");
    return errors_;
  }

 private:
  void check_line(const std::string& line) {
    if (line.starts_with("# HELP ") || line.starts_with("# TYPE ")) return check_comment(line);
    if (line.starts_with("#")) return;
    check_sample(line);
  }

  void check_comment(const std::string& line) {
    const bool is_type = line.starts_with("# TYPE ");
    const std::size_t space = line.find(' ', 7);
    const std::string name = line.substr(7, space == std::string::npos ? std::string::npos : space - 7);
    if (!matches(kMetricName, name) || space == std::string::npos) return error("bad comment", line);
    const std::string rest = line.substr(space + 1);
    if (is_type) {
      if (!std::set<std::string>{"counter", "gauge", "summary", "histogram", "untyped"}.count(rest))
        return error("unknown type", line);
      if (!types_.emplace(name, rest).second) return error("second TYPE", line);
      if (sampled_.count(name)) return error("TYPE after samples", line);
    } else {
      if (!helped_.insert(name).second) return error("second HELP", line);
      for (std::size_t i = 0; i < rest.size(); ++i)
        if (rest[i] == '\\' && (++i == rest.size() || (rest[i] != '\\' && rest[i] != 'n')))
          return error("bad HELP escape", line);
    }
    enter_family(name, line);
  }

  void check_sample(const std::string& line) {
    std::size_t at = line.find_first_of("{ ");
    if (at == std::string::npos) return error("no value", line);
    const std::string name = line.substr(0, at);
    if (!matches(kMetricName, name)) return error("bad metric name", line);
    std::map<std::string, std::string> labels;
    if (line[at] == '{' && !parse_labels(line, &(++at), &labels)) return error("bad labels", line);
    if (at >= line.size() || line[at] != ' ') return error("no value", line);
    if (!matches(kSampleValue, line.substr(at + 1))) return error("bad value", line);
    const std::string family = family_of(name);
    if (family.empty()) return error("sample without TYPE", line);
    enter_family(family, line);
    sampled_.insert(family);
    std::string series = name;
    for (const auto& [label, value] : labels) series += "|" + label + "=" + value;
    if (!series_.insert(series).second) error("duplicate series", line);
  }

  // The family a sample of `name` belongs to: its own, or a summary's or
  // histogram's whose suffix it has; "" when none was typed.
  std::string family_of(const std::string& name) const {
    if (types_.count(name)) return name;
    for (const std::string suffix : {"_sum", "_count", "_bucket"}) {
      if (!name.ends_with(suffix)) continue;
      const auto it = types_.find(name.substr(0, name.size() - suffix.size()));
      if (it != types_.end() && (it->second == "summary" || it->second == "histogram")) return it->first;
    }
    return "";
  }

  // A family's lines come together: none after another family's.
  void enter_family(const std::string& family, const std::string& line) {
    if (family == current_) return;
    if (done_.count(family)) error("family split", line);
    if (!current_.empty()) done_.insert(current_);
    current_ = family;
  }

  void error(std::string_view what, const std::string& line) { errors_.push_back(std::string(what) + ": " + line); }

  std::map<std::string, std::string> types_;
  std::set<std::string> helped_, sampled_, series_, done_;
  std::string current_;
  std::vector<std::string> errors_;
};

}  // namespace

std::vector<std::string> exposition_errors(const std::string& text) { return ExpositionValidator().check(text); }

}  // namespace qjt_test
