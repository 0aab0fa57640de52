#!/usr/bin/env bash
# Errors in qjt's own voice: CLI11's words never reach a user, a flag
# given a value is refused, --queue suggests the queue meant, gen names the
# -o path the user gave, standard input is told by its magic, convert and
# dump agree on a cut file, and a file that cannot be read for permission is
# named as such, with no report of what was not read.
#
#   own_voice.sh QJT TESTDATA WORK
set -uo pipefail
QJT=$1 DATA=$2 WORK=$3
source "$(dirname "$0")/../check.sh"
rm -rf "$WORK"
mkdir -p "$WORK"
sample=$DATA/kestrel/sample


run compact --if-overflow abc "$sample"
check "a value that is no number: exit 2" 2 "$rc"
check "a value that is no number: qjt's sentence" \
  "qjt compact: --if-overflow takes a number, not 'abc' (see qjt compact --help)" "$err"
run stats -o "$WORK/a" -o "$WORK/b" "$sample"
check "an option given twice: exit 2" 2 "$rc"
check "an option given twice: qjt's sentence" \
  "qjt stats: --output was given 2 times; it takes one value (see qjt stats --help)" "$err"
run verify --json=yes "$sample"
check "--json=yes: exit 2" 2 "$rc"
check "--json=yes: refused, not taken as true" \
  "qjt verify: --json is a flag and takes no value: give --json, not --json=yes (see qjt verify --help)" "$err"
run verify --json=no "$sample"
check "--json=no: exit 2" 2 "$rc"
for args in "compact --if-overflow abc" "stats -o a -o b" "verify --json=1" "dump --limit x"; do
  # shellcheck disable=SC2086
  run $args "$sample"
  check "$args: no CLI11 words" "" "$(grep -E 'Could not convert|At Most|required but received|excludes|requires' <<<"$err")"
done

run dump --queue ordres "$sample"
check "--queue ordres: exit 3" 3 "$rc"
check "--queue ordres: the queue meant" yes "$(grep -q 'found none; did you mean orders?' <<<"$err" && echo yes)"
run dump --queue zzzzzz "$sample"
check "--queue far from any: the queues there" yes "$(grep -q 'found none; its queues: events, orders' <<<"$err" && echo yes)"

run gen kestrel -o "$WORK/no-such-dir/j"
check "gen -o in a missing directory: exit 3" 3 "$rc"
check "gen -o in a missing directory: the path given" \
  "qjt gen: cannot create $WORK/no-such-dir/j: No such file or directory" "$err"

# A libkestrel segment piped in is told by its magic; a segment cut inside
# its magic gets the same verdict from convert as from dump.
segment=$DATA/libkestrel/queue/jobs.1700000000000
"$QJT" dump - <"$segment" >"$WORK/out" 2>"$WORK/err"
check "a libkestrel segment on standard input: exit 0, decoded as libkestrel" "0 yes" \
  "$? $(grep -q ' PUT 5 ' "$WORK/out" && echo yes)"
head -c 2 "$segment" >"$WORK/cut"
for cmd in dump "convert --to jsonl"; do
  # shellcheck disable=SC2086
  run $cmd "$WORK/cut"
  check "$cmd of a segment cut inside its magic: exit 1, broken_record" "1 1" \
    "$rc $(grep -c 'error\[broken_record\]: the file is too short to be a libkestrel segment' <<<"$err")"
done

# As uid 65534, where it can reach qjt and this work directory (a clone
# under a directory closed to others cannot run this part).
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$QJT" "$@"; }
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && as_nobody --version >/dev/null 2>&1 &&
  setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$WORK"; then
  "$QJT" gen kestrel --segments 2 -o "$WORK/spool" >/dev/null
  "$QJT" gen flume -o "$WORK/channel" >/dev/null
  chmod -R o+rX "$WORK"
  find "$WORK/spool" "$WORK/channel" -type f -exec chmod 0600 {} +
  for cmd in verify dump replay stats "replay --json"; do
    # shellcheck disable=SC2086
    as_nobody $cmd "$WORK/spool" >"$WORK/out" 2>"$WORK/err"
    rc=$?
    check "$cmd of a queue directory it may not read: exit 3" 3 "$rc"
    check "$cmd of a queue directory it may not read: permission denied, the file named" yes \
      "$(grep -q "nothing could be read in $WORK/spool: cannot open $WORK/spool/q: Permission denied" "$WORK/err" && echo yes)"
  done
  as_nobody replay "$WORK/channel" >"$WORK/out" 2>"$WORK/err"
  check "replay of a channel it may not read: exit 3" 3 "$?"
  check "replay of a channel it may not read: no report, only the unit found" 0 "$(grep -vc '^# ' "$WORK/out")"
  check "replay of a channel it may not read: permission denied, the files named" yes \
    "$(grep -q "cannot open $WORK/channel/data1/log-1: Permission denied" "$WORK/err" && echo yes)"
else
  echo "skipped: the permission checks run as root, with setpriv, where uid 65534 can reach qjt and $WORK"
fi
[ "$failures" -eq 0 ]
