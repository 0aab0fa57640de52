#!/bin/bash
# qjt on the real Flume V2 files in ../shared/fixtures/flume-v2 (written by
# Flume 1.2/1.3; never copied into this repository). Each check compares
# qjt's output with what that directory's README says Flume itself does
# with the files. Exit 77 (skipped) when the fixtures are not on this
# machine.
#
#   fixtures_v2.sh QJT FIXTURE_DIR
set -euo pipefail
qjt=$1
fixtures=$2
[ -d "$fixtures" ] || { echo "no fixtures at $fixtures: skipped"; exit 77; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
lay_out() {  # lay_out DIR PREFIX: checkpoint/checkpoint, data1/log-1, ... as Flume's tests do
  mkdir -p "$1/checkpoint" "$1/data1" "$1/data2" "$1/data3"
  gunzip -c "$fixtures/$2checkpoint.gz" >"$1/checkpoint/checkpoint"
  for i in 1 2 3; do gunzip -c "$fixtures/$2log-$i.gz" >"$1/data$i/log-$i"; done
}
lay_out post fileformat-v2-
lay_out pre fileformat-v2-pre-FLUME-1432-

source "$(dirname "$0")/../check.sh"
channel() { echo --checkpoint-dir "$1/checkpoint" --data-dir "$1/data1,$1/data2,$1/data3"; }

# Replaying checkpoint + logs, Flume's channel then yields exactly the 8
# events "2684" ... "2691", in that order.
out=$("$qjt" replay $(channel post) --json)
check "post-FLUME-1432 replay: source and queue" \
  '{"source":"checkpoint","size":8,"bodies":["2684","2685","2686","2687","2688","2689","2690","2691"]}' \
  "$(jq -c '{source, size, bodies: [.queue[].data]}' <<<"$out")"
check "post-FLUME-1432 replay: only the missing inflight files are reported" \
  '["missing_inflight","missing_inflight"]' "$(jq -c '[.findings[].code]' <<<"$out")"

# The checkpoint alone, read as a queue: removeHead returns these 9
# pointers (fileID << 32 | offset), bodies "62" ... "70".
pointers=""
for p in 8589936804 4294969563 12884904153 8589936919 4294969678 12884904268 8589937034 4294969793 12884904383; do
  pointers+="$((p >> 32)):$((p & 0xFFFFFFFF)) "
done
check "checkpoint dump: the 9 pointers in logical order" "$pointers" \
  "$("$qjt" dump post/checkpoint/checkpoint --json | jq -r 'select(.kind == "checkpoint_element") | "\(.file_id):\(.offset)"' | tr '\n' ' ')"
check "checkpoint dump: header" \
  '{"version":2,"write_order_id":1344302226747,"capacity":10,"size":9,"head":0,"complete":true,"active_logs":[{"file_id":1,"count":3},{"file_id":2,"count":3},{"file_id":3,"count":3}]}' \
  "$("$qjt" dump post/checkpoint/checkpoint --json | jq -c 'select(.kind == "checkpoint") | {version, write_order_id, capacity, size, head, complete, active_logs}')"
bodies=""
for p in 8589936804 4294969563 12884904153 8589936919 4294969678 12884904268 8589937034 4294969793 12884904383; do
  f=$((p >> 32)) o=$((p & 0xFFFFFFFF))
  bodies+="$("$qjt" dump "post/data$f/log-$f" --json | jq -r --argjson o "$o" 'select(.offset == $o) | .data') "
done
check "the checkpoint's pointers lead to the puts of bodies 62 ... 70" "62 63 64 65 66 67 68 69 70 " "$bodies"

# Log headers: checkpoint positions 2587 / 2557 / 2554; 3586 / 3585 / 3582
# records (the end of data not counted).
for spec in 1:2587:3586 2:2557:3585 3:2554:3582; do
  IFS=: read -r i position records <<<"$spec"
  check "log-$i: records" "$records" \
    "$("$qjt" dump "post/data$i/log-$i" --json | jq -s '[.[] | select(.op != "END_OF_DATA")] | length')"
done

# pre-FLUME-1432 (capacity 10000): the channel yields 50 events
# "rollback-0-0" ... "rollback-49-0".
expected=$(for i in $(seq 0 49); do printf '"rollback-%d-0",' "$i"; done)
check "pre-FLUME-1432 replay: the 50 events in order" "[${expected%,}]" \
  "$("$qjt" replay $(channel pre) --json | jq -c '[.queue[].data]')"
check "pre-FLUME-1432 logs: 34 / 32 / 34 records, puts and commits only" "34 PUT,COMMIT 32 PUT,COMMIT 34 PUT,COMMIT " \
  "$(for i in 1 2 3; do "$qjt" dump "pre/data$i/log-$i" --json | jq -rs '[.[] | select(.op != "END_OF_DATA")] | "\(length) \([.[].op] | unique | sort_by(.=="COMMIT") | join(","))"' | tr '\n' ' '; done)"

# verify: both channels are sound apart from the missing inflight files.
for set in post pre; do
  status=0
  "$qjt" verify $(channel "$set") --json >verify.json || status=$?
  check "verify $set: exit 0, no errors" "0 0 2" "$status $(jq -r '"\(.errors) \(.warnings)"' verify.json)"
done

[ "$failures" -eq 0 ]
