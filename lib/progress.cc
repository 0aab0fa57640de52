#include "progress.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

#include <fmt/format.h>

namespace qjt {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kQuietStart = std::chrono::seconds(1);
constexpr auto kRedrawEvery = std::chrono::milliseconds(100);
constexpr char kErase[] = "\r\033[K";

Clock::time_point started;
Clock::time_point drawn;
Clock::duration quiet_start = kQuietStart;

std::string bytes_text(double bytes) {
  constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  std::size_t unit = 0;
  while (bytes >= 1024 && unit + 1 < std::size(kUnits)) {
    bytes /= 1024;
    ++unit;
  }
  return unit == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.1f} {}", bytes, kUnits[unit]);
}

}  // namespace

void Progress::enable(bool on, bool at_once) {
  on_ = on;
  started = Clock::now();
  quiet_start = at_once ? Clock::duration::zero() : Clock::duration(kQuietStart);
}

void Progress::tick() {
  pending_ = 0;
  const auto now = Clock::now();
  if (now - started < quiet_start || now - drawn < kRedrawEvery) return;
  drawn = now;
  const double seconds = std::chrono::duration<double>(now - started).count();
  const double rate = static_cast<double>(read_ + written_) / seconds;
  std::string line;
  if (read_ > 0) line = fmt::format("read {}", bytes_text(static_cast<double>(read_)));
  if (read_ > 0 && read_ <= total_) {
    line += fmt::format(" of {} ({:.0f}%)", bytes_text(static_cast<double>(total_)),
                        100.0 * static_cast<double>(read_) / static_cast<double>(total_));
  }
  if (records_ > 0) line += fmt::format(", {} records", records_);
  if (written_ > 0)
    line += fmt::format("{}wrote {}", line.empty() ? "" : ", ", bytes_text(static_cast<double>(written_)));
  line += fmt::format(", {}/s", bytes_text(rate));
  if (total_ > read_ && read_ > 0) {
    const double left = seconds * static_cast<double>(total_ - read_) / static_cast<double>(read_);
    line += fmt::format(", ETA {}:{:02}", static_cast<long>(left) / 60, static_cast<long>(left) % 60);
  }
  std::fputs(("\r" + line + "\033[K").c_str(), stderr);
  std::fflush(stderr);
  shown_.store(true, std::memory_order_relaxed);
}

void Progress::erase() {
  std::fputs(kErase, stderr);
  std::fflush(stderr);
  shown_.store(false, std::memory_order_relaxed);
}

void Progress::clear_from_signal_handler() {
  if (!shown_.load(std::memory_order_relaxed)) return;
  // Whatever part of a line stdio had not written yet is lost with the
  // process: what was written, the erase covers.
  [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, kErase, sizeof kErase - 1);
}

}  // namespace qjt
