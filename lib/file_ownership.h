// FileOwnership: whose a file is and who may read it, so that a writer run
// as root (from cron) on a queue owned by the queue's own user leaves
// files that user can still write, and nobody else can read.
//
//  - A file a writer replaces keeps its owner, group, mode and extended
//    attributes (ACLs, SELinux label, user attributes): kept_at(path) of
//    an existing path.
//  - A new file beside the owner's files takes the owner, group and mode
//    of its sibling whose name shares the longest prefix with its own (a
//    log's meta its log's, a segment its queue's journal's), or of its
//    directory (less the execute bits) when it has no sibling. qjt's temp
//    files ("~~" names) and hidden files are no siblings.
//  - Before any change, can_keep_ownership refuses what this process
//    cannot give: another user's files, run as a user without the right
//    (CAP_CHOWN) to give a file away.
//  - Outputs (-o) are no business of this: they are the running user's,
//    mode 0666 less the umask, as cp makes a new file.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace qjt {

struct FileOwnership {
  uid_t uid = 0;
  gid_t gid = 0;
  mode_t mode = 0;                                          // the permission bits (07777)
  std::vector<std::pair<std::string, std::string>> xattrs;  // name, value

  // What a file written at `path` keeps, as above; nullopt with *error
  // when neither `path` nor its directory can be read.
  static std::optional<FileOwnership> kept_at(const std::string& path, std::string* error);

  // Gives the open file `fd` (`path`, for *error) this ownership: owner
  // and group, then mode, then each attribute (a file system without
  // attributes, ENOTSUP, is no error).
  bool apply(int fd, const std::string& path, std::string* error) const;
  // apply() to the file or directory at `path`.
  bool apply_to(const std::string& path, std::string* error) const;
};

// Whether this process can give a file written at `path` the ownership it
// keeps (kept_at); else false with *error naming the file and its owner
// (a refusal, exit status 2, before any change). True in a directory that
// does not exist yet: what the run makes there is its own.
bool can_keep_ownership(const std::string& path, std::string* error);

}  // namespace qjt
