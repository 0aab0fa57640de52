#!/usr/bin/env bash
# Classic Kestrel journals named one by one are grouped into queues by
# Kestrel's naming rule, as their directory would be: verify reports the same
# findings and counts, dump and replay go queue by queue in Kestrel's file
# order, and writing commands handle each queue on its own. A directory with
# nothing to read is an I/O error (exit 3), whatever --format says.
set -uo pipefail
QJT=$1 DATA=$2 WORK=$3
source "$(dirname "$0")/../check.sh"
rm -rf "$WORK"; mkdir -p "$WORK/empty"
td=$DATA/kestrel

# What a verify report says, findings sorted: the order of findings between
# queues is no part of the result.
report() { "$QJT" verify --json "$@" | jq -cS '.findings |= sort_by(.file, .offset, .code, .message)'; }

check "verify of files one by one == verify of their directory" \
  "$(report "$td/files")" "$(report "$td"/files/*)"
for d in broken-archived multi-pack no-live numeric-order; do
  check "verify of $d's files == verify of $d" "$(report "$td/dirs/$d")" "$(report "$td/dirs/$d"/*)"
done
check "verify of files in any order, from two directories" \
  "$(report "$td/dirs/multi-pack" "$td/dirs/no-live")" \
  "$(report $(ls -r "$td"/dirs/no-live/* "$td"/dirs/multi-pack/*))"

# dump: each queue's records in Kestrel's file order, queue after queue.
by_dir=$( { "$QJT" dump --json "$td/dirs/no-live"; "$QJT" dump --json "$td/dirs/numeric-order"; } )
check "dump of files in reverse order follows the queues" "$by_dir" \
  "$("$QJT" dump --json $(ls -r "$td"/dirs/numeric-order/* "$td"/dirs/no-live/*))"
check "dump text: file headers in Kestrel's order" \
  "$("$QJT" dump "$td/dirs/numeric-order" | grep '^#' | sed 's|.*/||')" \
  "$("$QJT" dump $(ls -r "$td"/dirs/numeric-order/*) | grep '^#' | sed 's|.*/||')"

# replay: one result per queue, each named.
check "replay of files of two queues: one object per queue" '["a","q"]' \
  "$("$QJT" replay --json "$td/dirs/numeric-order/q" "$td/dirs/no-live/a.200" "$td/dirs/numeric-order/q.999" \
     "$td/dirs/no-live/a.100" | jq -sc '[.[].queue_name]')"
check "a name the rule cannot place is a queue of its own" '["orders~~1700000003000"]' \
  "$("$QJT" replay --json "$td/sample/orders~~1700000003000" | jq -sc '[.[].queue_name]')"

# compact: per queue, and files named directly still need -o or --dry-run.
check "compact --dry-run of files of two queues: one report per queue" '["a","q"]' \
  "$("$QJT" compact --dry-run --json "$td"/dirs/no-live/* "$td"/dirs/numeric-order/* | jq -sc '[.[].queue_name]')"
"$QJT" compact --apply "$td"/dirs/no-live/* >/dev/null 2>&1
check "compact of files named directly, without -o: usage" 2 $?
"$QJT" compact -o "$WORK/out" "$td"/dirs/no-live/* "$td"/dirs/numeric-order/* >/dev/null 2>&1
check "compact -o of two queues' files: usage" 2 $?

# repair: every file is planned on its own, as before.
cp "$td/files/broken-opcode-0a" "$WORK/a"; cp "$td/files/every-opcode" "$WORK/b"
check "repair plans each file named directly" '["truncate","keep"]' \
  "$("$QJT" repair --json "$WORK/a" "$WORK/b" | jq -c '[.files[].action]')"

# A directory with nothing to read: exit 3 and an io_error naming it.
for cmd in dump verify replay; do
  for fmt in "" "--format kestrel" "--format libkestrel"; do
    "$QJT" $cmd $fmt "$WORK/empty" >/dev/null 2>&1
    check "$cmd $fmt on an empty directory exits 3" 3 $?
  done
  "$QJT" $cmd --format kestrel "$DATA/libkestrel/queue" >/dev/null 2>&1
  check "$cmd --format kestrel on a libkestrel directory exits 3" 3 $?
done
check "--format kestrel on a libkestrel directory: nothing of the family found, as in an empty one" \
  "3 no Classic Kestrel journals found in $DATA/libkestrel/queue (--format kestrel)" \
  "$("$QJT" verify --json --format kestrel "$DATA/libkestrel/queue" | jq -r '"\(.exit_status) \(.message)"')"
check "--format kestrel on an empty directory: the error" \
  "3 no Classic Kestrel journals found in $WORK/empty (--format kestrel)" \
  "$("$QJT" verify --json --format kestrel "$WORK/empty" | jq -r '"\(.exit_status) \(.message)"')"
for cmd in "compact --dry-run" repair; do
  "$QJT" $cmd "$WORK/empty" >/dev/null 2>&1
  check "$cmd on an empty directory exits 3" 3 $?
done
[ $failures -eq 0 ]
