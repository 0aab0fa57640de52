#!/bin/bash
# qjt dump, verify and replay on the Kestrel 3 (libkestrel) queues of
# testdata/libkestrel (written by make_libkestrel_testdata, whose header
# gives the scenario). Every expectation is derived by hand from the spec
# (kestrel-format.md §5):
#
#   record sizes (§5.3): PUT 25 + N bytes without expiry, 33 + N with;
#   READ_HEAD 9; READ_DONE 5 + 8 per id; every file starts with a 4-byte
#   magic. So jobs.1700000000000 is 4 + 30 + 38 = 72 bytes, jobs.1700000001000
#   4 + 32 + 30 = 66, jobs.1700000002000 4 + 29 + 32 + 16 zeros = 81.
#   readers (§5.6): tail 6, first id 1; web: head 3, done {5}, so it still
#   reads 4 (delta) and 6 (foxtrot); audit: head 4, reads 5 and 6.
#   damaged: q.1 is cut in PUT 3 (at 4 + 28 + 5 + 28 = 65); q.2 starts at
#   id 4 (a gap); its end byte is at 4 + 29 = 33, then a 07 at 36; the
#   default reader's head 7 is beyond the tail 4, so libkestrel takes 4.
#
#   libkestrel_cli.sh QJT TESTDATA_LIBKESTREL_DIR
set -uo pipefail
qjt=$1
td=$2
source "$(dirname "$0")/../check.sh"

out=$("$qjt" replay --json "$td/queue"); status=$?
check "queue: replay, per reader" \
  '0 [{"name":"audit","head":4,"done":[],"ids":[5,6],"data":["echo","foxtrot"]},{"name":"web","head":3,"done":[5],"ids":[4,6],"data":["delta","foxtrot"]}]' \
  "$status $(jq -c '[.readers[] | {name, head, done, ids: [.pending[].id], data: [.pending[].data]}]' <<<"$out")"
check "queue: segments" \
  '[[1,2,2,72],[3,4,2,66],[5,6,2,81]]' \
  "$(jq -c '[.segments[] | [.first_id, .last_id, .items, .bytes]]' <<<"$out")"
check "queue: a pending PUT rendered as dump renders it" \
  "{\"file\":\"$td/queue/jobs.1700000001000\",\"offset\":36,\"op\":\"PUT\",\"id\":4,\"error_count\":2,\"time_ms\":1700000004000,\"expiry_ms\":null,\"size\":5,\"data\":\"delta\"}" \
  "$(jq -c '.readers[1].pending[0]' <<<"$out")"
check "queue: --data hex" '["6563686f","666f7874726f74"]' \
  "$("$qjt" replay --json --data hex "$td/queue" | jq -c '[.readers[0].pending[].data_hex]')"
"$qjt" verify --strict "$td/queue" >/dev/null; check "queue: verify --strict" 0 $?

check "dump --json of a segment and a bookmark" \
  '{"type":"record","format":"libkestrel","offset":4,"op":"PUT","id":1,"error_count":0,"time_ms":1700000001000,"expiry_ms":null,"size":5,"data":"alpha"}
{"type":"record","format":"libkestrel","offset":34,"op":"PUT","id":2,"error_count":0,"time_ms":1700000002000,"expiry_ms":1700000600000,"size":5,"data":"bravo"}
{"type":"record","format":"libkestrel","offset":72,"op":"END_OF_FILE"}
{"type":"record","format":"libkestrel","offset":4,"op":"READ_HEAD","id":3}
{"type":"record","format":"libkestrel","offset":13,"op":"READ_DONE","ids":[5]}
{"type":"record","format":"libkestrel","offset":26,"op":"END_OF_FILE"}' \
  "$("$qjt" dump --json "$td/queue/jobs.1700000000000" "$td/queue/jobs.read.web" | jq -c 'del(.file)')"
check "dump text: zero padding ends the segment" \
  '         4  PUT 4      id=5 add=2023-11-14T22:13:25.000Z
        33  PUT 7      id=6 add=2023-11-14T22:13:26.000Z
        65  END_OF_FILE' \
  "$("$qjt" dump "$td/queue/jobs.1700000002000")"
check "dump --limit spans files" 3 "$("$qjt" dump --json --limit 3 "$td/queue" | wc -l)"

