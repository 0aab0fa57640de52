// --quiet: only errors go to standard error. Warnings, summaries of a
// clean run and progress are left out; data on standard output is not.
#pragma once

namespace qjt {

// Set once by main() from the command line, before anything runs.
void set_quiet(bool quiet);
bool quiet();

}  // namespace qjt
