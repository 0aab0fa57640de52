#include "closest_name.h"

#include <algorithm>
#include <numeric>

namespace qjt {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the table whose cell j in row i is the distance from the
  // first i characters of a to the first j of b: rows i, i-1 (previous)
  // and i-2 (before), which a swap reaches back to.
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    before.swap(previous);
    previous.swap(row);
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t replace = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({previous[j] + 1, row[j - 1] + 1, replace});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], before[j - 2] + 1);
    }
  }
  return row[b.size()];
}

std::string closest(std::string_view word, const std::vector<std::string>& names) {
  // Close enough: a typo or two, and never most of the word.
  std::size_t best = std::min<std::size_t>(3, (word.size() + 1) / 2);
  std::string found;
  for (const std::string& name : names) {
    const std::size_t d = edit_distance(word, name);
    if (d < best) {
      best = d;
      found = name;
    }
  }
  return found;
}

}  // namespace qjt