out=$("$qjt" dump --json "$td/damaged" 2>/dev/null); status=$?
check "damaged: dump ends q.1 with BROKEN at 65" \
  '1 {"type":"record","format":"libkestrel","offset":65,"op":"BROKEN","error":"truncated entry: 5 data byte(s) announced, 3 remain"} {"type":"record","format":"libkestrel","offset":32,"op":"UNKNOWN","command":5,"size":0}' \
  "$status $(jq -c 'select(.op == "BROKEN") | del(.file)' <<<"$out") $(jq -c 'select(.op == "UNKNOWN") | del(.file)' <<<"$out")"
out=$("$qjt" verify --json "$td/damaged"); status=$?
check "damaged: verify findings" \
  '1 ["warning temp_file -","warning unknown_command 32","error broken_record 65","warning id_gap 4","warning data_after_end 36","warning head_beyond_tail -","error duplicate_done_id 13","warning done_outside_journal 13"]' \
  "$status $(jq -c '[.findings[] | "\(.severity) \(.code) \(.offset // "-")"]' <<<"$out")"
out=$("$qjt" replay --json "$td/damaged"); status=$?
check "damaged: replay clamps the head to the tail" '1 {"name":"","head":4,"done":[],"pending":[]} 4' \
  "$status $(jq -c '.readers[0] | del(.file)' <<<"$out") $(jq '.tail_id' <<<"$out")"

# Files named directly form one queue: jobs.1700000002000 holds ids 5 and 6,
# so web's head 3 is below the first id and becomes 4; done {5} leaves 6.
out=$("$qjt" replay --json "$td/queue/jobs.1700000002000" "$td/queue/jobs.read.web"); status=$?
check "files named directly" '0 4 [6] ["head_before_journal"]' \
  "$status $(jq -c '.readers[0].head' <<<"$out") $(jq -c '[.readers[0].pending[].id]' <<<"$out") $(jq -c '[.findings[].code]' <<<"$out")"

"$qjt" dump --xid 1 "$td/queue" >/dev/null 2>&1; check "a filter on a field libkestrel lacks is a usage error" 2 $?
"$qjt" repair "$td/damaged" >/dev/null 2>&1; check "repair refuses Kestrel 3 queues" 2 $?
scratch=$(mktemp -d); trap 'rm -rf "$scratch"' EXIT
: > "$scratch/jobs.9"
"$qjt" dump "$scratch/jobs.9" "$td/queue/jobs.read.web" >/dev/null 2>&1; check "a classic file among libkestrel ones is dumped as classic" 0 $?
check "--format kestrel reads a segment as a classic journal" BROKEN \
  "$("$qjt" dump --json --format kestrel "$td/queue/jobs.1700000000000" | jq -r 'select(.offset == 0) | .op')"
check "--format libkestrel forces the family" "READ_HEAD" \
  "$("$qjt" dump --json --format libkestrel "$td/queue/jobs.read.web" | jq -r 'select(.offset == 4) | .op')"
"$qjt" verify --format libkestrel "$scratch/jobs.9" >/dev/null 2>&1; check "--format libkestrel on a classic file: usage" 2 $?
check "a 0-byte file is an empty classic journal" '         0  END_OF_FILE' "$("$qjt" dump "$scratch/jobs.9")"

# dump's filters (read_filter.h): a PUT's add time, the op, the offsets;
# libkestrel has no transactions. jobs.1700000000000: PUT 1 at 4 added at
# 1700000001000, PUT 2 at 34 added at 1700000002000, END_OF_FILE at 72.
seg=$td/queue/jobs.1700000000000
check "filters: --op put --since (ISO 8601)" 34 \
  "$("$qjt" dump --json --op put --since 2023-11-14T22:13:21.500Z "$seg" | jq -r .offset)"
check "filters: --until keeps only PUTs, END_OF_FILE has no time" 4 \
  "$("$qjt" dump --json --until 1700000001000 "$seg" | jq -r .offset)"
check "filters: --from-offset 0x22 --to-offset 72" 34 \
  "$("$qjt" dump --json --from-offset 0x22 --to-offset 72 "$seg" | jq -r .offset)"
check "filters: --op READ_DONE in a bookmark" 13 \
  "$("$qjt" dump --json --op read_done "$td/queue/jobs.read.web" | jq -r .offset)"
"$qjt" dump --op ADDX "$seg" >/dev/null 2>&1; check "filters: a classic op is a usage error" 2 $?

[ $failures -eq 0 ] && echo "all libkestrel CLI checks passed"
exit $failures
