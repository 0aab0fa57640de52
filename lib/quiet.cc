#include "quiet.h"

namespace qjt {
namespace {
bool quiet_run = false;
}  // namespace

void set_quiet(bool quiet) { quiet_run = quiet; }
bool quiet() { return quiet_run; }

}  // namespace qjt
