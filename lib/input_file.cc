#include "input_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "progress.h"
#include "run_context.h"
#include "stream_buffer.h"

namespace qjt {
namespace {

std::string describe_errno(const std::string& verb, const std::string& path, int err) {
  return fmt::format("cannot {} {}: {}", verb, path, std::strerror(err));
}

Finding io_failure(const std::string& path, std::string message) {
  return Finding{Severity::kError, "io_error", path, std::nullopt, std::move(message)};
}

bool is_stream(const struct stat& st) { return !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode); }

// A stream, shared by its opens, and the finding that ended its reading
// (told once, by the open that read it).
struct StreamRead {
  std::shared_ptr<StreamBuffer> bytes;
  std::optional<Finding> failure;
  bool stop_told = false;  // why an on-demand read stopped, told by the first open to close
};

// The streams opened so far, by device and inode, so that each is read once
// however many times it is opened: the process's, since a stream is. The
// lock keeps the map whole; the jobs of a run with a stream among its
// inputs run one at a time (lib/cli/jobs.h), so that no two read one
// stream at once.
std::mutex streams_mutex;
std::map<std::pair<dev_t, ino_t>, StreamRead>& streams_read() {
  static std::map<std::pair<dev_t, ino_t>, StreamRead> streams;
  return streams;
}

// Why reading `stream` stopped short of its end; nullopt while it has not.
// `decoded` says whether the bytes up to the limit were decoded.
std::optional<Finding> stream_stop(const std::string& path, const StreamBuffer& stream, bool decoded) {
  switch (stream.status()) {
    case StreamBuffer::Status::kReading:
    case StreamBuffer::Status::kComplete:
      return std::nullopt;
    case StreamBuffer::Status::kOverLimit:
      return Finding{Severity::kError, "input_too_large", path, stream.limit(),
                     fmt::format("expected a stream of at most {} bytes (--max-input), found more; {}", stream.limit(),
                                 decoded ? "nothing after them was decoded" : "none of it was decoded")};
    case StreamBuffer::Status::kError:
      break;
  }
  return io_failure(path, describe_errno("read", path, stream.error()));
}

// The inputs the current run (or job) has open now, for
// count_mapped_read_through: a handful, and looked through once per batch
// of records, never per record.
std::vector<const InputFile*>& open_files() { return RunContext::current().open_inputs(); }

// The changes of the current run's inputs already closed, until
// take_changes().
std::vector<Finding>& changes() { return RunContext::current().input_changes(); }

}  // namespace

Finding open_failure(const std::string& path, int error) {
  return io_failure(path, describe_errno("open", path, error));
}

void InputFile::set_stream_limit(std::uint64_t bytes) { RunContext::process().settings().stream_limit = bytes; }
std::uint64_t InputFile::stream_limit() { return RunContext::current().settings().stream_limit; }

std::unique_ptr<InputFile> InputFile::open(const std::string& path, std::string* error) {
  Finding failure;
  auto file = open(path, &failure);
  if (!file) *error = failure.message;
  return file;
}

std::unique_ptr<InputFile> InputFile::open(const std::string& path, Finding* failure, StreamReading reading) {
  const bool is_stdin = path == "-";
  // Looked at before it is opened: a FIFO opened a second time would block.
  struct stat st {};
  if ((is_stdin ? ::fstat(STDIN_FILENO, &st) : ::stat(path.c_str(), &st)) != 0) {
    *failure = is_stdin ? io_failure(path, describe_errno("stat", path, errno)) : open_failure(path, errno);
    return nullptr;
  }
  if (S_ISDIR(st.st_mode)) {
    *failure = io_failure(path, fmt::format("cannot read {}: it is a directory", path));
    return nullptr;
  }
  auto file = is_stream(st) ? open_stream(path, is_stdin, st.st_dev, st.st_ino, reading, failure)
                            : open_regular(path, is_stdin, failure);
  if (file) {
    Progress::expect(file->bytes_.size());
    open_files().push_back(file.get());
  }
  return file;
}

std::unique_ptr<InputFile> InputFile::open_stream(const std::string& path, bool is_stdin, std::uint64_t device,
                                                  std::uint64_t inode, StreamReading reading, Finding* failure) {
  const std::lock_guard<std::mutex> lock(streams_mutex);
  StreamRead& read = streams_read()[{device, inode}];
  if (!read.bytes && !read.failure) {
    const int fd = is_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      read.failure = open_failure(path, errno);
    } else {
      read.bytes = std::make_shared<StreamBuffer>(fd, !is_stdin, stream_limit());
    }
  }
  if (read.bytes && read.bytes->forgets())
    read.failure = io_failure(path, fmt::format("cannot read {} again: a stream is read once, and an earlier input "
                                                "of this run read it without keeping its bytes",
                                                path));
  if (read.bytes && reading == StreamReading::kWhole && !read.failure) {
    read.bytes->fill_all();
    read.failure = stream_stop(path, *read.bytes, false);
  }
  if (read.failure) {
    *failure = *read.failure;
    failure->file = path;
    return nullptr;
  }
  std::unique_ptr<InputFile> file(new InputFile());
  file->name_ = path;
  file->stream_ = read.bytes;
  file->device_ = device;
  file->inode_ = inode;
  file->on_demand_ = reading == StreamReading::kOnDemand && read.bytes->status() == StreamBuffer::Status::kReading;
  file->read_on_demand_ = file->on_demand_;
  if (!file->on_demand_) file->bytes_ = read.bytes->view(0, static_cast<std::size_t>(read.bytes->size()));
  return file;
}

