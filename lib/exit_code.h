// The exit statuses every qjt command uses; documented in man/qjt.1.
#pragma once

namespace qjt {

enum class ExitCode : int {
  kOk = 0,        // done, and nothing wrong was found
  kProblems = 1,  // the input has problems (errors; warnings too under --strict)
  kUsage = 2,     // the command line is wrong
  kIoError = 3,   // a file could not be opened, read or written
  kInUse = 4,     // refused: the files are in use by another process
};

// The more serious of two outcomes: in-use > I/O > usage > problems > ok.
ExitCode worse(ExitCode a, ExitCode b);

inline int to_int(ExitCode code) { return static_cast<int>(code); }

}  // namespace qjt
