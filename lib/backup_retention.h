// Backup retention (--keep-backups N): the last step of a guarded
// replacement, after the new state is installed and verified clean.
//
// A backup's place ends in the milliseconds it was made at:
// "<root>/<queue>.<ms>" (a directory) or "<file>.qjt-backup-<ms>" (a
// copy). Its series is every sibling with the same name up to those
// digits: one queue's or one file's backups, and nothing else in the
// directory (of the same kind: directories, or files). The newest `keep`
// of the series stay (the one just made
// among them); the older ones are removed.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace qjt {

struct PrunedBackups {
  std::vector<std::string> removed;
  std::vector<std::string> failures;  // a sentence each: what could not be removed, and why
};

// Removes all but the newest `keep` (>= 1) backups of the series of
// `backup`, the place just made.
PrunedBackups prune_backups(const std::string& backup, std::size_t keep);

}  // namespace qjt
