#include "unit_helpers.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <stdexcept>
#include <system_error>

namespace qjt_test {

std::optional<Bytes> read_shared_fixture_gz(std::string_view relative) {
  const std::filesystem::path path = std::filesystem::path(QJT_SHARED_FIXTURES) / relative;
  if (!std::filesystem::exists(path)) return std::nullopt;
  gzFile in = gzopen(path.c_str(), "rb");
  if (in == nullptr) throw std::runtime_error("cannot open " + path.string());
  Bytes out;
  unsigned char buffer[1 << 16];
  int n = 0;
  while ((n = gzread(in, buffer, sizeof buffer)) > 0) out.insert(out.end(), buffer, buffer + n);
  gzclose(in);
  if (n < 0) throw std::runtime_error("cannot gunzip " + path.string());
  return out;
}

PipeFeeder::PipeFeeder(const Bytes& bytes, std::uint64_t seed) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
  read_fd_ = fds[0];
  path_ = "/dev/fd/" + std::to_string(read_fd_);
  writer_ = std::thread([bytes, seed, fd = fds[1]] {
    std::uint64_t state = seed * 0x9E3779B97F4A7C15ULL + 1;
    auto next = [&state] {  // splitmix64
      std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      return z ^ (z >> 31);
    };
    std::size_t at = 0;
    while (at < bytes.size()) {
      const std::size_t most = std::size_t{1} << (next() % 21);  // 1 B to 1 MiB
      const std::size_t piece = std::min(bytes.size() - at, 1 + next() % most);
      const ssize_t n = ::write(fd, bytes.data() + at, piece);
      if (n <= 0) break;
      at += static_cast<std::size_t>(n);
    }
    ::close(fd);
  });
}

PipeFeeder::~PipeFeeder() {
  char sink[4096];
  while (::read(read_fd_, sink, sizeof sink) > 0) {
  }
  writer_.join();
  ::close(read_fd_);
}

TempDir::TempDir(std::string_view tag) {
  static std::atomic<unsigned> counter{0};
  const auto base = std::filesystem::temp_directory_path();
  for (;;) {
    path_ =
        base / ("qjt-unit-" + std::string(tag) + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::error_code ec;
    if (std::filesystem::create_directory(path_, ec)) return;
    if (ec) throw std::system_error(ec, "cannot create " + path_.string());
  }
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace qjt_test
