#!/usr/bin/env bash
# What is not there is exit 3 in every command, with nothing on standard
# output for dump and replay but, under --json, one error object: a
# missing PATH, a directory where nothing of any known format is found
# ("qjt CMD: no journal, channel or checkpoint found in DIR"), a Flume
# directory that does not exist.
set -uo pipefail
QJT=$1 DATA=$2 WORK=$3
source "$(dirname "$0")/../check.sh"
rm -rf "$WORK"; mkdir -p "$WORK/empty" "$WORK/only-temp"
: >"$WORK/only-temp/q~~1700000000000"  # a stray temp file, nothing to read


for cmd in verify dump replay compact "compact --dry-run" repair; do
  name=${cmd%% *}
  # shellcheck disable=SC2086
  run $cmd "$WORK/empty"
  check "$cmd of an empty directory: exit 3" 3 "$rc"
  check "$cmd of an empty directory: the error" "qjt $name: no journal, channel or checkpoint found in $WORK/empty" "$err"
  check "$cmd of an empty directory: nothing on stdout" "" "$out"
done
run verify --json "$WORK/empty"
check "verify --json of an empty directory: an error object" \
  '{"type":"error","command":"verify","exit_status":3,"message":"no journal, channel or checkpoint found in '"$WORK/empty"'"}' \
  "$out"
run verify "$WORK/only-temp"
check "verify of a directory of temp files only: exit 3" 3 "$rc"
check "verify of a directory of temp files only: the error" \
  "yes" "$(grep -qx "qjt verify: no journal, channel or checkpoint found in $WORK/only-temp" "$WORK/err" && echo yes)"
check "verify of a directory of temp files only: no OK" "" "$out"

for cmd in dump replay "replay --json" "dump --json" verify; do
  # shellcheck disable=SC2086
  run $cmd "$WORK/no-such-journal"
  check "$cmd of a missing file: exit 3" 3 "$rc"
  case $cmd in
    verify*) ;;
    *--json) check "$cmd of a missing file: one error object on stdout" "error 3" \
      "$(jq -r '"\(.type) \(.exit_status)"' <<<"$out")" ;;
    *) check "$cmd of a missing file: nothing on stdout" "" "$out" ;;
  esac
  check "$cmd of a missing file: said on stderr" yes "$(grep -q 'no-such-journal: No such file' "$WORK/err" && echo yes)"
done

for cmd in verify replay "replay --json" dump; do
  # shellcheck disable=SC2086
  run $cmd --checkpoint-dir "$WORK/no-checkpoint" --data-dir "$WORK/no-data"
  check "$cmd of a missing Flume channel: exit 3" 3 "$rc"
  check "$cmd of a missing Flume channel: the missing directory named" yes \
    "$(cat "$WORK/err" "$WORK/out" | grep -q "$WORK/no-checkpoint" && echo yes)"
  case $cmd in
    *--json) check "$cmd of a missing Flume channel: one error object on stdout" "error 3" \
      "$(jq -r '"\(.type) \(.exit_status)"' <<<"$out")" ;;
    replay*) check "$cmd of a missing Flume channel: nothing on stdout" "" "$out" ;;
  esac
done
cp -r "$DATA/flume/channel" "$WORK/channel"
run verify --checkpoint-dir "$WORK/channel/checkpoint" --data-dir "$WORK/channel/data1,$WORK/no-data"
check "verify with one missing Flume data directory: exit 3" 3 "$rc"
[ $failures -eq 0 ]
