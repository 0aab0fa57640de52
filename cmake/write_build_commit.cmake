# cmake -DSOURCE_DIR=<source tree> -DOUT=<file.cc> -P write_build_commit.cmake
# Writes OUT, the definition of qjt::build_commit() (apps/qjt/build_commit.h):
# the commit of SOURCE_DIR's git checkout, abbreviated, "+" when files git
# tracks differ from it; "unknown" when SOURCE_DIR is no checkout of its own
# (a release tarball, even one unpacked inside another repository) or git is
# missing. OUT is rewritten only when that changes, so that a build on the
# same commit compiles nothing again.
set(commit unknown)
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse --show-toplevel
                  OUTPUT_VARIABLE top OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE status ERROR_QUIET)
  file(REAL_PATH "${SOURCE_DIR}" source)
  if(status EQUAL 0)
    file(REAL_PATH "${top}" top)
  endif()
  if(status EQUAL 0 AND top STREQUAL source)
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} describe --always --abbrev=12 --dirty=+ --exclude=*
                    OUTPUT_VARIABLE described OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE status ERROR_QUIET)
    if(status EQUAL 0)
      set(commit ${described})
    endif()
  endif()
endif()
file(CONFIGURE OUTPUT ${OUT} CONTENT [[// Written by cmake/write_build_commit.cmake at build time.
#include "build_commit.h"

const char* qjt::build_commit() { return "@commit@"; }
]] @ONLY)
