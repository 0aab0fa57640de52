#!/usr/bin/env bash
# The progress line: on standard error only, redrawn in place ("\r", then
# "clear to end of line"), erased at the end; never on a pipe unless
# QJT_PROGRESS=always forces it (which also leaves out the quiet first
# second, so that no check here depends on time), never with --quiet or
# --no-progress. Also: Flume and libkestrel inputs count records as they
# go, and an interrupt erases the line before its own.
set -uo pipefail
QJT=$1 WORK=$2
source "$(dirname "$0")/../check.sh"
rm -rf "$WORK"; mkdir -p "$WORK"
# A few MiB: progress looks at the clock once per MiB read or written.
"$QJT" gen kestrel --records 40000 --payload-size 100 -o "$WORK/j" >/dev/null || exit 1
"$QJT" gen kestrel --records 40000 --payload-size 100 --segments 2 --queue q -o "$WORK/dir" >/dev/null || exit 1
cr=$'\r' clear=$'\r\e[K'

has() { [[ "$(cat "$1")" == *"$2"* ]] && echo yes || echo no; }

for args in "verify $WORK/j" "dump $WORK/j" "dump --json $WORK/j" "replay $WORK/j" "convert --to jsonl $WORK/j" \
  "compact -o $WORK/c $WORK/j" "compact --dry-run $WORK/dir" "gen kestrel --records 40000 -o $WORK/g" \
  "convert --to kestrel2 -o $WORK/k2 $WORK/j"; do
  rm -f "$WORK/c" "$WORK/g" "$WORK/k2"
  # shellcheck disable=SC2086
  QJT_PROGRESS=always "$QJT" $args >"$WORK/out" 2>"$WORK/err"
  check "$args: a progress line on stderr" yes "$(has "$WORK/err" "${cr}")"
  check "$args: erased at the end" yes "$([[ "$(cat "$WORK/err")" == *"$clear" ]] && echo yes || echo no)"
  check "$args: never on stdout" no "$(has "$WORK/out" "$cr")"
  rm -f "$WORK/c" "$WORK/g" "$WORK/k2"
  # shellcheck disable=SC2086
  "$QJT" $args >/dev/null 2>"$WORK/err"
  check "$args: not on a pipe" no "$(has "$WORK/err" "$cr")"
  for off in --quiet -q --no-progress; do
    rm -f "$WORK/c" "$WORK/g" "$WORK/k2"
    # shellcheck disable=SC2086
    QJT_PROGRESS=always "$QJT" $args $off >/dev/null 2>"$WORK/err"
    check "$args $off: no progress" no "$(has "$WORK/err" "$cr")"
  done
done

QJT_PROGRESS=always "$QJT" verify "$WORK/j" >/dev/null 2>"$WORK/err"
check "verify: bytes, records, rate" yes \
  "$([[ "$(cat "$WORK/err")" =~ read\ [0-9.]+\ [KM]iB\ of\ [0-9.]+\ MiB\ \([0-9]+%\),\ [0-9]+\ records,\ .*/s ]] && echo yes || echo no)"
# Flume and libkestrel count their records as they go, as classic Kestrel
# does: a line drawn part of the way through shows them. A V3 data log of
# 30000 puts (1.4 MiB), made from JSON Lines; a Kestrel 3 queue converted
# from the classic journal.
{
  echo '{"kind":"log_meta","version":3,"log_file_id":1,"checkpoint_position":0,"checkpoint_write_order_id":0}'
  awk 'BEGIN { for (i = 1; i <= 30000; i++)
    printf "{\"kind\":\"log_record\",\"op\":\"PUT\",\"version\":3,\"transaction_id\":%d,\"write_order_id\":%d,\"headers\":{},\"data\":\"payload-%06d\"}\n", i, i, i }'
} >"$WORK/flume.jsonl"
mkdir -p "$WORK/flume"
"$QJT" convert --to flume-log -o "$WORK/flume/log-1" "$WORK/flume.jsonl" >/dev/null || exit 1
"$QJT" convert --to libkestrel -o "$WORK/lk" "$WORK/j" >/dev/null || exit 1
partway='read [0-9.]+ KiB of [0-9.]+ MiB \([0-9]+%\), [1-9][0-9]* records'
for args in "verify $WORK/flume/log-1" "dump $WORK/flume/log-1" "verify $WORK/lk" "dump $WORK/lk"; do
  # shellcheck disable=SC2086
  QJT_PROGRESS=always "$QJT" $args >/dev/null 2>"$WORK/err"
  check "$args: records counted part of the way" yes "$([[ "$(cat "$WORK/err")" =~ $partway ]] && echo yes || echo no)"
done

# An interrupt erases the progress line before its own line
# (lib/interrupt.h): the run stops at a failpoint after the line was drawn.
rm -f "$WORK/c"
QJT_PROGRESS=always QJT_FAILPOINT=atomic.temp_synced QJT_FAILPOINT_SIGNAL=INT \
  env --default-signal=INT "$QJT" compact -o "$WORK/c" "$WORK/j" >/dev/null 2>"$WORK/err"
check "interrupted: exit status" 130 $?
check "interrupted: a progress line was drawn" yes "$(has "$WORK/err" "records, ")"
check "interrupted: its line starts on a clean line" yes "$(has "$WORK/err" "${clear}qjt compact: interrupted by SIGINT")"

QJT_PROGRESS=always "$QJT" gen kestrel --records 40000 -o "$WORK/g2" --force >/dev/null 2>"$WORK/err"
check "gen: bytes written" yes "$(has "$WORK/err" "wrote ")"
QJT_PROGRESS=never "$QJT" verify "$WORK/j" >/dev/null 2>"$WORK/err"
check "QJT_PROGRESS=never: none" no "$(has "$WORK/err" "$cr")"

# Lines written while the progress line is up start on a clean line: each
# warning on stderr comes right after an erase, never after progress text.
cp "$WORK/j" "$WORK/dir/q~~1"  # a stray temp file: a warning
QJT_PROGRESS=always "$QJT" dump "$WORK/dir" >/dev/null 2>"$WORK/err"
check "a warning is written on a clean line" no \
  "$(tr '\r' '\n' <"$WORK/err" | grep -q '[0-9]qjt:' && echo yes || echo no)"

# --quiet, -q and --no-progress before the command, as after it.
for off in --quiet -q --no-progress; do
  QJT_PROGRESS=always "$QJT" "$off" dump "$WORK/j" >/dev/null 2>"$WORK/err"
  check "qjt $off dump: no progress" no "$(has "$WORK/err" "$cr")"
done
[ $failures -eq 0 ]
