#include "failpoint.h"

#include <csignal>
#include <cstdlib>
#include <cstring>

namespace qjt {

void failpoint(const char* name) {
  static const char* const target = std::getenv("QJT_FAILPOINT");
  static long reached = 0;
  if (target == nullptr) return;
  ++reached;
  char* end = nullptr;
  const long nth = std::strtol(target, &end, 10);
  const bool hit = (end != target && *end == '\0') ? nth == reached : std::strcmp(target, name) == 0;
  if (hit) std::raise(SIGKILL);
}

}  // namespace qjt
