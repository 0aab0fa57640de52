#include "failpoint.h"

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <cstring>

#include "interrupt.h"

namespace qjt {
namespace {

// QJT_FAILPOINT_SIGNAL's signal, SIGKILL when unset or unknown.
int chosen_signal() {
  const char* name = std::getenv("QJT_FAILPOINT_SIGNAL");
  if (name == nullptr) return SIGKILL;
  if (std::strcmp(name, "INT") == 0) return SIGINT;
  if (std::strcmp(name, "TERM") == 0) return SIGTERM;
  if (std::strcmp(name, "HUP") == 0) return SIGHUP;
  return SIGKILL;
}

}  // namespace

void failpoint(const char* name) {
  static const char* const target = std::getenv("QJT_FAILPOINT");
  // The steps of the whole run, whichever job reached them (-j).
  static std::atomic<long> reached = 0;
  if (target == nullptr) return;
  const long step = ++reached;
  char* end = nullptr;
  const long nth = std::strtol(target, &end, 10);
  const bool hit = (end != target && *end == '\0') ? nth == step : std::strcmp(target, name) == 0;
  if (!hit) return;
  const int sig = chosen_signal();
  if (sig == SIGKILL) std::raise(sig);
  raise_interrupt(sig);
}

bool failpoint_error(const char* name) {
  const char* target = std::getenv("QJT_FAILPOINT_ERROR");
  return target != nullptr && std::strcmp(target, name) == 0;
}

}  // namespace qjt
