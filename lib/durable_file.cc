#include "durable_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "failpoint.h"
#include "input_file.h"
#include "interrupt.h"
#include "path_name.h"
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

std::unique_ptr<FileWriter> FileWriter::create(const std::string& path, std::string* error,
                                               const FileOwnership* ownership) {
  // Made and tracked in one section, as every path made here is: an
  // interrupt handled meanwhile, on this thread or by another job's (-j),
  // sees it tracked, or never made.
  const CommitSection creating;
  // A file given an ownership is made readable by nobody else until it
  // has it: what it will hold may be more private than the umask says.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, ownership ? 0600 : 0666);
  if (fd < 0) {
    fail(error, "create", path);
    return nullptr;
  }
  track_temp(path);
  std::unique_ptr<FileWriter> writer(new FileWriter(path, fd, true));
  if (ownership && !ownership->apply(fd, path, error)) {
    writer.reset();
    remove_temp(path);
    return nullptr;
  }
  return writer;
}

std::unique_ptr<FileWriter> FileWriter::standard_output() {
  return std::unique_ptr<FileWriter>(new FileWriter("-", STDOUT_FILENO, false));
}

FileWriter::~FileWriter() {
  if (owned_) ::close(fd_);
}

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
  struct stat st {};
  const bool regular = owned_ || (::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode));
  if (regular && ::fsync(fd_) != 0) return fail(error, "fsync", path_);
  return true;
}

std::unique_ptr<ReplacementFile> ReplacementFile::write(const std::string& path, Ownership ownership,
                                                        const FileContent& content, std::string* error) {
  std::optional<FileOwnership> kept;
  if (ownership == Ownership::kKept && !(kept = FileOwnership::kept_at(path, error))) return nullptr;
  std::unique_ptr<ReplacementFile> file(new ReplacementFile(path, fmt::format("{}~~qjt-{}", path, ::getpid())));
  auto writer = FileWriter::create(file->temp_, error, kept ? &*kept : nullptr);
  if (!writer) return nullptr;
  const bool written = content(writer.get(), error) && writer->sync(error);
  writer.reset();
  failpoint("atomic.temp_synced");
  return written ? std::move(file) : nullptr;
}

ReplacementFile::~ReplacementFile() {
  if (!installed_) remove_temp(temp_);
}

bool ReplacementFile::install(std::string* error) {
  installed_ = durable_rename(temp_, path_, error);
  if (!installed_) return false;
  failpoint("atomic.renamed");
  return true;
}

bool ReplacementFile::install_new(bool* existed, std::string* error) {
  installed_ = durable_rename_new(temp_, path_, existed, error);
  if (!installed_) return false;
  failpoint("atomic.renamed");
  return true;
}

bool write_file_atomically(const std::string& path, Ownership ownership, const FileContent& content,
                           std::string* error) {
  const auto file = ReplacementFile::write(path, ownership, content, error);
  if (!file) return false;
  CommitSection commit;
  return file->install(error);
}

bool write_output_file(const std::string& path, const FileContent& content, std::string* error) {
  if (path == "-") {
    const auto out = FileWriter::standard_output();
    return content(out.get(), error) && out->sync(error);
  }
  const auto file = ReplacementFile::write(path, Ownership::kNewOutput, content, error);
  if (!file) return false;
  CommitSection commit;
  if (!file->install(error)) return false;
  note_committed(fmt::format("{} was written", path));
  return true;
}

void remove_temp(const std::string& path) {
  ::unlink(path.c_str());
  untrack_path(path);
}

