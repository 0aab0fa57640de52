// Durable file-system steps for the commands that write: a buffered writer
// whose sync() really reaches the disk, and renames and links that are
// followed by an fsync of the directory, so that a crash after a step
// returns leaves that step on disk.
//
// Every function reports failure with a sentence naming the path and the
// system's reason, for exit status 3.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "byte_span.h"

namespace qjt {

class FileWriter {
 public:
  // Creates `path`, which must not exist (O_EXCL), with mode 0644.
  static std::unique_ptr<FileWriter> create(const std::string& path, std::string* error);
  ~FileWriter();
  FileWriter(const FileWriter&) = delete;
  FileWriter& operator=(const FileWriter&) = delete;

  bool append(ByteSpan bytes, std::string* error);
  // Writes out the buffer and fsyncs the file.
  bool sync(std::string* error);
  std::uint64_t bytes_written() const { return written_ + buffer_.size(); }
  const std::string& path() const { return path_; }

 private:
  FileWriter(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  bool flush(std::string* error);
  bool write_out(ByteSpan bytes, std::string* error);

  std::string path_;
  int fd_;
  std::string buffer_;
  std::uint64_t written_ = 0;
  std::uint64_t started_ = 0;  // bytes whose writeback has been started
};

// Replaces (or creates) `path` whole: `content` writes "<path>~~qjt-<pid>"
// (a "~~" name no queue system takes for one of its files), which is then
// fsynced, renamed over `path`, and the directory fsynced. On failure the
// temp file is removed and `path` is as it was.
bool write_file_atomically(const std::string& path, const std::function<bool(FileWriter*, std::string*)>& content,
                           std::string* error);

// fsync of a directory, making renames and unlinks inside it durable.
bool sync_directory(const std::string& dir, std::string* error);

// rename(from, to), then fsync of the directory (or both, if they differ).
bool durable_rename(const std::string& from, const std::string& to, std::string* error);

// unlink(path), then fsync of its directory.
bool durable_remove(const std::string& path, std::string* error);

// A copy of `from` at `to` (which must not exist): a hard link when both are
// on one file system, otherwise a byte copy; fsynced either way.
bool durable_copy(const std::string& from, const std::string& to, std::string* error);

// Creates `backup_dir` (which must not exist, so that one run's copies are
// never mixed with another's) and copies each of `paths` into it under its
// file name, durably, reaching `failpoint_name` (unless null) after each
// copy; then fsyncs the directory holding `backup_dir`.
bool back_up_files(const std::string& backup_dir, const std::vector<std::string>& paths, const char* failpoint_name,
                   std::string* error);

}  // namespace qjt
