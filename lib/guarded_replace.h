// GuardedReplace: the one sequence by which the writing commands (compact,
// repair, convert --to flume-v3 --apply) change a queue's files in place.
//
//   1  guard    qjt's lock (flock) on each directory of `lock_dirs`, then
//               refusal while a process holds one of `owner_locks` or has
//               one of `watched` open (kInUse, nothing changed). --force
//               skips this step. The locks are held until the last change,
//               so two qjt runs never interleave their steps.
//   2  place    the backup's place: <root>/<name>.<ms> outside every one of
//               `keep_out_of` (default `lock_dirs`; choose_backup_dir: the
//               owner would take copies inside its directories for its own
//               files), or the one file `backup.file`; none with
//               --no-backup or when the request names neither. A place
//               inside a queue directory is refused (kUsage, nothing
//               changed).
//   3  check    first, that every file the changes write (each kReplace's
//               path and each of `owned`) can keep its owner, group and
//               mode (file_ownership.h): else refused (kUsage, naming the
//               file and its owner, nothing changed). Then
//               the writer's own check, under the lock, that the files are
//               still as it planned them (Flume: their sizes), then room:
//               each file system must have free what the changes write
//               there (`room`), and the backup's the size of the copies
//               unless they can be hard links. Nothing is written before
//               both pass (kIoError, saying how much is needed).
//   4  back up  each of `backup.files` copied there durably, a failpoint
//               after each copy, or the family's own backup layout. Complete
//               and durable before step 5: a crash during the changes always
//               leaves a whole backup.
//   5  change   first the new content of every kReplace change, each in a
//               temp file given the owner, group, mode and extended
//               attributes of the file it replaces (or of its siblings
//               when it is new), fsynced; then, in one CommitSection
//               (interrupt.h), each change in order, each durable before
//               the next (rename, fsync of the directory), a failpoint
//               after each: a crash between two changes leaves a state the
//               writer's order makes safe for the owner, and an interrupt
//               leaves nothing changed or every change made. A kProtocol
//               change runs in the section too; a kOwnCommit protocol (the
//               only change of its request) writes its temp files
//               interruptibly and makes its own section.
//   6  verify   still under the locks, the family's verify of what the
//               changed files replay to now (`verify`: what a clean result
//               is, and what it must still hold, is the format's business).
//               Errors give kProblems; the backup stays and is named,
//               with the command that puts the files back as they were
//               (`restore`: by default a copy back of each of
//               `backup.files`, flat in the backup directory, or of
//               `backup.file`). report_outcome says so on standard error,
//               and step 6's findings end with a warning
//               restore_from_backup whose hint is that command, so that
//               every writer's report (its JSON too) carries the way back.
//   7  prune    only after a clean verify, and with --keep-backups N: the
//               older backups of the same queue or file beyond the newest
//               N are removed (backup_retention.h). A failure to remove
//               one is a line on standard error, and changes nothing else.
//
// A format whose own protocol orders its writes, backup and renames in a
// way its owner's startup understands runs it as a kOwnCommit change, which
// receives the place of step 2 and makes the copies itself: classic
// Kestrel's rewrite_queue (its temp journal is written before the backup),
// and Flume's checkpoint upgrade (its backup is the checkpoint-backup-<ms>
// Flume knows, so its request names no qjt backup).
//
// An interrupt before step 5's section removes the backup made by the run
// too (nothing changed); one after it says the changes were made and
// names the backup.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "durable_file.h"
#include "exit_code.h"
#include "finding.h"

namespace qjt {

// What the user said about the guard rails (--backup-to, --no-backup,
// --force; lib/cli/write_guard.h adds them to a command).
struct WriteGuardOptions {
  std::string backup_root;  // where backup directories go; "" for beside the first lock_dir
  bool no_backup = false;
  bool force = false;            // skips step 1
  std::size_t keep_backups = 0;  // step 7: how many backups of a queue or file to keep; 0 for all
};

// A format's own protocol: given the backup place of step 2 ("" for none).
using ReplaceProtocol = std::function<bool(const std::string& backup, std::string*)>;

struct FileChange {
  enum class Kind { kReplace, kRemove, kProtocol, kOwnCommit };
  Kind kind = Kind::kReplace;
  std::string path;                 // kReplace, kRemove
  FileContent content;              // kReplace: written to a temp file renamed over `path`
  ReplaceProtocol protocol;         // kProtocol, kOwnCommit
  const char* failpoint = nullptr;  // reached after the change is durable

