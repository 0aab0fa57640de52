#include "value_set.h"

#include <algorithm>
#include <cctype>
#include <memory>

#include <fmt/format.h>

#include "suggest.h"

namespace qjt::cli {
namespace {

std::string folded(std::string_view word, LetterCase letters) {
  std::string text(word);
  if (letters == LetterCase::kIgnored)
    for (char& ch : text) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return text;
}

// `values` in order, each word once.
std::vector<std::string> distinct(const std::vector<std::string>& values, LetterCase letters) {
  std::vector<std::string> kept, seen;
  for (const std::string& value : values) {
    std::string key = folded(value, letters);
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
    seen.push_back(std::move(key));
    kept.push_back(value);
  }
  return kept;
}

// "a, b or c".
std::string alternatives(const std::vector<std::string>& values) {
  if (values.size() < 2) return fmt::format("{}", fmt::join(values, ""));
  return fmt::format("{} or {}", fmt::join(values.begin(), values.end() - 1, ", "), values.back());
}

// CLI11 sets a validator's description once, as a string; the set's is
// made when first asked for, as the set is.
class ValueSet : public CLI::Validator {
 public:
  ValueSet(std::function<std::vector<std::string>()> values, LetterCase letters) {
    auto set = std::make_shared<std::vector<std::string>>();
    auto known = [values = std::move(values), letters, set]() -> const std::vector<std::string>& {
      if (set->empty()) *set = distinct(values(), letters);
      return *set;
    };
    desc_function_ = [known] { return fmt::format("{{{}}}", fmt::join(known(), ",")); };
    func_ = [known, letters](std::string& word) {
      const auto& words = known();
      const std::string key = folded(word, letters);
      const bool member = std::any_of(words.begin(), words.end(),
                                      [&](const std::string& value) { return folded(value, letters) == key; });
      return member ? std::string() : unknown_value(word, words, letters);
    };
    non_modifying();
  }
};

}  // namespace

std::string unknown_value(std::string_view word, const std::vector<std::string>& values, LetterCase letters) {
  std::vector<std::string> keys;
  for (const std::string& value : values) keys.push_back(folded(value, letters));
  const std::string near = closest(folded(word, letters), keys);
  if (near.empty()) return fmt::format("unknown value '{}' (expected {})", word, alternatives(values));
  const auto at = std::find(keys.begin(), keys.end(), near) - keys.begin();
  return fmt::format("unknown value '{}'; did you mean '{}'?", word, values[static_cast<std::size_t>(at)]);
}

CLI::Validator value_set(std::function<std::vector<std::string>()> values, LetterCase letters) {
  return ValueSet(std::move(values), letters);
}

CLI::Validator value_set(std::vector<std::string> values, LetterCase letters) {
  return value_set([values = std::move(values)] { return values; }, letters);
}

}  // namespace qjt::cli
