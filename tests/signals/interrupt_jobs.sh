#!/usr/bin/env bash
# Interrupts under -j (lib/cli/jobs.h): `compact -j 2` of three queue
# directories, two classic Kestrel ones and a libkestrel one, stopped by SIGINT,
# SIGTERM or SIGHUP (in rotation) at each failpoint N (QJT_FAILPOINT, counted over the
# whole run, so it falls in either job) until a run completes. Each stopped
# run must exit with 128 + the signal's number, print one line naming the
# interruption, leave no "~~" file and no lock (a re-run completes), and
# leave each queue as it was or as the completed command leaves it: every
# queue's change is whole or not made, and every job's temp files go.
#
#   interrupt_jobs.sh QJT TESTDATA_DIR WORK
set -uo pipefail
QJT=$1 TD=$2 WORK=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$WORK"; mkdir -p "$WORK"
export QJT_NOW_MS=1800000000000
S=$WORK/s
export TMPDIR=$WORK/tmp
run() { env --default-signal=INT,TERM,HUP "$@"; }

fresh() {
  rm -rf "$S" "$WORK/bak" "$TMPDIR"
  mkdir -p "$S" "$TMPDIR"
  cp -a "$TD/kestrel/sample" "$S/k"
  cp -a "$TD/kestrel/sample" "$S/k2"
  cp -a "$TD/libkestrel/queue" "$S/lk"
}
# The state of each queue of a directory: a line each, its name and what it replays to.
state() {
  "$QJT" replay --json "$S/$1" 2>/dev/null | jq -c 'del(.. | .file?, .offset?, .path?)' |
    while read -r line; do echo "$(jq -r '.queue_name // "q"' <<< "$line") $(sha1sum <<< "$line")"; done
}
# whole NAME STATE BEFORE AFTER: every queue of STATE as it was, or as the completed run left it.
whole() {
  local line
  while read -r line; do
    grep -qxF "$line" <<< "$3" || grep -qxF "$line" <<< "$4" || fail "$at: $1's queue ${line%% *} is half compacted"
  done <<< "$2"
}
temps() { (cd "$WORK" && find s bak tmp -name '*~~*' 2>/dev/null | sort); }
compact=("$QJT" compact --apply -j 2 "$S/k" "$S/k2" "$S/lk")  # each backs up beside its queue

fresh
k_before=$(state k) lk_before=$(state lk)  # k2 is k
temps_before=$(temps)
run "${compact[@]}" > /dev/null 2>&1 || fail "the completed run exited $?"
k_after=$(state k) lk_after=$(state lk)
temps_before=$( (echo "$temps_before"; temps) | sort -u)  # the fixture's stray temp file stays, or goes into the backup
[ "$k_before" != "$k_after" ] || fail "compact changed nothing in the Kestrel queue: no test"

declare -A number=([INT]=2 [TERM]=15 [HUP]=1)
signals=(INT TERM HUP)
stops=0
# Failpoint N gets signal N mod 3: each signal at every third step, as
# tests/faults rotates its errnos (the three take one path: interrupt.h).
for ((n = 1; ; n++)); do
  sig=${signals[n % 3]}
  fresh
  QJT_FAILPOINT=$n QJT_FAILPOINT_SIGNAL=$sig run "${compact[@]}" > /dev/null 2> "$WORK/err"
  rc=$?
  lines=$(grep -c ': interrupted by SIG' "$WORK/err")
  [ "$lines" -eq 0 ] && { [ $rc -eq 0 ] || fail "run past the last failpoint exited $rc"; break; }
  at="SIG$sig at failpoint $n"
  [ $rc -eq $((128 + number[$sig])) ] || fail "$at: exit $rc, expected $((128 + number[$sig]))"
  [ "$lines" -eq 1 ] || fail "$at: $lines lines about the interruption: $(cat "$WORK/err")"
  left=$(comm -13 <(echo "$temps_before") <(temps))
  [ -z "$left" ] || fail "$at: temp files left: $left"
  whole k "$(state k)" "$k_before" "$k_after"
  whole k2 "$(state k2)" "$k_before" "$k_after"
  whole lk "$(state lk)" "$lk_before" "$lk_after"
  run "${compact[@]}" > /dev/null 2>&1 || fail "$at: the re-run exited $? (a lock left?)"
  [ "$(state k)" = "$k_after" ] && [ "$(state k2)" = "$k_after" ] && [ "$(state lk)" = "$lk_after" ] ||
    fail "$at: the re-run did not complete"
  stops=$((stops + 1))
done
[ $stops -gt 0 ] || fail "no failpoint reached"
echo "every one of $stops interrupted runs of compact -j 2 cleaned up"
