// Turns the PATH arguments of dump, verify and replay into Kestrel
// journals: a directory contributes its queues (or the one --queue names),
// and the files named directly are grouped into queues by Kestrel's naming
// rule, per directory, exactly as their directory would be (a name the rule
// cannot place is a queue of its own). The files' queues come first.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "exit_code.h"
#include "finding.h"
#include "input_file.h"
#include "kestrel/journal_repair.h"
#include "kestrel/queue_directory.h"
#include "kestrel/record_tally.h"
#include "kestrel/replay_state.h"

namespace qjt::kestrel {

struct OpenJournal {
  std::string queue;  // for a file the naming rule cannot place, its name
  std::vector<JournalFile> files;
  std::vector<std::unique_ptr<InputFile>> inputs;  // parallel to files; null if unreadable
  std::string directory;                           // empty for files named directly
  std::vector<std::string> leftovers;              // QueueJournal::leftovers
  std::vector<Finding> layout_findings;            // what the directory's layout says about this queue
  ForeignFile foreign;                             // as open_journals was given it: to read the queue again

  // The bytes of file `i`: what was read of it (a stream's size is known
  // once it has been read), or its listed size when it could not be opened.
  std::uint64_t size_of(std::size_t i) const { return inputs[i] ? inputs[i]->size() : files[i].size; }
};

struct JournalSelection {
  std::vector<OpenJournal> journals;
  ExitCode status = ExitCode::kOk;  // kIoError when something could not be opened
};

// Findings about one queue's files (temp files, packs, bad names) go to its
// layout_findings; those of other queues are dropped when --queue picks
// one. Everything else goes to `reporter`: a missing path or queue, a
// directory without any classic journal, or a file that cannot be read, is
// an "io_error" finding and sets status. A directory's files that `foreign`
// says are another family's (a Kestrel 3 segment beside classic journals,
// as the caller's registry of families tells) are part of no queue.
JournalSelection open_journals(const std::vector<std::string>& paths, const std::string& queue,
                               const ForeignFile& foreign, Reporter* reporter);

// open_journals' PATHs as units of work (cli Driver::units): the files
// named directly, one unit per queue in the order open_journals takes
// them, then each directory.
std::vector<std::vector<std::string>> journal_units(const std::vector<std::string>& paths);

// Tells `reporter` every layout finding of every journal.
void report_layout(const JournalSelection& selection, Reporter* reporter);

// open_journals, then report_layout to the same reporter: for commands that
// do not keep layout findings per queue.
JournalSelection open_journals_and_report(const std::vector<std::string>& paths, const std::string& queue,
                                          const ForeignFile& foreign, Reporter* reporter);

// Feeds every readable file of `journal` through `state`, in order, and
// returns the number of records (terminal records excluded) of each file.
// kept[i], when there is one and it is not null, is what a repair keeps of
// file i (kestrel/journal_repair.h): the file replays as its ranges,
// each read on its own, would after the repair; offsets stay the file's own.
// `tally`, when not null, counts each record applied (stats).
std::vector<std::uint64_t> replay_journal(const OpenJournal& journal, ReplayState* state,
                                          const std::vector<const std::vector<ByteRange>*>& kept = {},
                                          RecordTally* tally = nullptr);
// replay_journal for a state whose items are never asked for afterwards
// (state->item_record is not called): a stream's bytes are let go of as
// they are passed, so memory stays constant in its length.
std::vector<std::uint64_t> check_journal(const OpenJournal& journal, ReplayState* state);

}  // namespace qjt::kestrel
