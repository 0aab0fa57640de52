#include "failpoint.h"

#include <csignal>
#include <cstdlib>
#include <cstring>

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
  static long reached = 0;
  if (target == nullptr) return;
  ++reached;
  char* end = nullptr;
  const long nth = std::strtol(target, &end, 10);
  const bool hit = (end != target && *end == '\0') ? nth == reached : std::strcmp(target, name) == 0;
  if (hit) std::raise(chosen_signal());
}

bool failpoint_error(const char* name) {
  const char* target = std::getenv("QJT_FAILPOINT_ERROR");
  return target != nullptr && std::strcmp(target, name) == 0;
}

}  // namespace qjt
