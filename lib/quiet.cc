#include "quiet.h"

#include "run_context.h"

namespace qjt {

void set_quiet(bool quiet) { RunContext::process().settings().quiet = quiet; }
bool quiet() { return RunContext::current().settings().quiet; }

}  // namespace qjt
