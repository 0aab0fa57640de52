#include "kestrel/journal_selection.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "closest_name.h"
#include "kestrel/journal_reader.h"
#include "path_name.h"

namespace qjt::kestrel {
namespace {

void io_error(Reporter* reporter, JournalSelection* selection, const std::string& path, std::string message) {
  reporter->report(Finding{Severity::kError, "io_error", path, std::nullopt, std::move(message)});
  selection->status = ExitCode::kIoError;
}

void open_files(OpenJournal* journal, Reporter* reporter, JournalSelection* selection) {
  for (auto& file : journal->files) {
    Finding failure;
    // Read on demand: a stream is decoded as it arrives (lib/input_file.h).
    auto input = InputFile::open(file.path, &failure, InputFile::StreamReading::kOnDemand);
    if (!input) {
      reporter->report(std::move(failure));
      selection->status = ExitCode::kIoError;
    } else {
      file.size = input->size();
    }
    journal->inputs.push_back(std::move(input));
  }
}

// The queue a file of a queue directory belongs to: its name up to the
// first '.' or "~~".
std::string owning_queue(const std::string& path) {
  const std::string name = base_name(path);
  return name.substr(0, std::min(name.find('.'), name.find("~~")));
}

// Gives each layout finding to the journal (from `first` on) of the queue
// its file belongs to. The others concern files of no selected queue: they
// are told to `reporter` unless --queue picked one queue.
void attach_layout(const FindingList& layout, std::size_t first, const std::string& queue,
                   std::vector<OpenJournal>* journals, Reporter* reporter) {
  for (const Finding& f : layout.findings()) {
    const std::string owner = owning_queue(f.file);
    auto journal = std::find_if(journals->begin() + static_cast<std::ptrdiff_t>(first), journals->end(),
                                [&](const OpenJournal& j) { return j.queue == owner; });
    if (journal != journals->end()) {
      journal->layout_findings.push_back(f);
    } else if (queue.empty()) {
      reporter->report(f);
    }
  }
}

// --queue names no queue of the directory: the one meant, or those there.
std::string missing_queue(const std::string& queue, const std::vector<QueueJournal>& queues) {
  std::vector<std::string> names;
  for (const QueueJournal& q : queues) names.push_back(q.name);
  const std::string meant = closest(queue, names);
  if (!meant.empty())
    return fmt::format("expected a queue named {} in this directory, found none; did you mean {}?", queue, meant);
  return fmt::format("expected a queue named {} in this directory, found none; its queues: {}", queue,
                     fmt::join(names, ", "));
}

void add_directory(const std::string& dir, const std::string& queue, const ForeignFile& foreign, Reporter* reporter,
                   JournalSelection* selection) {
  std::vector<QueueJournal> queues;
  std::string error;
  FindingList layout;
  if (!discover_queues(dir, &layout, &queues, &error, foreign)) {
    io_error(reporter, selection, dir, error);
    return;
  }
  bool found = false;
  const std::size_t first = selection->journals.size();
  for (auto& q : queues) {
    if (!queue.empty() && q.name != queue) continue;
    found = true;
    selection->journals.push_back(
        OpenJournal{q.name, std::move(q.files), {}, dir, std::move(q.leftovers), {}, foreign});
  }
  attach_layout(layout, first, queue, &selection->journals, reporter);
  // A directory that yields nothing to read is not a clean queue: it is the
  // wrong directory, or the wrong family forced with --format kestrel.
  if (queues.empty()) {
    io_error(reporter, selection, dir, "expected a classic Kestrel journal in this directory, found none");
  } else if (!queue.empty() && !found) {
    io_error(reporter, selection, dir, missing_queue(queue, queues));
  }
}

// Files named on the command line, by the directory they are in (first named
// first): Kestrel's naming rule groups the files of one directory only.
using FilesByDirectory = std::vector<std::pair<std::string, std::vector<NamedFile>>>;

// The same file named twice is read once, as a directory lists it once.
void add_to_directory(const std::string& path, const std::string& name, FilesByDirectory* directories) {
  const std::string key = std::filesystem::path(path).parent_path().lexically_normal().string();
  auto dir = std::find_if(directories->begin(), directories->end(), [&](const auto& d) { return d.first == key; });
  if (dir == directories->end()) dir = directories->insert(directories->end(), {key, {}});
  const bool repeated =
      std::any_of(dir->second.begin(), dir->second.end(), [&](const NamedFile& f) { return f.name == name; });
  if (!repeated) dir->second.push_back(NamedFile{name, path, 0});
}

// Appends the queues of one directory's named files. They stay kGiven and
// directory-less: writing commands treat them as files named directly (compact
// needs -o, repair backs each up by its name), not as a queue directory.
void add_named_queues(std::vector<NamedFile> named, std::vector<OpenJournal>* journals, Reporter* reporter) {
  FindingList layout;
  const std::size_t first = journals->size();
  for (auto& q : group_queues(std::move(named), &layout)) {
    for (auto& f : q.files) f.role = FileRole::kGiven;
    journals->push_back(OpenJournal{q.name, std::move(q.files), {}, "", std::move(q.leftovers), {}, {}});
  }
  attach_layout(layout, first, "", journals, reporter);
}

// Files named one by one are grouped into queues by Kestrel's naming rule,
// exactly as their directory would be, so unrelated journals are never
// replayed as one stream. A name the rule cannot place (and standard input)
// is a queue of its own, named by it.
std::vector<OpenJournal> given_journals(const std::vector<std::string>& files, Reporter* reporter) {
  std::vector<OpenJournal> journals;
  FilesByDirectory directories;
  for (const std::string& path : files) {
    const std::string name = base_name(path);
    if (path == "-" || !queue_of_name(name)) {
      journals.push_back(OpenJournal{name, {JournalFile{path, name, FileRole::kGiven, 0}}, {}, "", {}, {}, {}});
    } else {
      add_to_directory(path, name, &directories);
    }
  }
  for (auto& [key, named] : directories) add_named_queues(std::move(named), &journals, reporter);
  // Queue order, as in a directory listing.
  std::stable_sort(journals.begin(), journals.end(),
                   [](const OpenJournal& a, const OpenJournal& b) { return a.queue < b.queue; });
  return journals;
}

}  // namespace

JournalSelection open_journals(const std::vector<std::string>& paths, const std::string& queue,
                               const ForeignFile& foreign, Reporter* reporter) {
  JournalSelection selection;
  std::vector<std::string> given;
  for (const std::string& path : paths) {
    if (path != "-" && is_directory(path)) {
      add_directory(path, queue, foreign, reporter, &selection);
    } else {
      given.push_back(path);
    }
  }
  auto files = given_journals(given, reporter);
  selection.journals.insert(selection.journals.begin(), std::make_move_iterator(files.begin()),
                            std::make_move_iterator(files.end()));
  for (auto& journal : selection.journals) open_files(&journal, reporter, &selection);
  return selection;
}

std::vector<std::vector<std::string>> journal_units(const std::vector<std::string>& paths) {
  // A queue of files named directly: given_journals' grouping and order.
  struct Named {
    std::string queue;
    std::size_t directory;  // first-named order of its directory; lone names first
    std::vector<std::string> paths;
  };
  std::vector<Named> named;
  std::vector<std::string> directories;  // of the named files, first named first
  std::vector<std::vector<std::string>> units;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (path != "-" && std::filesystem::is_directory(path, ec)) {
      units.push_back({path});
      continue;
    }
    const std::string name = std::filesystem::path(path).filename().string();
    const auto queue = path == "-" ? std::nullopt : queue_of_name(name);
    if (!queue) {
      named.push_back(Named{name, 0, {path}});
      continue;
    }
    const std::string key = std::filesystem::path(path).parent_path().lexically_normal().string();
    const auto dir = std::find(directories.begin(), directories.end(), key);
    const std::size_t rank = static_cast<std::size_t>(dir - directories.begin()) + 1;
    if (dir == directories.end()) directories.push_back(key);
    const auto same = std::find_if(named.begin(), named.end(),
                                   [&](const Named& n) { return n.directory == rank && n.queue == *queue; });
    if (same == named.end()) {
      named.push_back(Named{*queue, rank, {path}});
    } else {
      same->paths.push_back(path);
    }
  }
  std::stable_sort(named.begin(), named.end(), [](const Named& a, const Named& b) {
    return a.queue != b.queue ? a.queue < b.queue : a.directory < b.directory;
  });
  std::vector<std::vector<std::string>> ordered;
  for (Named& n : named) ordered.push_back(std::move(n.paths));
  ordered.insert(ordered.end(), std::make_move_iterator(units.begin()), std::make_move_iterator(units.end()));
  return ordered;
}

