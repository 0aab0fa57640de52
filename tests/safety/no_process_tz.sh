#!/bin/sh
# no_process_tz.sh QJT SOURCE_DIR: issue 25's rule, that the process's time
# zone is never touched, so that jobs on threads can each have their own
# (lib/time_zone.h). No code in lib/, formats/ or apps/ calls setenv,
# putenv, tzset, localtime or mktime, and the qjt binary imports none of
# them (nm, when binutils is there). Tests may: they compare with glibc.
set -u
qjt=$1
src=$2
status=0
calls=$(grep -rnE '\b(setenv|unsetenv|putenv|tzset|localtime|localtime_r|mktime|timelocal)[[:space:]]*\(' \
  "$src/lib" "$src/formats" "$src/apps")
if [ -n "$calls" ]; then
  echo "FAIL: calls that read or set the process's time zone:"
  echo "$calls"
  status=1
fi
if command -v nm >/dev/null 2>&1; then
  imports=$(nm -u "$qjt" | grep -E ' (setenv|unsetenv|putenv|tzset|localtime|localtime_r|mktime|timelocal)(@|$)')
  if [ -n "$imports" ]; then
    echo "FAIL: $qjt imports:"
    echo "$imports"
    status=1
  fi
fi
[ $status -eq 0 ] && echo "ok: no process-wide time zone"
exit $status
