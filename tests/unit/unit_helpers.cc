#include "unit_helpers.h"

#include <unistd.h>
#include <zlib.h>

#include <atomic>
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
