// Failpoints: named places in the writing commands where a test can kill
// the process, to prove that a crash at any step loses nothing.
//
// QJT_FAILPOINT=N kills the process (SIGKILL, no clean-up) on reaching the
// N-th failpoint of the run; QJT_FAILPOINT=NAME on reaching that name. A
// test raises N from 1 until a run completes, so it visits every step
// without having to know them. Unset, a failpoint costs one branch.
#pragma once

namespace qjt {

void failpoint(const char* name);

}  // namespace qjt