void report_layout(const JournalSelection& selection, Reporter* reporter) {
  for (const auto& journal : selection.journals)
    for (const Finding& f : journal.layout_findings) reporter->report(f);
}

JournalSelection open_journals_and_report(const std::vector<std::string>& paths, const std::string& queue,
                                          const ForeignFile& foreign, Reporter* reporter) {
  JournalSelection selection = open_journals(paths, queue, foreign, reporter);
  report_layout(selection, reporter);
  return selection;
}

namespace {

// Applies the records of `reader` to `state` (and `tally`, if any), `base`
// added to their offsets; returns how many there were (terminal records
// excluded).
std::uint64_t apply_records(JournalReader* reader, std::uint64_t base, ReplayState* state, RecordTally* tally) {
  std::uint64_t count = 0;
  JournalRecord record;
  while (reader->next(&record)) {
    record.offset += base;
    state->apply(record);
    if (tally != nullptr) tally->add(record);
    if (record.type != RecordType::kEndOfFile && record.type != RecordType::kBroken) ++count;
  }
  return count;
}

std::vector<std::uint64_t> replay_files(const OpenJournal& journal, ReplayState* state,
                                        const std::vector<const std::vector<ByteRange>*>& kept,
                                        ReadWindow::Lookback lookback, RecordTally* tally) {
  std::vector<std::uint64_t> counts(journal.files.size(), 0);
  for (std::size_t i = 0; i < journal.files.size(); ++i) {
    if (!journal.inputs[i]) continue;
    const auto& file = journal.files[i];
    const InputFile& input = *journal.inputs[i];
    state->begin_file(static_cast<std::uint32_t>(i), file.path, input, is_live_journal(file));
    if (i < kept.size() && kept[i] != nullptr) {
      for (const ByteRange& range : *kept[i]) {
        JournalReader reader(input.bytes().subspan(range.begin, range.size()));
        counts[i] += apply_records(&reader, range.begin, state, tally);
      }
      continue;
    }
    // Streamed, not walked through the mapping (lib/read_window.h); replay
    // keeps positions, so no page of the mapping becomes resident here.
    JournalReader reader(input, lookback);
    reader.set_broken_tail(false);  // replay needs the broken record's offset, not its bytes
    counts[i] = apply_records(&reader, 0, state, tally);
  }
  return counts;
}

}  // namespace

std::vector<std::uint64_t> replay_journal(const OpenJournal& journal, ReplayState* state,
                                          const std::vector<const std::vector<ByteRange>*>& kept, RecordTally* tally) {
  return replay_files(journal, state, kept, ReadWindow::Lookback::kKept, tally);
}

std::vector<std::uint64_t> check_journal(const OpenJournal& journal, ReplayState* state) {
  return replay_files(journal, state, {}, ReadWindow::Lookback::kNone, nullptr);
}

}  // namespace qjt::kestrel
