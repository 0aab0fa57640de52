// Durable file-system steps for the commands that write: a buffered writer
// whose sync() really reaches the disk, and renames and links that are
// followed by an fsync of the directory, so that a crash after a step
// returns leaves that step on disk.
//
// Every function reports failure with a sentence naming the path and the
// system's reason, for exit status 3.
//
// What these functions create is tracked for an interrupt (interrupt.h):
// FileWriter's files as temp files until durable_rename moves them or
// durable_remove / remove_temp removes them; copies and the directories
// make_directories creates as made by the run, kept once it commits.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "byte_span.h"
#include "file_ownership.h"

namespace qjt {

class FileWriter {
 public:
  // Creates `path`, which must not exist (O_EXCL): a temp file for an
  // interrupt until it is renamed or removed. It is given `ownership` when
  // there is one, before anything is written; else it is the running
  // user's, mode 0666 less the umask.
  static std::unique_ptr<FileWriter> create(const std::string& path, std::string* error,
                                            const FileOwnership* ownership = nullptr);
  // Standard output, for "-o -" (named "-"): left open, and sync() fsyncs
  // it only when it is a regular file.
  static std::unique_ptr<FileWriter> standard_output();
  ~FileWriter();
  FileWriter(const FileWriter&) = delete;
  FileWriter& operator=(const FileWriter&) = delete;

  bool append(ByteSpan bytes, std::string* error);
  // Writes out the buffer and fsyncs the file.
  bool sync(std::string* error);
  std::uint64_t bytes_written() const { return written_ + buffer_.size(); }
  const std::string& path() const { return path_; }

 private:
  FileWriter(std::string path, int fd, bool owned) : path_(std::move(path)), fd_(fd), owned_(owned) {}
  bool flush(std::string* error);
  bool write_out(ByteSpan bytes, std::string* error);

  std::string path_;
  int fd_;
  bool owned_;  // closed by the destructor
  std::string buffer_;
  std::uint64_t written_ = 0;
  std::uint64_t started_ = 0;  // bytes whose writeback has been started
};

using FileContent = std::function<bool(FileWriter*, std::string*)>;

// Whose a file written whole is.
enum class Ownership {
  kNewOutput,  // the running user's, mode 0666 less the umask: an -o output, as cp makes a new file
  kKept,       // what a file replaced in place keeps: FileOwnership::kept_at(path)
};

// New content for `path`, written whole to "<path>~~qjt-<pid>" (a "~~" name
// no queue system takes for one of its files) with `ownership`, and
// fsynced; install() renames it over `path` and fsyncs the directory.
// Destroyed before that, the temp file is removed and `path` is as it was.
class ReplacementFile {
 public:
  static std::unique_ptr<ReplacementFile> write(const std::string& path, Ownership ownership,
                                                const FileContent& content, std::string* error);
  ~ReplacementFile();
  ReplacementFile(const ReplacementFile&) = delete;
  ReplacementFile& operator=(const ReplacementFile&) = delete;

  // Run it inside a CommitSection (interrupt.h).
  bool install(std::string* error);
  // install() for a path that must not exist: when one appeared since the
  // caller looked, nothing is renamed and *existed is set (with *error).
  bool install_new(bool* existed, std::string* error);
  const std::string& path() const { return path_; }

 private:
  ReplacementFile(std::string path, std::string temp) : path_(std::move(path)), temp_(std::move(temp)) {}
  std::string path_, temp_;
  bool installed_ = false;
};

// Replaces (or creates) `path` whole through a ReplacementFile, the rename
// in a CommitSection. On failure the temp file is removed and `path` is as
// it was.
bool write_file_atomically(const std::string& path, Ownership ownership, const FileContent& content,
                           std::string* error);

// write_file_atomically for a command's output (kNewOutput): once it is installed, an
// interrupt says "PATH was written" (note_committed). "-" is standard
// output, written as the content comes.
bool write_output_file(const std::string& path, const FileContent& content, std::string* error);

// unlink(path) of a temp file a failure abandons, without fsync.
void remove_temp(const std::string& path);

// Creates `dir` and any missing parent, each tracked as made by the run.
bool make_directories(const std::string& dir, std::string* error);

// fsync of a directory, making renames and unlinks inside it durable.
bool sync_directory(const std::string& dir, std::string* error);

// rename(from, to), then fsync of the directory (or both, if they differ).
bool durable_rename(const std::string& from, const std::string& to, std::string* error);

// durable_rename, but never over an existing `to` (renameat2's
// RENAME_NOREPLACE): false with *existed set when `to` exists.
bool durable_rename_new(const std::string& from, const std::string& to, bool* existed, std::string* error);

// Swaps `a` and `b` (two directories, or two files) in one atomic step
// (renameat2's RENAME_EXCHANGE), then fsyncs their directories. A file
// system without it fails with EINVAL, and nothing is swapped.
bool durable_exchange(const std::string& a, const std::string& b, std::string* error);

// unlink(path), then fsync of its directory.
bool durable_remove(const std::string& path, std::string* error);

// A copy of `from` at `to` (which must not exist): a hard link when both are
// on one file system, otherwise a byte copy with the owner, group, mode and
// extended attributes of `from`; fsynced either way.
bool durable_copy(const std::string& from, const std::string& to, std::string* error);

// Creates `backup_dir` (which must not exist, so that one run's copies are
// never mixed with another's) and copies each of `paths` into it under its
// file name, durably, reaching `failpoint_name` (unless null) after each
// copy; then fsyncs the directory holding `backup_dir`.
bool back_up_files(const std::string& backup_dir, const std::vector<std::string>& paths, const char* failpoint_name,
                   std::string* error);

}  // namespace qjt
