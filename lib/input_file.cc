#include "input_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace qjt {
namespace {

std::string describe_errno(const std::string& verb, const std::string& path, int err) {
  return fmt::format("cannot {} {}: {}", verb, path, std::strerror(err));
}

// Reads until end of input; used where mmap is impossible.
bool read_all(int fd, std::string* out, int* err) {
  char chunk[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n == 0) return true;
    if (n < 0) {
      if (errno == EINTR) continue;
      *err = errno;
      return false;
    }
    out->append(chunk, static_cast<std::size_t>(n));
  }
}

}  // namespace

std::unique_ptr<InputFile> InputFile::open(const std::string& path, std::string* error) {
  std::unique_ptr<InputFile> file(new InputFile());
  file->name_ = path;
  const bool is_stdin = path == "-";
  int fd = is_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = describe_errno("open", path, errno);
    return nullptr;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    *error = describe_errno("stat", path, errno);
    if (!is_stdin) ::close(fd);
    return nullptr;
  }
  if (S_ISDIR(st.st_mode)) {
    *error = fmt::format("cannot read {}: it is a directory", path);
    if (!is_stdin) ::close(fd);
    return nullptr;
  }
  bool ok = true;
  if (S_ISREG(st.st_mode) && st.st_size > 0) {
    const auto size = static_cast<std::size_t>(st.st_size);
    void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) {
      *error = describe_errno("map", path, errno);
      ok = false;
    } else {
      ::madvise(map, size, MADV_SEQUENTIAL);
      file->mapping_ = map;
      file->device_ = st.st_dev;
      file->inode_ = st.st_ino;
      file->mapping_size_ = size;
      file->bytes_ = ByteSpan(static_cast<const std::uint8_t*>(map), size);
    }
  } else if (!S_ISREG(st.st_mode)) {
    int err = 0;
    if (read_all(fd, &file->buffer_, &err)) {
      file->bytes_ = ByteSpan(file->buffer_);
    } else {
      *error = describe_errno("read", path, err);
      ok = false;
    }
  }
  if (!is_stdin) ::close(fd);
  return ok ? std::move(file) : nullptr;
}

bool InputFile::preview_write(std::size_t offset, ByteSpan bytes) {
  if (offset > bytes_.size() || bytes.size() > bytes_.size() - offset) return false;
  if (bytes.empty()) return true;
  if (mapping_ == nullptr) {
    std::memcpy(buffer_.data() + offset, bytes.data(), bytes.size());
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

InputFile::~InputFile() {
  if (mapping_ != nullptr) ::munmap(mapping_, mapping_size_);
}

}  // namespace qjt
