#!/usr/bin/env bash
# --max-input at every edge: the stream buffer's first mapping (1 MiB), its
# growth (2 MiB, 4 MiB), the read window (256 KiB) and a pipe's read (64
# KiB), each one byte below, at and above, on a device (/dev/zero), a pipe
# of random bytes, and a regular file of them as long as the limit. dump,
# verify and replay, in text and JSON (payloads as text and as hex), must
# end with a finding and exit 1 or 3: never a signal, and under --json
# every line JSON. (A limit on a window's edge once gave a payload span
# longer than the bytes behind it: SIGSEGV in dump --json.)
#
#   max_input.sh QJT WORK
set -uo pipefail
QJT=$1 WORK=$2
source "$(dirname "$0")/../check.sh"
rm -rf "$WORK"
mkdir -p "$WORK"
head -c $((4 * 1024 * 1024 + 1)) /dev/urandom >"$WORK/random"

runs=0 bad=()
# try LIMIT INPUT-KIND ARGS...: one run, judged.
try() {
  local limit=$1 kind=$2
  shift 2
  local status
  case $kind in
    device) "$QJT" "$@" --max-input "$limit" /dev/zero >"$WORK/out" 2>"$WORK/err" ;;
    pipe) "$QJT" "$@" --max-input "$limit" - <"$WORK/random" >"$WORK/out" 2>"$WORK/err" ;;
    file)
      head -c "$limit" "$WORK/random" >"$WORK/file"
      "$QJT" "$@" --max-input "$limit" "$WORK/file" >"$WORK/out" 2>"$WORK/err"
      ;;
  esac
  status=$?
  runs=$((runs + 1))
  local what="$kind --max-input $limit $*: exit $status"
  if [ "$status" -ne 1 ] && [ "$status" -ne 3 ]; then
    bad+=("$what")
  elif [[ " $* " == *" --json "* ]] && ! jq -e . "$WORK/out" >/dev/null 2>&1; then
    bad+=("$what, output not JSON")
  elif [ ! -s "$WORK/err" ] && [[ " $* " != *" --json "* ]] && [ "$1" != verify ]; then
    bad+=("$what, nothing said on stderr")
  fi
}

for edge in $((64 << 10)) $((256 << 10)) $((1 << 20)) $((2 << 20)) $((4 << 20)); do
  for limit in $((edge - 1)) $edge $((edge + 1)); do
    for kind in device pipe file; do
      for command in dump verify replay; do
        try "$limit" "$kind" "$command"
        try "$limit" "$kind" "$command" --json
      done
      try "$limit" "$kind" dump --json --data=hex
    done
  done
done
check "every run ended with a finding and exit 1 or 3 ($runs runs)" "" "$(printf '%s\n' "${bad[@]}" | sed '/^$/d')"
check "the reported case: dump --json --max-input 1M /dev/zero" 3 \
  "$("$QJT" dump --json --max-input 1M /dev/zero >/dev/null 2>&1; echo $?)"
[ "$failures" -eq 0 ]
