// QueueLayout: which libkestrel queues a Kestrel 3 queue directory holds and
// which files make up each (spec §5.1). Kinds are told by magic, not by
// name: a queue is libkestrel when one of its files carries the segment or
// the bookmark magic. It reads names and magics only and changes nothing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "finding.h"

namespace qjt::libkestrel {

struct SegmentFile {
  std::string path, name;
  std::uint64_t number = 0;  // the <n> of Q.<n>: libkestrel's order
};

struct BookmarkFile {
  std::string path, name;
  std::string reader;  // after "Q.read."; empty for the default reader
};

struct QueueLayout {
  std::string dir, queue;
  std::vector<SegmentFile> segments;    // ascending number
  std::vector<BookmarkFile> bookmarks;  // by reader name
  std::vector<std::string> temp_files;  // Q~~*, Q.read.x~~*: deleted at libkestrel's startup
};

// Lists the libkestrel queues of `dir`, sorted by name; queues with no
// libkestrel file (classic ones) are left out. Reported: temp files
// (temp_file), files with a magic under a name libkestrel does not read
// (unexpected_name), and files of a libkestrel queue named like a segment
// or a bookmark but without its magic (not_libkestrel_file). False with
// *error when `dir` cannot be listed.
bool discover_queues(const std::string& dir, Reporter* reporter, std::vector<QueueLayout>* queues, std::string* error);

}  // namespace qjt::libkestrel
