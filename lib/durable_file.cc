#include "durable_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "failpoint.h"
#include "input_file.h"
#include "progress.h"

namespace qjt {
namespace {

bool fail(std::string* error, const std::string& what, const std::string& path) {
  *error = fmt::format("cannot {} {}: {}", what, path, std::strerror(errno));
  return false;
}

std::string parent_of(const std::string& path) {
  const auto parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

std::unique_ptr<FileWriter> FileWriter::create(const std::string& path, std::string* error) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    fail(error, "create", path);
    return nullptr;
  }
  return std::unique_ptr<FileWriter>(new FileWriter(path, fd));
}

FileWriter::~FileWriter() { ::close(fd_); }

bool FileWriter::append(ByteSpan bytes, std::string* error) {
  Progress::wrote(bytes.size());
  constexpr std::size_t kFlushAt = 1 << 20;
  if (bytes.size() >= kFlushAt) {  // a large span (a mapped checkpoint) goes to the file without a copy
    return flush(error) && write_out(bytes, error);
  }
  buffer_.append(bytes.as_chars());
  return buffer_.size() < kFlushAt || flush(error);
}

bool FileWriter::flush(std::string* error) {
  if (!write_out(ByteSpan(buffer_), error)) return false;
  buffer_.clear();
  return true;
}

bool FileWriter::write_out(ByteSpan bytes, std::string* error) {
  if (!write_all(fd_, bytes.as_chars().data(), bytes.size())) return fail(error, "write", path_);
  written_ += bytes.size();
  // Start the disk writes as we go, so that they overlap the work that
  // produces the rest and sync() waits for less (a sixth less time to
  // write and fsync 500 MB here). Advice only: sync() reports failures.
  constexpr std::uint64_t kWriteBehind = 8 << 20;
  if (written_ - started_ >= kWriteBehind) {
    ::sync_file_range(fd_, static_cast<off_t>(started_), static_cast<off_t>(written_ - started_),
                      SYNC_FILE_RANGE_WRITE);
    started_ = written_;
  }
  return true;
}

bool FileWriter::sync(std::string* error) {
  if (!flush(error)) return false;
  if (::fsync(fd_) != 0) return fail(error, "fsync", path_);
  return true;
}

bool write_file_atomically(const std::string& path, const std::function<bool(FileWriter*, std::string*)>& content,
                           std::string* error) {
  const std::string temp = fmt::format("{}~~qjt-{}", path, ::getpid());
  auto writer = FileWriter::create(temp, error);
  if (!writer) return false;
  const bool written = content(writer.get(), error) && writer->sync(error);
  writer.reset();
  failpoint("atomic.temp_synced");
  if (written && durable_rename(temp, path, error)) {
    failpoint("atomic.renamed");
    return true;
  }
  ::unlink(temp.c_str());
  return false;
}

bool sync_directory(const std::string& dir, std::string* error) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return fail(error, "open directory", dir);
  const bool ok = ::fsync(fd) == 0;
  if (!ok) fail(error, "fsync directory", dir);
  ::close(fd);
  return ok;
}

bool durable_rename(const std::string& from, const std::string& to, std::string* error) {
  if (::rename(from.c_str(), to.c_str()) != 0) {
    return fail(error, fmt::format("rename {} to", from), to);
  }
  const std::string from_dir = parent_of(from), to_dir = parent_of(to);
  return sync_directory(to_dir, error) && (from_dir == to_dir || sync_directory(from_dir, error));
}

bool durable_remove(const std::string& path, std::string* error) {
  if (::unlink(path.c_str()) != 0) return fail(error, "remove", path);
  return sync_directory(parent_of(path), error);
}

bool durable_copy(const std::string& from, const std::string& to, std::string* error) {
  if (::link(from.c_str(), to.c_str()) == 0) return sync_directory(parent_of(to), error);
  if (errno != EXDEV && errno != EPERM && errno != EMLINK) {
    return fail(error, fmt::format("link {} to", from), to);
  }
  auto input = InputFile::open(from, error);
  if (!input) return false;
  auto writer = FileWriter::create(to, error);
  return writer && writer->append(input->bytes(), error) && writer->sync(error) && sync_directory(parent_of(to), error);
}

bool back_up_files(const std::string& backup_dir, const std::vector<std::string>& paths, const char* failpoint_name,
                   std::string* error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(fs::symlink_status(backup_dir, ec))) {
    *error = fmt::format("backup directory {} already exists", backup_dir);
    return false;
  }
  fs::create_directories(backup_dir, ec);
  if (ec) {
    *error = fmt::format("cannot create backup directory {}: {}", backup_dir, ec.message());
    return false;
  }
  for (const std::string& path : paths) {
    if (!durable_copy(path, (fs::path(backup_dir) / fs::path(path).filename()).string(), error)) return false;
    if (failpoint_name) failpoint(failpoint_name);
  }
  return sync_directory(fs::path(backup_dir).parent_path().string(), error);
}

}  // namespace qjt
