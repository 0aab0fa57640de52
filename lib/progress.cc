#include "progress.h"

#include <unistd.h>

#include <chrono>
#include <mutex>
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
// The line's: drawing, erasing, and the writes that must not be drawn over.
std::mutex line_mutex;

void write_stderr_bytes(const std::string& text) {
  [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, text.data(), text.size());
}

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
  // Another thread drawing or writing: this look at the clock is skipped.
  const std::unique_lock<std::mutex> lock(line_mutex, std::try_to_lock);
  if (!lock.owns_lock()) return;
  pending_.store(0, std::memory_order_relaxed);
  const auto now = Clock::now();
  if (now - started < quiet_start || now - drawn < kRedrawEvery) return;
  drawn = now;
  const std::uint64_t read = read_, written = written_, total = total_, records = records_;
  const double seconds = std::chrono::duration<double>(now - started).count();
  const double rate = static_cast<double>(read + written) / seconds;
  std::string line;
  if (read > 0) line = fmt::format("read {}", bytes_text(static_cast<double>(read)));
  if (read > 0 && read <= total) {
    line += fmt::format(" of {} ({:.0f}%)", bytes_text(static_cast<double>(total)),
                        100.0 * static_cast<double>(read) / static_cast<double>(total));
  }
  if (records > 0) line += fmt::format(", {} records", records);
  if (written > 0)
    line += fmt::format("{}wrote {}", line.empty() ? "" : ", ", bytes_text(static_cast<double>(written)));
  line += fmt::format(", {}/s", bytes_text(rate));
  if (total > read && read > 0) {
    const double left = seconds * static_cast<double>(total - read) / static_cast<double>(read);
    line += fmt::format(", ETA {}:{:02}", static_cast<long>(left) / 60, static_cast<long>(left) % 60);
  }
  write_stderr_bytes("\r" + line + "\033[K");
  shown_.store(true, std::memory_order_relaxed);
}

void Progress::erase() {
  const std::lock_guard<std::mutex> lock(line_mutex);
  if (!shown_.load(std::memory_order_relaxed)) return;
  write_stderr_bytes(kErase);
  shown_.store(false, std::memory_order_relaxed);
}

Progress::Hold::Hold() {
  line_mutex.lock();
  if (shown_.load(std::memory_order_relaxed)) {
    write_stderr_bytes(kErase);
    shown_.store(false, std::memory_order_relaxed);
  }
}

Progress::Hold::~Hold() { line_mutex.unlock(); }

void Progress::clear_from_signal_handler() {
  if (!shown_.load(std::memory_order_relaxed)) return;
  // Whatever part of a line stdio had not written yet is lost with the
  // process: what was written, the erase covers.
  [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, kErase, sizeof kErase - 1);
}

}  // namespace qjt
