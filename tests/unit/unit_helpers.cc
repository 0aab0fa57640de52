#include "unit_helpers.h"

#include <unistd.h>

#include <atomic>
#include <system_error>

namespace qjt_test {

TempDir::TempDir(std::string_view tag) {
  static std::atomic<unsigned> counter{0};
  const auto base = std::filesystem::temp_directory_path();
  for (;;) {
    path_ = base / ("qjt-unit-" + std::string(tag) + "-" + std::to_string(::getpid()) + "-" +
                    std::to_string(counter++));
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
