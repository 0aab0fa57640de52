// Two questions about a path that every layer asks, answered one way:
// whether it is a directory, and what its file is called.
//
// is_directory never throws: a path that cannot be looked at (missing,
// unreadable, a dangling link, a name too long) is no directory, as it is
// for every caller that then goes on to open it and reports that failure
// in its own words. A symbolic link to a directory is one.
//
// base_name is the last component of the path as written, for messages,
// backup names and the names the formats give their files ("log-3",
// "meta.dat", "jobs.read.web"). Unlike std::filesystem's filename(),
// trailing slashes do not hide it: a directory named "data1/" on the
// command line is "data1". Nothing is resolved: "." and ".." are
// returned as they are, and a path of slashes alone, or an empty one, has
// no name (""). "-" (standard input) is "-".
#pragma once

#include <string>
#include <string_view>

namespace qjt {

// Whether `path` names a directory (following symbolic links); false, never
// an exception, when it cannot be told.
bool is_directory(const std::string& path);

// The last component of `path`, trailing slashes left out.
std::string base_name(std::string_view path);

}  // namespace qjt