  static FileChange replace(std::string path, FileContent content, const char* failpoint = nullptr);
  static FileChange remove(std::string path, const char* failpoint = nullptr);
  static FileChange by_protocol(ReplaceProtocol protocol, const char* failpoint = nullptr);
  static FileChange by_own_commit(ReplaceProtocol protocol);
};

struct BackupRequest {
  std::string name;                 // the directory <root>/<name>.<ms>
  std::string file;                 // instead of `name`: one copy at exactly this path
  std::vector<std::string> files;   // copied before the first change, by file name (with `copy`:
                                    // what it copies, for step 3's room)
  const char* failpoint = nullptr;  // reached after each copy
  // Instead of the flat copies: the family's own backup layout in the
  // directory placed (Flume: a subdirectory per channel directory and a
  // manifest), with its own failpoints.
  std::function<bool(const std::string& dir, std::string*)> copy;
};

// `bytes` that a change writes beside `path` (a file or its directory).
struct SpaceNeed {
  std::string path;
  std::uint64_t bytes = 0;
};

struct ReplaceRequest {
  std::vector<std::string> lock_dirs;       // step 1: qjt's lock on each
  std::vector<std::string> owner_locks;     // step 1: the owner's lock files (Flume's in_use.lock)
  std::string owner = "another process";    // what holding an owner lock means
  std::vector<std::string> watched;         // step 1: no other process may have these open
  std::vector<std::string> keep_out_of;     // step 2: the first names the default root
  std::vector<std::string> owned;           // step 3: what protocol changes write, whose owner they keep
  std::function<bool(std::string*)> check;  // step 3; none when empty
  std::vector<SpaceNeed> room;              // step 3: what the changes write, where
  BackupRequest backup;
  std::vector<FileChange> changes;
  std::function<FindingList()> verify;  // step 6; none when empty
  // Step 6, on errors: the shell command that restores the files from the
  // backup at `backup` (step 2's place, "" for none), for a layout other
  // than flat copies of backup.files (a family's own, a protocol that adds
  // files or makes its own backup).
  std::function<std::string(const std::string& backup)> restore;
};

struct ReplaceResult {
  ExitCode status = ExitCode::kOk;      // kInUse (step 1), kUsage (2, 3), kIoError (3 to 5), kProblems (6)
  std::string reason;                   // a sentence, when status is not kOk
  std::string backup;                   // the backup's place; "" for none
  std::optional<FindingList> verified;  // step 6's findings, once every change is made
  std::string restore;                  // after step 6's errors: the command that restores the backup

  // Every change was made (whatever the verify found).
  bool changed() const { return status == ExitCode::kOk || status == ExitCode::kProblems; }
};

// Where step 2 would place the backup, for a plan to say before --apply:
// "<ms>" stands for the time of the run that makes it. "" when no backup
// would be made, or when step 2 would refuse (the run then says why).
std::string planned_backup(const ReplaceRequest& request, const WriteGuardOptions& options);

// Runs steps 1 to 6. On failure the steps done stay done: each is safe on
// its own, and the backup, once made, stays.
ReplaceResult guarded_replace(const ReplaceRequest& request, const WriteGuardOptions& options);

// What became of the request, for a writer's report: "failed" (kIoError),
// "refused" (kInUse, kUsage), else `done` (the changes were made).
const char* result_action(const ReplaceResult& result, const char* done);

// "qjt COMMAND: [refused: ]REASON" on standard error, for a result whose
// changes were not made.
void report_unchanged(std::string_view command, const ReplaceResult& result);

// What every writer tells on standard error of a result: nothing when the
// changes were made and verify clean; report_unchanged's line when they
// were not made; when the verify after the change found errors, that, the
// backup's place and the command that restores it.
void report_outcome(std::string_view command, const ReplaceResult& result);

// The flat copies' restore: "cp -a BACKUP/NAME ORIGINAL" for each of
// `originals` (backup.files), joined by " && "; with `one_file`, the backup
// is that one copy of the one original.
std::string copy_back_command(const std::string& backup, const std::vector<std::string>& originals,
                              bool one_file = false);

}  // namespace qjt