bool make_directories(const std::string& dir, std::string* error) {
  namespace fs = std::filesystem;
  std::vector<fs::path> missing;
  std::error_code ec;
  for (fs::path p = fs::absolute(dir, ec); !p.empty() && !fs::exists(fs::symlink_status(p, ec)); p = p.parent_path()) {
    missing.push_back(p);
    if (p == p.parent_path()) break;
  }
  for (auto p = missing.rbegin(); p != missing.rend(); ++p) {
    // Tracked only when made here: another job of the run (-j) may have
    // made it meanwhile, and it is that job's.
    const CommitSection creating;
    if (::mkdir(p->c_str(), 0755) == 0) {
      track_created(p->string(), true);
    } else if (errno != EEXIST) {
      return fail(error, "create directory", p->string());
    }
  }
  return true;
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
  untrack_path(from);
  const std::string from_dir = parent_of(from), to_dir = parent_of(to);
  return sync_directory(to_dir, error) && (from_dir == to_dir || sync_directory(from_dir, error));
}

bool durable_rename_new(const std::string& from, const std::string& to, bool* existed, std::string* error) {
  *existed = false;
  int rc = ::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE);
  if (rc != 0 && (errno == EINVAL || errno == ENOSYS)) {
    // A file system without RENAME_NOREPLACE: the check and the rename are
    // two steps there.
    struct stat st {};
    if (::lstat(to.c_str(), &st) == 0) {
      errno = EEXIST;
    } else {
      rc = ::rename(from.c_str(), to.c_str());
    }
  }
  if (rc != 0) {
    *existed = errno == EEXIST;
    return fail(error, fmt::format("rename {} to", from), to);
  }
  untrack_path(from);
  const std::string from_dir = parent_of(from), to_dir = parent_of(to);
  return sync_directory(to_dir, error) && (from_dir == to_dir || sync_directory(from_dir, error));
}

bool durable_exchange(const std::string& a, const std::string& b, std::string* error) {
  if (::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) != 0)
    return fail(error, fmt::format("rename (exchange) {} with", a), b);
  const std::string a_dir = parent_of(a), b_dir = parent_of(b);
  return sync_directory(a_dir, error) && (a_dir == b_dir || sync_directory(b_dir, error));
}

bool durable_remove(const std::string& path, std::string* error) {
  if (::unlink(path.c_str()) != 0) return fail(error, "remove", path);
  untrack_path(path);
  return sync_directory(parent_of(path), error);
}

bool durable_copy(const std::string& from, const std::string& to, std::string* error) {
  int link_error = 0;
  {
    const CommitSection creating;
    if (::link(from.c_str(), to.c_str()) == 0) {
      track_created(to);
    } else {
      link_error = errno;
    }
  }
  if (link_error == 0) return sync_directory(parent_of(to), error);
  if (link_error != EXDEV && link_error != EPERM && link_error != EMLINK) {
    errno = link_error;
    return fail(error, fmt::format("link {} to", from), to);
  }
  auto input = InputFile::open(from, error);
  if (!input) return false;
  const auto kept = FileOwnership::kept_at(from, error);
  if (!kept) return false;
  auto writer = FileWriter::create(to, error, &*kept);
  if (!writer) return false;
  track_created(to);
  return writer->append(input->bytes(), error) && writer->sync(error) && sync_directory(parent_of(to), error);
}

bool back_up_files(const std::string& backup_dir, const std::vector<std::string>& paths, const char* failpoint_name,
                   std::string* error) {
  namespace fs = std::filesystem;
  const std::string parent = fs::path(backup_dir).parent_path().string();
  if (!parent.empty() && !make_directories(parent, error)) return false;
  // Made here or refused, in one step: a backup directory is never shared,
  // not even by two jobs of one run (-j) that chose the same name.
  {
    const CommitSection creating;
    if (::mkdir(backup_dir.c_str(), 0755) != 0) {
      if (errno != EEXIST) return fail(error, "create directory", backup_dir);
      *error = fmt::format("backup directory {} already exists", backup_dir);
      return false;
    }
    track_created(backup_dir, true);
  }
  for (const std::string& path : paths) {
    if (!durable_copy(path, (fs::path(backup_dir) / base_name(path)).string(), error)) return false;
    if (failpoint_name) failpoint(failpoint_name);
  }
  return sync_directory(fs::path(backup_dir).parent_path().string(), error);
}

}  // namespace qjt
