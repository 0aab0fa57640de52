#include "libkestrel/cli/libkestrel_input.h"

#include <filesystem>

#include <fmt/format.h>

#include "command_support.h"
#include "libkestrel/libkestrel_layout.h"
#include "libkestrel/libkestrel_reader.h"
#include "path_name.h"

namespace qjt::cli {
namespace {

namespace fs = std::filesystem;

// Told by the magic, through InputFile: a FIFO or a device is read once
// there, and the open that reads the file after this one gets the same
// bytes instead of waiting on the FIFO again.
libkestrel::FileKind kind_of(const std::string& path) {
  std::string ignored;
  const auto input = InputFile::open(path, &ignored);
  return input ? libkestrel::file_kind(input->bytes()) : libkestrel::FileKind::kClassic;
}

void io_error(Reporter* reporter, LkSelection* selection, const std::string& path, std::string message) {
  reporter->report(Finding{Severity::kError, "io_error", path, std::nullopt, std::move(message)});
  selection->status = worse(selection->status, ExitCode::kIoError);
}

void add_directory(const std::string& dir, const std::string& queue, Reporter* reporter, LkSelection* selection) {
  std::vector<libkestrel::QueueLayout> layouts;
  std::string error;
  FindingList layout_findings;
  if (!libkestrel::discover_queues(dir, &layout_findings, &layouts, &error))
    return io_error(reporter, selection, dir, error);
  bool found = false;
  for (auto& layout : layouts) {
    if (!queue.empty() && layout.queue != queue) continue;
    found = true;
    LkQueue q{layout.queue, dir, {}, std::move(layout.temp_files), {}};
    for (const auto& s : layout.segments)
      q.files.push_back(LkFile{s.path, libkestrel::FileKind::kSegment, "", nullptr});
    for (const auto& b : layout.bookmarks)
      q.files.push_back(LkFile{b.path, libkestrel::FileKind::kBookmark, b.reader, nullptr});
    for (const Finding& f : layout_findings.findings()) {
      const std::string name = base_name(f.file);
      if (name.rfind(q.name + ".", 0) == 0 || name.rfind(q.name + "~~", 0) == 0) q.layout_findings.push_back(f);
    }
    selection->queues.push_back(std::move(q));
  }
  // As for classic journals (kestrel/journal_selection.cc): nothing to read is an error.
  if (layouts.empty())
    io_error(reporter, selection, dir, "expected a libkestrel queue in this directory, found none");
  else if (!queue.empty() && !found)
    io_error(reporter, selection, dir,
             fmt::format("expected a libkestrel queue named {} in this directory, found none", queue));
}

// The reader a bookmark named directly belongs to: the text after ".read.".
std::string reader_of(const std::string& path) {
  const std::string name = base_name(path);
  const auto at = name.find(".read.");
  return at == std::string::npos ? name : name.substr(at + 6);
}

}  // namespace

LkSelection open_libkestrel(const std::vector<std::string>& paths, const std::string& queue, Reporter* reporter) {
  LkSelection selection;
  LkQueue given;
  for (const std::string& path : paths) {
    if (path != "-" && is_directory(path)) {
      add_directory(path, queue, reporter, &selection);
      continue;
    }
    // Standard input too: its magic tells a segment from a bookmark.
    const auto kind = kind_of(path);
    if (kind == libkestrel::FileKind::kClassic && (path == "-" || fs::exists(path))) {
      usage_error("", fmt::format("{} is not a libkestrel file (no segment or bookmark magic)", path));
      selection.status = worse(selection.status, ExitCode::kUsage);
      continue;
    }
    given.files.push_back(LkFile{path, kind, reader_of(path), nullptr});
  }
  std::stable_partition(given.files.begin(), given.files.end(),
                        [](const LkFile& f) { return f.kind != libkestrel::FileKind::kBookmark; });
  if (!given.files.empty()) selection.queues.insert(selection.queues.begin(), std::move(given));
  for (auto& q : selection.queues) {
    for (auto& f : q.files) {
      Finding failure;
      f.input = InputFile::open(f.path, &failure);
      if (!f.input) {
        reporter->report(std::move(failure));
        selection.status = worse(selection.status, ExitCode::kIoError);
      }
    }
  }
  return selection;
}

std::vector<std::vector<std::string>> libkestrel_units(const std::vector<std::string>& paths) {
  std::vector<std::vector<std::string>> units(1);
  for (const std::string& path : paths) {
    if (is_directory(path)) {
      units.push_back({path});
    } else {
      units.front().push_back(path);
    }
  }
  if (units.front().empty()) units.erase(units.begin());
  return units;
}

ReplayedQueue::ReplayedQueue(const LkQueue& queue, const std::function<void(const libkestrel::Record&)>& on_put) {
  for (const Finding& f : queue.layout_findings) findings.report(f);
  for (const LkFile& f : queue.files) {
    if (!f.input) continue;
    if (f.kind == libkestrel::FileKind::kBookmark) {
      replay.add_bookmark(f.path, f.reader, f.input->bytes());
    } else {
      replay.add_segment(f.path, f.input->bytes(), on_put);
    }
  }
  replay.finish();
}

void read_records(const LkFile& file, Reporter* reporter,
                  const std::function<bool(const libkestrel::Record&)>& on_record) {
  libkestrel::Reader reader(file.input->bytes(), file.kind);
  libkestrel::Record record;
  while (reader.next(&record)) {
    if (record.op == libkestrel::Op::kBroken)
      reporter->report(Finding{Severity::kError, "broken_record", file.path, record.offset, record.error});
    if (!on_record(record)) break;
  }
  if (const auto garbage = reader.data_after_end()) {
    reporter->report(Finding{Severity::kWarning, "data_after_end", file.path, *garbage,
                             "non-zero byte after the end of data (a 0x00 command byte): libkestrel reads "
                             "nothing past the end"});
  }
}

}  // namespace qjt::cli
