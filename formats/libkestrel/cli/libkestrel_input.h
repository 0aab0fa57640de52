// Turns PATH arguments into libkestrel (Kestrel 3) queues: a directory
// holding libkestrel files contributes its libkestrel queues (or the one
// --queue names), and segments and bookmarks named directly form one more
// queue, the segments in the order given. Kinds are told by magic.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "exit_code.h"
#include "finding.h"
#include "input_file.h"
#include "libkestrel/libkestrel_format.h"
#include "libkestrel/libkestrel_record.h"
#include "libkestrel/libkestrel_replay.h"

namespace qjt::cli {

struct LkFile {
  std::string path;
  libkestrel::FileKind kind = libkestrel::FileKind::kSegment;
  std::string reader;                // bookmarks: the reader's name
  std::unique_ptr<InputFile> input;  // null when unreadable
};

struct LkQueue {
  std::string name;           // empty for files named directly
  std::string directory;      // empty for files named directly
  std::vector<LkFile> files;  // segments in libkestrel's order, then bookmarks
  std::vector<std::string> temp_files;
  std::vector<Finding> layout_findings;
};

struct LkSelection {
  std::vector<LkQueue> queues;
  ExitCode status = ExitCode::kOk;  // kIoError when something could not be opened
};

// A missing path or queue, an unreadable file, or a classic journal among
// the PATHs is reported to `reporter` (io_error, or a usage message: then
// status is kUsage). Layout findings stay with their queue.
LkSelection open_libkestrel(const std::vector<std::string>& paths, const std::string& queue, Reporter* reporter);

// open_libkestrel's PATHs as units of work (cli Driver::units): the files
// named directly, which make one queue, then each directory.
std::vector<std::vector<std::string>> libkestrel_units(const std::vector<std::string>& paths);

// Reads one file's records in order, passing each to `on_record` until it
// returns false: what dump and convert --to jsonl print. A broken record
// is reported (broken_record) and passed on; a byte after the end of data
// is reported once the reading stops (data_after_end).
void read_records(const LkFile& file, Reporter* reporter,
                  const std::function<bool(const libkestrel::Record&)>& on_record);

// A queue as libkestrel loads it: its layout findings, then those of the
// replay of every readable file. `on_put` sees each PUT as it is read
// (QueueReplay::add_segment).
struct ReplayedQueue {
  explicit ReplayedQueue(const LkQueue& queue, const std::function<void(const libkestrel::Record&)>& on_put = {});
  ReplayedQueue(const ReplayedQueue&) = delete;
  ReplayedQueue& operator=(const ReplayedQueue&) = delete;
  FindingList findings;
  libkestrel::QueueReplay replay{&findings};
};

}  // namespace qjt::cli
