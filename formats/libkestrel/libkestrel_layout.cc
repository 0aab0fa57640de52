#include "libkestrel/libkestrel_layout.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "libkestrel/libkestrel_format.h"
#include "whole_number.h"

namespace qjt::libkestrel {
namespace {

namespace fs = std::filesystem;

struct Entry {
  std::string name, path;
  FileKind kind = FileKind::kClassic;
  bool readable = true;  // false: no magic to tell, the name alone places it
};

bool can_open(const std::string& path) { return std::ifstream(path, std::ios::binary).is_open(); }

bool list(const std::string& dir, std::vector<Entry>* entries, std::string* error) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (!it->is_regular_file(type_ec)) continue;
    const std::string path = it->path().string();
    entries->push_back(Entry{it->path().filename().string(), path, file_kind_of(path), can_open(path)});
  }
  if (ec) {
    *error = fmt::format("cannot list {}: {}", dir, ec.message());
    return false;
  }
  std::sort(entries->begin(), entries->end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
  return true;
}

std::string queue_of(const std::string& name) { return name.substr(0, std::min(name.find('.'), name.find("~~"))); }

// The <n> of a writer file name Q.<n>: all digits (libkestrel's test), and
// small enough for the Long it parses.
std::optional<std::uint64_t> segment_number(const std::string& name, const std::string& queue) {
  if (name.rfind(queue + ".", 0) != 0) return std::nullopt;
  const std::string_view digits = std::string_view(name).substr(queue.size() + 1);
  const auto n = whole_number<std::uint64_t>(digits);
  if (!n || *n > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
  return n;
}

bool is_bookmark_name(const std::string& name, const std::string& queue) {
  return name.rfind(queue + ".read.", 0) == 0;
}

void warn(Reporter* reporter, const std::string& path, const char* code, std::string message) {
  reporter->report(Finding{Severity::kWarning, code, path, std::nullopt, std::move(message)});
}

// A file that cannot be opened is placed by its name, so that reading it
// fails where the commands report it (an io_error), instead of being left
// out as not libkestrel's.
void place(const Entry& e, QueueLayout* q, Reporter* reporter) {
  const auto number = segment_number(e.name, q->queue);
  const bool bookmark_name = is_bookmark_name(e.name, q->queue);
  if ((e.kind == FileKind::kSegment || !e.readable) && number) {
    q->segments.push_back(SegmentFile{e.path, e.name, *number});
  } else if ((e.kind == FileKind::kBookmark || !e.readable) && bookmark_name) {
    q->bookmarks.push_back(BookmarkFile{e.path, e.name, e.name.substr(q->queue.size() + 6)});
  } else if (e.kind != FileKind::kClassic) {
    warn(reporter, e.path, "unexpected_name",
         fmt::format("has the libkestrel {} magic, but libkestrel reads {} only as {}; qjt leaves it out",
                     e.kind == FileKind::kSegment ? "segment" : "bookmark",
                     e.kind == FileKind::kSegment ? "segments" : "bookmarks",
                     e.kind == FileKind::kSegment ? q->queue + ".<digits>" : q->queue + ".read.<name>"));
  } else if (number || bookmark_name) {
    warn(reporter, e.path, "not_libkestrel_file",
         fmt::format("named like a libkestrel {} but without its magic (a classic journal, or damage): "
                     "libkestrel's startup refuses it; qjt leaves it out",
                     number ? "segment" : "bookmark"));
  }
}

}  // namespace

bool discover_queues(const std::string& dir, Reporter* reporter, std::vector<QueueLayout>* queues, std::string* error) {
  std::vector<Entry> entries;
  if (!list(dir, &entries, error)) return false;
  std::map<std::string, QueueLayout> found;
  for (const Entry& e : entries) {
    if (e.kind != FileKind::kClassic && e.name.find("~~") == std::string::npos)
      found.emplace(queue_of(e.name), QueueLayout{dir, queue_of(e.name), {}, {}, {}});
  }
  for (const Entry& e : entries) {
    auto q = found.find(queue_of(e.name));
    if (q == found.end()) continue;
    if (e.name.find("~~") != std::string::npos) {
      q->second.temp_files.push_back(e.path);
      warn(reporter, e.path, "temp_file",
           "stray temporary file (an interrupted bookmark checkpoint or rewrite): libkestrel's startup "
           "deletes it; qjt ignores it");
      continue;
    }
    place(e, &q->second, reporter);
  }
  for (auto& [name, q] : found) {
    std::sort(q.segments.begin(), q.segments.end(),
              [](const SegmentFile& a, const SegmentFile& b) { return a.number < b.number; });
    queues->push_back(std::move(q));
  }
  return true;
}

}  // namespace qjt::libkestrel
