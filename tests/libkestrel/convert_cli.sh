#!/usr/bin/env bash
# qjt convert between classic Kestrel and Kestrel 3 (libkestrel):
#  - classic to libkestrel keeps the queue a restart gives (open
#    transactions first, then the queue: replay's after_restart), as PUTs
#    with ids 1, 2, 3... and one reader at the head (READ_HEAD 0, no done);
#  - libkestrel to classic keeps the items one reader has still to read;
#  - so classic -> libkestrel -> classic replays to the same queue.
# Expectations for testdata/libkestrel/queue are derived by hand (see
# libkestrel_cli.sh): reader web still reads delta (id 4, added at
# 1700000004000, no expiry) and foxtrot (id 6, 1700000006000).
#
#   convert_cli.sh QJT TESTDATA_DIR WORK
set -uo pipefail
QJT=$1 TD=$2 WORK=$3
source "$(dirname "$0")/../check.sh"
rm -rf "$WORK"; mkdir -p "$WORK"; cd "$WORK" || exit 1
classic_queue() {  # the items after a restart, without positions
  "$QJT" replay --json --data base64 "$@" 2>/dev/null | jq -c '[.after_restart[] | {time_ms, expiry_ms, size, data_b64}]'
}

for input in "--queue orders $TD/kestrel/sample" "$TD/kestrel/files/every-opcode" "$TD/kestrel/files/legacy-1x"; do
  tag=$(basename "${input##* }")
  before=$(classic_queue $input)
  "$QJT" convert --to libkestrel -o "lk-$tag" $input 2>/dev/null; check "$tag: to libkestrel" 0 $?
  "$QJT" convert --to classic -o "back-$tag" "lk-$tag"; check "$tag: back to classic" 0 $?
  check "$tag: the round trip keeps the queue" "$before" "$(classic_queue "back-$tag")"
  "$QJT" verify --strict --quiet "lk-$tag" >/dev/null; check "$tag: the libkestrel queue verifies clean" 0 $?
done

# every-opcode: one open transaction (binary data) and two queued items
# ("" and delta); the transaction's item comes first, ids from 1, an
# expiry only on delta.
out=$("$QJT" replay --json "lk-every-opcode")
check "every-opcode: one reader at the head, ids in order" \
  '[{"name":"","head":0,"done":[],"ids":[1,2,3],"size":[4,0,5],"expiry":[null,null,1700000120000]}]' \
  "$(jq -c '[.readers[] | {name, head, done, ids: [.pending[].id], size: [.pending[].size], expiry: [.pending[].expiry_ms]}]' <<<"$out")"
check "every-opcode: the segment and the bookmark" 'every-opcode.read. every-opcode.' \
  "$(ls lk-every-opcode | sed 's/[0-9]*$//' | sort -r | tr '\n' ' ' | sed 's/ $//')"
check "every-opcode: the bookmark's bytes (magic, READ_HEAD 0, READ_DONE of 0 bytes)" \
  '263c26030200000000000000009100000000' "$(od -An -tx1 lk-every-opcode/every-opcode.read. | tr -d ' \n')"

"$QJT" convert --to classic -o web.journal --reader web "$TD/libkestrel/queue"; check "web: to classic" 0 $?
check "web: its pending items as ADDX" \
  '[{"time_ms":1700000004000,"expiry_ms":0,"data":"delta"},{"time_ms":1700000006000,"expiry_ms":0,"data":"foxtrot"}]' \
  "$("$QJT" replay --json web.journal | jq -c '[.queue[] | {time_ms, expiry_ms, data}]')"
"$QJT" convert --to classic -o x.journal "$TD/libkestrel/queue" 2>/dev/null; check "two readers need --reader" 2 $?
"$QJT" convert --to libkestrel -o "lk-legacy-1x" "$TD/kestrel/files/legacy-1x" 2>/dev/null
check "an existing queue is not overwritten" 2 $?
"$QJT" convert --to libkestrel "$TD/kestrel/files/legacy-1x" 2>/dev/null; check "--to libkestrel needs -o" 2 $?
"$QJT" convert --to libkestrel --reader r1 --add-time 1234 -o named "$TD/kestrel/files/legacy-1x" 2>/dev/null
check "--reader names the bookmark" 'legacy-1x.read.r1' "$(ls named | grep read)"

# --to jsonl: exactly what dump --json prints, to standard output or -o.
check "--to jsonl: dump --json's lines" "$("$QJT" dump --json "$TD/libkestrel/queue" | md5sum)" \
  "$("$QJT" convert --to jsonl "$TD/libkestrel/queue" | md5sum)"
check "--to jsonl --data hex: dump --json --data hex's lines" \
  "$("$QJT" dump --json --data hex "$TD/libkestrel/queue" | md5sum)" \
  "$("$QJT" convert --to jsonl --data hex "$TD/libkestrel/queue" | md5sum)"
"$QJT" convert --to jsonl -o queue.jsonl "$TD/libkestrel/queue"; check "--to jsonl -o: written" 0 $?
check "--to jsonl -o: the same lines" "$("$QJT" dump --json "$TD/libkestrel/queue" | md5sum)" "$(md5sum <queue.jsonl)"
"$QJT" convert --to jsonl -o queue.jsonl "$TD/libkestrel/queue" 2>/dev/null
check "--to jsonl -o over an existing file: refused" 2 $?
"$QJT" convert --to jsonl "$TD/libkestrel/damaged" >/dev/null 2>&1; check "--to jsonl of a damaged queue: exit 1" 1 $?
"$QJT" convert --to kestrel -o back.journal queue.jsonl 2>/dev/null
check "--to kestrel refuses Kestrel 3 lines (bad_json_line): no way back" 1 $?
check "--to kestrel refuses Kestrel 3 lines: nothing written" "" "$(ls back.journal 2>/dev/null)"

[ $failures -eq 0 ] && echo "all libkestrel convert checks passed"
exit $failures
