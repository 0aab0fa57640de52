#!/usr/bin/env bash
# Every command that writes, interrupted at each of its failpoints by
# SIGINT, SIGTERM or SIGHUP in rotation (QJT_FAILPOINT=N with
# QJT_FAILPOINT_SIGNAL, lib/failpoint.h), N rising from 1 until a run
# completes. Each interrupted run must exit with 128 + the signal's number,
# print exactly one line naming the interruption, leave no "~~" file in the
# scratch tree (backups and $TMPDIR included) and no lock (a re-run
# completes), and leave the state either as it was, every file included,
# when the line says "nothing changed", or as the completed command leaves
# it when the line says what was installed.
#
#   interrupt.sh QJT TESTDATA_DIR WORK
set -uo pipefail
QJT=$1 TD=$2 WORK=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$WORK"; mkdir -p "$WORK/inputs"
export QJT_NOW_MS=1800000000000  # the names of new files, the same in every run
S=$WORK/s  # the scratch directory every case writes in; backups go to $WORK/bak
export TMPDIR=$WORK/tmp
# Whatever the test runner ignores, qjt gets the signals' default dispositions.
run() { env --default-signal=INT,TERM,HUP "$@"; }

source "$(dirname "$0")/../support/writer_cases.sh"
make_writer_inputs

# The state of a case, besides writer_cases.sh's replays: the bytes of its files.
bytes() { (cd "$S" && find . -type f -print0 | sort -z | xargs -0r sha1sum); }
# Every path of the scratch tree and every file's bytes: "nothing changed"
# leaves no backup either.
paths() { (cd "$WORK" && find s bak* tmp 2>/dev/null | sort && find s bak* tmp -type f -print0 2>/dev/null | sort -z | xargs -0r sha1sum); }
temps() { (cd "$WORK" && find s bak* tmp -name '*~~*' 2>/dev/null | sort); }

declare -A number=([INT]=2 [TERM]=15 [HUP]=1)
total=0 summary=""
# check_case NAME STATE SETUP -- COMMAND...
check_case() {
  local name=$1 state=$2 setup=$3; shift 4
  local command=$2  # qjt's command word, which the line names
  fresh() { rm -rf "$S" "$WORK/bak"* "$TMPDIR"; mkdir -p "$S" "$TMPDIR"; $setup; }
  fresh
  local before paths_before temps_before after rc_done
  before=$($state) paths_before=$(paths) temps_before=$(temps)
  run "$@" >/dev/null 2>"$WORK/err"
  rc_done=$?
  after=$($state)
  # (A fixture's own stray temp file stays, or goes into the backup.)
  temps_before=$( (echo "$temps_before"; temps) | sort -u)
  local sig n rc line lines stops=0 committed=0 signals=(INT TERM HUP)
  # Failpoint N gets signal N mod 3: each signal at every third step, as
  # tests/faults rotates its errnos (the three take one path: interrupt.h).
  for ((n = 1; ; n++)); do
    sig=${signals[n % 3]}
    fresh
    QJT_FAILPOINT=$n QJT_FAILPOINT_SIGNAL=$sig run "$@" >/dev/null 2>"$WORK/err"
    rc=$?
    lines=$(grep -c ': interrupted by SIG' "$WORK/err")
    if [ "$lines" -eq 0 ]; then  # no failpoint N: the run completed
      [ $rc -eq $rc_done ] || fail "$name: run past the last failpoint exited $rc, expected $rc_done"
      break
    fi
    local at="$name: SIG$sig at failpoint $n"
    [ $rc -eq $((128 + number[$sig])) ] || fail "$at: exit $rc, expected $((128 + number[$sig]))"
    [ "$lines" -eq 1 ] || fail "$at: $lines lines about the interruption: $(cat "$WORK/err")"
    line=$(tail -n 1 "$WORK/err")
    [[ $line == "qjt $command: interrupted by SIG$sig"* ]] || fail "$at: the last line is not the interruption's: $line"
    local left; left=$(comm -13 <(echo "$temps_before") <(temps))
    [ -z "$left" ] || fail "$at: temp files left: $left"
    if [[ $line == *"nothing changed" ]]; then
      [ "$($state)" = "$before" ] || fail "$at: \"$line\" but the state changed"
      [ "$(paths)" = "$paths_before" ] || fail "$at: \"$line\" but files changed: $(diff <(echo "$paths_before") <(paths))"
      run "$@" >/dev/null 2>"$WORK/err"
      rc=$?
      [ $rc -eq $rc_done ] || fail "$at: the re-run exited $rc, expected $rc_done (a lock left?): $(cat "$WORK/err")"
      [ "$($state)" = "$after" ] || fail "$at: the re-run's state is not the completed command's"
    else
      [ "$($state)" = "$after" ] || fail "$at: \"$line\" but the state is not the completed command's"
      committed=$((committed + 1))
    fi
    stops=$((stops + 1))
  done
  [ $stops -gt 0 ] || fail "$name: no failpoint reached"
  total=$((total + stops))
  summary+="$name: $stops stops ($committed after the commit); "
}

check_every_writer
check_case compact-kestrel-o bytes setup_sample -- "$QJT" compact --queue orders -o "$S/orders.compacted" "$S/q"
check_case gen-segments bytes setup_out -- "$QJT" gen kestrel -o "$S/out/dir" --segments 3 --records 300 --seed 1
echo "$summary"
echo "every one of $total interrupted runs cleaned up"
