// GeneratedFiles: the files one run of `qjt gen` (or a channel compaction)
// writes, each under a temp name ("<path>~~qjt-gen.<pid>": a name no queue
// system takes for one of its files, and a killed run's leftover is no
// obstacle), installed all together by renames in one CommitSection. Until
// install() succeeds the final names are untouched (a rename that fails
// takes back those done before it), and the destructor removes every temp
// file.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "durable_file.h"

namespace qjt {

// How a generator of `qjt gen` ended.
enum class GenerateStatus { kOk, kUsage, kIoError };

// What --corrupt did to the output, for the report.
struct GeneratedDamage {
  std::string mode;
  std::string file;
  std::optional<std::uint64_t> offset;  // of the damaged record, when there is one
  std::string description;
};

// FileWriter::create of `temp`, the temp file of `final_path`, whose error
// names `final_path`: the user named that one, the temp name is qjt's.
std::unique_ptr<FileWriter> create_generated(const std::string& temp, const std::string& final_path,
                                             std::string* error);

class GeneratedFiles {
 public:
  GeneratedFiles() = default;
  ~GeneratedFiles();
  GeneratedFiles(const GeneratedFiles&) = delete;
  GeneratedFiles& operator=(const GeneratedFiles&) = delete;

  // A writer of the temp file for `final_path`; null with *error on failure.
  std::unique_ptr<FileWriter> create(const std::string& final_path, std::string* error);
  // `bytes` as the whole file `final_path`, synced.
  bool write_whole(const std::string& final_path, const std::string& bytes, std::string* error);
  // The temp name of `final_path` (created before), for damage done to it.
  std::string temp_of(const std::string& final_path) const;

  // Removes `stale` (the old files --force replaces), then renames every
  // file into place, and says `what` was written (note_committed). With
  // `what` empty the files are staged: an interrupt before the caller's
  // own note_committed removes them (track_created).
  bool install(const std::vector<std::string>& stale, const std::string& what, std::string* error);

 private:
  struct File {
    std::string temp, final_path;
    bool installed = false;
  };
  void take_back();
  std::vector<File> files_;
};

}  // namespace qjt
