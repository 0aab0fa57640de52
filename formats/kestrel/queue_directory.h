// QueueDirectory: which queues a Kestrel queue directory holds and which
// files make up each queue's journal, in the order Kestrel 2.x replays them
// (spec 2.1). It reads names only and never changes a file: where Kestrel's
// startup would delete or rename something, qjt reports what it would do
// and replays the result as if it had. Files another format claims (a
// caller's ForeignFile, e.g. Kestrel 3's magics) are not part of any
// classic queue.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "finding.h"

namespace qjt::kestrel {

enum class FileRole {
  kArchived,  // Q.<ts>, a rotated segment
  kPack,      // Q.<ts>.pack, an unfinished compaction that startup installs as Q.<ts>
  kLive,      // Q, appended to
  kGiven,     // a file named on the command line, outside any directory
};

const char* file_role_name(FileRole role);

struct JournalFile {
  std::string path;  // as the user can open it
  std::string name;  // base name
  FileRole role = FileRole::kGiven;
  std::uint64_t size = 0;
};

// Whether Kestrel appends to `file` (so that a broken record truncates this
// very file): the live journal, or a file named directly that is named like
// one (no dot).
bool is_live_journal(const JournalFile& file);

struct QueueJournal {
  std::string name;
  std::vector<JournalFile> files;  // replay order
  // Files of this queue that Kestrel's startup deletes and replay skips:
  // segments a pack supersedes, and Q~~* temp files.
  std::vector<std::string> leftovers;
};

// A file of one directory: its base name, which Kestrel's naming rule
// reads, and the path the caller opens it by.
struct NamedFile {
  std::string name;
  std::string path;
  std::uint64_t size = 0;
};

// The queue Kestrel's naming rule gives a file name: Q for Q, Q.<ts> and
// Q.<ts>.pack. nullopt for the names startup deletes or cannot place:
// Q~~* temp files, names without a queue part, unparsable timestamps.
std::optional<std::string> queue_of_name(std::string_view name);

// Whether `name` is one of a queue's files by Kestrel's naming rule: a
// journal (queue_of_name) or a temp file Q~~*.
bool names_queue_file(std::string_view name);

// Groups files of one directory into queues sorted by name, each in replay
// order, reporting as discover_queues does. discover_queues gives it the
// whole listing; files named one by one on a command line go through the
// same rule, so they replay as their directory would.
std::vector<QueueJournal> group_queues(std::vector<NamedFile> files, Reporter* reporter);

// Whether a file of a queue directory is not a classic journal (a Kestrel
// 3 segment beside classic journals, a file of no known format): such
// files are part of no queue.
using ForeignFile = std::function<bool(const std::string& path)>;

// Lists `dir`'s queues sorted by name (group_queues on its classic files,
// those `foreign` does not claim). Temp files, segments a pack supersedes,
// leftover packs and names Kestrel cannot parse are reported to `reporter`,
// and so is each file `foreign` claims whose name Kestrel's startup trips
// over (stray_file, a warning), when the directory holds a queue.
// Returns false and sets *error when `dir` cannot be listed.
bool discover_queues(const std::string& dir, Reporter* reporter, std::vector<QueueJournal>* queues, std::string* error,
                     const ForeignFile& foreign = {});

}  // namespace qjt::kestrel
