#include "exit_code.h"

namespace qjt {
namespace {

int rank(ExitCode code) {
  switch (code) {
    case ExitCode::kOk:
      return 0;
    case ExitCode::kProblems:
      return 1;
    case ExitCode::kUsage:
      return 2;
    case ExitCode::kIoError:
      return 3;
    case ExitCode::kInUse:
      return 4;
  }
  return 0;
}

}  // namespace

ExitCode worse(ExitCode a, ExitCode b) { return rank(a) >= rank(b) ? a : b; }

}  // namespace qjt
