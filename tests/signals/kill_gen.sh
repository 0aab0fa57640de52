#!/usr/bin/env bash
# A real `kill -INT` (then -TERM) to a running `qjt gen` of a large journal,
# once its temp file has appeared: exit 130 (143), one line saying so, and
# neither the temp file nor the journal left behind.
#
#   kill_gen.sh QJT WORK
set -uo pipefail
QJT=$1 WORK=$2
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$WORK"; mkdir -p "$WORK"

for sig in INT TERM; do
  # env: whatever the test runner ignores, qjt gets the default dispositions.
  env --default-signal=INT,TERM,HUP "$QJT" gen kestrel --size 4G -o "$WORK/big" 2>"$WORK/err" &
  pid=$!
  # Until the temp file has data, or qjt has ended (then the test fails below).
  while kill -0 $pid 2>/dev/null && [ -z "$(find "$WORK" -name 'big~~*' -size +1M)" ]; do sleep 0.05; done
  kill -$sig $pid
  wait $pid
  rc=$?
  case $sig in INT) want=130 ;; TERM) want=143 ;; esac
  [ $rc -eq $want ] || fail "SIG$sig: exit $rc, expected $want: $(cat "$WORK/err")"
  [ "$(cat "$WORK/err")" = "qjt gen: interrupted by SIG$sig; removed 1 temp file, nothing changed" ] ||
    fail "SIG$sig: stderr: $(cat "$WORK/err")"
  [ -z "$(ls -A "$WORK" | grep -v '^err$')" ] || fail "SIG$sig: left behind: $(ls -A "$WORK")"
done
echo "gen interrupted by SIGINT and SIGTERM: cleaned up"
