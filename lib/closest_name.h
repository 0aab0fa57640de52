// The name a user most likely meant by a word qjt does not know: a command
// or an option (lib/cli/suggest.h), a queue (--queue). Format-free, so that
// a family's reader suggests names as the command line does.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace qjt {

// The edits that turn `a` into `b`: inserting, deleting or replacing a
// character, or swapping two neighbours (optimal string alignment, the
// Damerau-Levenshtein distance without editing a substring twice), each
// one edit: a swapped pair is the commonest typo (repiar for repair).
std::size_t edit_distance(std::string_view a, std::string_view b);

// The name in `names` closest to `word` by edit distance, or "" when none
// is close enough to be what the user meant.
std::string closest(std::string_view word, const std::vector<std::string>& names);

}  // namespace qjt