ByteSpan InputFile::whole_stream() const {
  stream_->fill_all();
  on_demand_ = false;
  // After a window let go of the first bytes, the whole is no longer held.
  if (!stream_->forgets()) bytes_ = stream_->view(0, static_cast<std::size_t>(stream_->size()));
  return bytes_;
}

std::uint64_t InputFile::size() const { return on_demand_ ? stream_->size() : bytes_.size(); }

std::unique_ptr<InputFile> InputFile::open_regular(const std::string& path, bool is_stdin, Finding* failure) {
  std::unique_ptr<InputFile> file(new InputFile());
  file->name_ = path;
  const int fd = is_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *failure = open_failure(path, errno);
    return nullptr;
  }
  struct stat st {};
  bool ok = true;
  if (::fstat(fd, &st) != 0) {
    *failure = io_failure(path, describe_errno("stat", path, errno));
    ok = false;
  } else if (st.st_size > 0) {
    const auto size = static_cast<std::size_t>(st.st_size);
    void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) {
      *failure = io_failure(path, describe_errno("map", path, errno));
      ok = false;
    } else {
      ::madvise(map, size, MADV_SEQUENTIAL);
      file->mapping_ = map;
      file->device_ = st.st_dev;
      file->inode_ = st.st_ino;
      file->mapping_size_ = size;
      file->bytes_ = ByteSpan(static_cast<const std::uint8_t*>(map), size);
      file->guard_.guard(map, size);
    }
  }
  if (!is_stdin) ::close(fd);
  return ok ? std::move(file) : nullptr;
}

bool InputFile::preview_write(std::size_t offset, ByteSpan bytes) {
  if (on_demand_) whole_stream();
  if (offset > bytes_.size() || bytes.size() > bytes_.size() - offset) return false;
  if (bytes.empty()) return true;
  if (mapping_ == nullptr) {
    // A stream's bytes are shared by its opens: this one gets its own copy.
    if (copy_.data() != bytes_.as_chars().data()) {
      copy_.assign(bytes_.as_chars());
      bytes_ = ByteSpan(copy_);
      stream_.reset();
    }
    std::memcpy(copy_.data() + offset, bytes.data(), bytes.size());
    return true;
  }
  static const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t first = offset / page * page;
  char* const base = static_cast<char*>(mapping_);
  const std::size_t length = offset + bytes.size() - first;
  if (::mprotect(base + first, length, PROT_READ | PROT_WRITE) != 0) return false;
  previewed_ = true;
  std::memcpy(base + offset, bytes.data(), bytes.size());
  ::mprotect(base + first, length, PROT_READ);
  return true;
}

int InputFile::open_for_reading() const {
  if (mapping_ == nullptr || previewed_ || name_ == "-") return -1;
  const int fd = ::open(name_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || st.st_dev != device_ || st.st_ino != inode_) {
    ::close(fd);  // renamed or replaced since it was mapped
    return -1;
  }
  return fd;
}

std::optional<Finding> InputFile::change() const {
  const auto fault = guard_.fault_offset();
  if (!fault) return std::nullopt;
  struct stat st {};
  const bool known = ::stat(name_.c_str(), &st) == 0 && static_cast<std::uint64_t>(st.st_size) < mapping_size_;
  const std::uint64_t found = known ? static_cast<std::uint64_t>(st.st_size) : *fault;
  return Finding{Severity::kError, "file_changed", name_, found,
                 fmt::format("expected the {} bytes the file had when qjt opened it, found {} bytes: it shrank while "
                             "qjt read it, and its bytes from offset {} on were read as zeros",
                             mapping_size_, known ? fmt::to_string(found) : std::string("fewer"), *fault)};
}

std::vector<Finding> InputFile::take_changes() { return std::exchange(changes(), {}); }

ExitCode InputFile::change_status(const Finding& change) {
  return change.code == "file_changed" ? ExitCode::kProblems : ExitCode::kIoError;
}

void InputFile::count_read_through(std::uint64_t end) const {
  if (end <= counted_) return;
  Progress::read(end - counted_, 0);
  counted_ = end;
}

void InputFile::count_mapped_read_through(const std::uint8_t* end) {
  for (const InputFile* file : open_files()) {
    const std::uint8_t* const first = file->bytes_.data();
    if (first != nullptr && end > first && end <= first + file->bytes_.size()) {
      file->count_read_through(static_cast<std::uint64_t>(end - first));
      return;
    }
  }
}

void InputFile::tell_stream_stop() const {
  const std::lock_guard<std::mutex> lock(streams_mutex);
  StreamRead& read = streams_read()[{device_, inode_}];
  if (read.stop_told || !read.bytes) return;
  if (auto stop = stream_stop(name_, *read.bytes, true)) {
    changes().push_back(std::move(*stop));
    read.stop_told = true;
  }
}

InputFile::~InputFile() {
  std::erase(open_files(), this);
  count_read_through(size());
  if (auto changed = change()) changes().push_back(std::move(*changed));
  if (read_on_demand_) tell_stream_stop();
  guard_.release();  // before the range is unmapped and can be mapped again
  if (mapping_ != nullptr) ::munmap(mapping_, mapping_size_);
}

}  // namespace qjt
