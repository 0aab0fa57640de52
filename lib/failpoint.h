// Failpoints: named places in the writing commands where a test can stop
// the process, to prove that a crash or an interrupt at any step loses
// nothing.
//
// QJT_FAILPOINT=N stops the process on reaching the N-th failpoint of the
// run; QJT_FAILPOINT=NAME on reaching that name. It is killed with SIGKILL
// (no clean-up), or, with QJT_FAILPOINT_SIGNAL=INT, TERM or HUP, sent that
// signal, which qjt handles as an interrupt (interrupt.h). A test raises N
// from 1 until a run completes, so it visits every step without having to
// know them. Unset, a failpoint costs one branch.
#pragma once

namespace qjt {

void failpoint(const char* name);

// QJT_FAILPOINT_ERROR=NAME: whether the check named NAME is to report one
// error of its own, so that a test can prove what a writer does when its
// verify after the change fails (guarded_replace's "verify"), which no
// input reaches on purpose. Unset, it costs one getenv per check.
bool failpoint_error(const char* name);

}  // namespace qjt
