#include "kestrel/queue_directory.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <optional>
#include <set>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "whole_number.h"

namespace qjt::kestrel {
namespace {

namespace fs = std::filesystem;

struct Segment {
  NamedFile entry;
  std::int64_t timestamp = 0;
  bool pack = false;
};

// Kestrel takes the text between the first and second dot as a Long
// (`name.split('.')(1).toLong`); Java's parseLong accepts one leading sign.
std::optional<std::int64_t> segment_timestamp(std::string_view name) {
  const auto first = name.find('.');
  auto text = name.substr(first + 1);
  text = text.substr(0, text.find('.'));
  if (text.starts_with('+')) {
    text.remove_prefix(1);
    if (text.starts_with('-')) return std::nullopt;  // "+-5": two signs
  }
  return whole_number<std::int64_t>(text);
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

void warn(Reporter* reporter, const std::string& path, std::string code, std::string message,
          Severity severity = Severity::kWarning) {
  reporter->report(Finding{severity, std::move(code), path, std::nullopt, std::move(message)});
}

// Applies startup's pack clean-up (spec 2.1 step 3) to the sorted segments,
// lowest pack first, as Kestrel's tail-recursive loop does.
void apply_packs(std::vector<Segment>* segments, std::vector<std::string>* superseded, Reporter* reporter) {
  for (;;) {
    auto pack = std::find_if(segments->begin(), segments->end(), [](const Segment& s) { return s.pack; });
    if (pack == segments->end()) return;
    const Segment installed = *pack;
    const std::size_t superseded_before = superseded->size();
    std::vector<Segment> kept;
    for (const Segment& s : *segments) {
      if (!s.pack && s.timestamp <= installed.timestamp) {
        superseded->push_back(s.entry.path);
        warn(reporter, superseded->back(), "superseded_segment",
             fmt::format("covered by the leftover pack {}: Kestrel's startup deletes this segment "
                         "and qjt leaves it out of the replay",
                         installed.entry.name));
      } else {
        kept.push_back(s);
      }
    }
    warn(reporter, installed.entry.path, "leftover_pack",
         fmt::format("unfinished compaction: Kestrel's startup installs it as {} in place of {} "
                     "older segment(s); qjt replays it in that place",
                     installed.entry.name.substr(0, installed.entry.name.size() - 5),
                     superseded->size() - superseded_before));
    for (Segment& s : kept)
      if (s.entry.name == installed.entry.name) s.pack = false;
    *segments = std::move(kept);
  }
}

QueueJournal build_queue(const std::string& queue, const std::vector<NamedFile>& entries, Reporter* reporter) {
  QueueJournal journal{queue, {}, {}};
  std::vector<Segment> segments;
  std::optional<NamedFile> live;
  for (const NamedFile& e : entries) {
    if (e.name == queue) {
      live = e;
      continue;
    }
    if (e.name.rfind(queue + "~~", 0) == 0) {
      journal.leftovers.push_back(e.path);
      continue;
    }
    if (e.name.rfind(queue + ".", 0) != 0) continue;
    const auto ts = segment_timestamp(e.name);
    if (!ts) {
      warn(reporter, e.path, "bad_segment_name",
           fmt::format("expected {}.<timestamp>[.pack]: Kestrel's startup cannot parse this name "
                       "and fails; qjt leaves the file out of the replay",
                       queue),
           Severity::kError);
      continue;
    }
    segments.push_back(Segment{e, *ts, ends_with(e.name, ".pack")});
  }
  std::stable_sort(segments.begin(), segments.end(), [](const Segment& a, const Segment& b) {
    return a.timestamp != b.timestamp ? a.timestamp < b.timestamp : a.entry.name < b.entry.name;
  });
  apply_packs(&segments, &journal.leftovers, reporter);
  for (const Segment& s : segments) {
    journal.files.push_back(JournalFile{s.entry.path, s.entry.name,
                                        ends_with(s.entry.name, ".pack") ? FileRole::kPack : FileRole::kArchived,
                                        s.entry.size});
  }
  if (live) {
    journal.files.push_back(JournalFile{live->path, live->name, FileRole::kLive, live->size});
  }
  return journal;
}

constexpr std::array<std::pair<FileRole, const char*>, 4> kFileRoleNames = {{
    {FileRole::kArchived, "archived"},
    {FileRole::kPack, "pack"},
    {FileRole::kLive, "live"},
    {FileRole::kGiven, "given"},
}};

// What Kestrel's startup does with a file of the directory that is not a
// classic journal: it lists every file, whatever its content.
void report_stray(const NamedFile& file, Reporter* reporter) {
  const std::string queue = file.name.substr(0, file.name.find('.'));
  if (queue.empty()) return;  // not_a_queue_file
  const std::string action =
      queue_of_name(file.name)
          ? fmt::format(
                "reads it as part of queue {}'s journal, finds no record at offset 0 and truncates "
                "the live journal {} there",
                queue, queue)
          : fmt::format("cannot parse this name as {}.<timestamp> and fails", queue);
  warn(reporter, file.path, "stray_file",
       fmt::format("not a classic Kestrel journal (qjt skips it), but Kestrel's startup {}: move it out of the "
                   "queue directory",
                   action));
}

}  // namespace

const char* file_role_name(FileRole role) {
  for (const auto& [value, text] : kFileRoleNames)
    if (value == role) return text;
  return "given";
}

bool is_live_journal(const JournalFile& file) {
  return file.role == FileRole::kLive || (file.role == FileRole::kGiven && file.name.find('.') == std::string::npos);
}

std::optional<std::string> queue_of_name(std::string_view name) {
  if (name.find("~~") != std::string_view::npos) return std::nullopt;
  const std::string_view queue = name.substr(0, name.find('.'));
  if (queue.empty()) return std::nullopt;
  if (queue.size() != name.size() && !segment_timestamp(name)) return std::nullopt;
  return std::string(queue);
}

bool names_queue_file(std::string_view name) {
  const auto temp = name.find("~~");
  return temp == std::string_view::npos ? queue_of_name(name).has_value() : temp > 0 && name.front() != '.';
}

std::vector<QueueJournal> group_queues(std::vector<NamedFile> files, Reporter* reporter) {
  std::sort(files.begin(), files.end(), [](const NamedFile& a, const NamedFile& b) { return a.name < b.name; });
  std::set<std::string> names;
  for (const NamedFile& e : files) {
    if (e.name.find("~~") != std::string::npos) {
      warn(reporter, e.path, "temp_file",
           "stray temporary file from an interrupted rewrite: Kestrel's startup deletes it; qjt "
           "ignores it");
      continue;
    }
    const std::string queue = e.name.substr(0, e.name.find('.'));
    if (queue.empty()) {
      warn(reporter, e.path, "not_a_queue_file",
           "expected <queue>[.<timestamp>[.pack]]: the name has no queue part; qjt ignores it");
      continue;
    }
    names.insert(queue);
  }
  std::vector<QueueJournal> queues;
  for (const std::string& queue : names) queues.push_back(build_queue(queue, files, reporter));
  return queues;
}

bool discover_queues(const std::string& dir, Reporter* reporter, std::vector<QueueJournal>* queues, std::string* error,
                     const ForeignFile& foreign) {
  std::error_code ec;
  std::vector<NamedFile> files, strays;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (!it->is_regular_file(type_ec)) continue;  // Kestrel ignores directories
    std::error_code size_ec;
    const auto size = it->file_size(size_ec);
    const std::string name = it->path().filename().string();
    NamedFile file{name, (fs::path(dir) / name).string(), size_ec ? 0 : size};
    // A temp file is startup's to delete, whatever it holds (temp_file).
    if (foreign && file.name.find("~~") == std::string::npos && foreign(file.path)) {
      strays.push_back(std::move(file));
    } else {
      files.push_back(std::move(file));
    }
  }
  if (ec) {
    *error = fmt::format("cannot list {}: {}", dir, ec.message());
    return false;
  }
  // Only a directory that holds a queue is one Kestrel reads.
  if (!files.empty()) {
    std::sort(strays.begin(), strays.end(), [](const NamedFile& a, const NamedFile& b) { return a.name < b.name; });
    for (const NamedFile& stray : strays) report_stray(stray, reporter);
  }
  *queues = group_queues(std::move(files), reporter);
  return true;
}

}  // namespace qjt::kestrel
