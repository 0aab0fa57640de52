#!/bin/bash
# qjt on the channels of testdata/flume (written by make_flume_testdata,
# whose header gives the scenario). Every expectation is derived by hand
# from the spec's replay rules (flume-format.md §1.5, §4, §6.2):
#
#   channel: checkpoint at write order id 1000 holds [bravo, charlie]
#   (alpha was taken by txn 3, still open: inflighttakes; delta was put by
#   txn 4, still open: inflightputs). After it: txn 4 commits (delta to
#   the tail), txn 5 rolls back echo, txn 6 commits foxtrot, txn 7 takes
#   charlie, txn 8's golf never commits; txn 3 never commits, so alpha goes
#   back to the head. Queue: alpha, bravo, delta, foxtrot. Records read
#   after the checkpoint positions: 5 in log-1, 3 in log-2.
#   damaged: the checkpoint is incomplete, so Flume restores the backup (the
#   same queue); foxtrot's CRC fails, so log-2's replay stops before txn 6
#   commits: alpha, bravo, delta. Without the backup, every log from 0.
#   encrypted: without the key log-2 cannot be read: delta's commit is never
#   seen (alpha, bravo); with it, as channel.
#
#   channel_cli.sh QJT TESTDATA_FLUME_DIR
set -uo pipefail
qjt=$1
td=$2
source "$(dirname "$0")/../check.sh"
dirs() { echo --checkpoint-dir "$td/$1/checkpoint" --data-dir "$td/$1/data1,$td/$1/data2"; }

out=$("$qjt" replay $(dirs channel) --json); status=$?
check "channel: replay" '0 checkpoint ["alpha","bravo","delta","foxtrot"] []' \
  "$status $(jq -r '.source' <<<"$out") $(jq -c '[.queue[].data]' <<<"$out") $(jq -c '[.findings[].code]' <<<"$out")"
check "channel: counts" '{"read":8,"puts":3,"takes":1,"rollbacks":1,"commits":3,"skipped":0,"noops":0,"uncommitted_takes":1,"pending_takes":0}' \
  "$(jq -c .counts <<<"$out")"
# Offsets from the V3 record sizes (§5.3: 5 + the 24-byte transaction
# header + the delimited Put + the 1-byte footer): alpha with header
# host=web-1 is 64 bytes, so bravo is at 64; in log-2 charlie (header
# "empty" without a value) is 60 bytes and its commit 36, so delta is at 96;
# delta is 49 bytes and txn 4's commit 36, so foxtrot is at 181.
check "channel: headers and pointers" \
  '[{"file_id":1,"offset":0,"headers":{"host":"web-1"}},{"file_id":1,"offset":64},{"file_id":2,"offset":96},{"file_id":2,"offset":181,"headers":{"host":"web-1"}}]' \
  "$(jq -c '[.queue[] | {file_id, offset} + (if .headers == {} then {} else {headers} end)]' <<<"$out")"
"$qjt" verify $(dirs channel) --strict >/dev/null; check "channel: verify --strict" 0 $?

out=$("$qjt" replay $(dirs damaged) --backup-dir "$td/damaged/backup" --json); status=$?
check "damaged: replay from the backup, log-2 stops at foxtrot" \
  '1 backup ["alpha","bravo","delta"] ["checkpoint_incomplete","checkpoint_unusable","crc_mismatch"]' \
  "$status $(jq -r '.source' <<<"$out") $(jq -c '[.queue[].data]' <<<"$out") $(jq -c '[.findings[].code]' <<<"$out")"
# foxtrot's record is at 181: framing 5, transaction header 24, the Put's
# length 1, its event field 2, the header field 15, the body field 2, so
# the 7-byte body lies at 230 to 237.
check "damaged: the CRC finding names the put's OP byte and the body's range" \
  '181 expected CRC32 432ff998, found d6abdd3a over bytes 230 to 237' \
  "$(jq -r '.findings[] | select(.code == "crc_mismatch") | "\(.offset) \(.message | sub(";.*"; ""))"' <<<"$out")"
out=$("$qjt" replay $(dirs damaged) --json); status=$?
# From the logs alone: txn 3's take of alpha never commits and there is no
# inflight file any more, so alpha simply stays; charlie is taken.
check "damaged without the backup: every log from its start" '1 logs ["alpha","bravo","delta"]' \
  "$status $(jq -r '.source' <<<"$out") $(jq -c '[.queue[].data]' <<<"$out")"

out=$("$qjt" replay $(dirs encrypted) --json); status=$?
check "encrypted without the key" '1 ["alpha","bravo"] ["missing_key"]' \
  "$status $(jq -c '[.queue[].data]' <<<"$out") $(jq -c '[.findings[].code]' <<<"$out")"
out=$("$qjt" replay $(dirs encrypted) --key k1=000102030405060708090a0b0c0d0e0f --json); status=$?
check "encrypted with the key" '0 ["alpha","bravo","delta","foxtrot"]' "$status $(jq -c '[.queue[].data]' <<<"$out")"
"$qjt" replay $(dirs encrypted) --key k1=00 >/dev/null 2>&1; check "a key of the wrong length" 1 $?
"$qjt" replay $(dirs encrypted) --key k1=zz >/dev/null 2>&1; check "a malformed --key" 2 $?
"$qjt" replay --checkpoint-dir "$td/nowhere" --data-dir "$td/channel/data1" >/dev/null 2>&1; check "a missing directory (exit 3, like any missing path)" 3 $?
"$qjt" dump "$td/channel/checkpoint/no-such-file" >/dev/null 2>&1; check "an unreadable file" 3 $?
"$qjt" dump $(dirs channel) "$td/channel/checkpoint/checkpoint" >/dev/null 2>&1; check "PATH and a channel" 2 $?
"$qjt" dump --format flume-nonsense "$td/channel/checkpoint/checkpoint" >/dev/null 2>&1; check "an unknown --format" 2 $?
"$qjt" dump --op ADDX $(dirs channel) >/dev/null 2>&1; check "a Kestrel-only filter on a channel" 2 $?
"$qjt" dump --format kestrel $(dirs channel) >/dev/null 2>&1; check "--format kestrel with a channel" 2 $?

# dump's filters on data log records (read_filter.h): the type, the
# transaction id, the offsets; Flume records carry no time. data1/log-1:
# put txid 1 at 0 and 64, commit 113, take txid 3 at 149, put txid 5 at 190,
# rollback 238, take txid 7 at 269, commit 310, put txid 8 at 346.
log1=$td/channel/data1/log-1
check "filters: --op take" "149 269" "$("$qjt" dump --json --op take "$log1" | jq -r .offset | paste -sd' ')"
check "filters: --xid 1" "0 64 113" "$("$qjt" dump --json --xid 1 "$log1" | jq -r .offset | paste -sd' ')"
check "filters: --op put,rollback --xid 5" "190 238" \
  "$("$qjt" dump --json --op put,rollback --xid 5 "$log1" | jq -r .offset | paste -sd' ')"
check "filters: offsets, decimal in text" "       149  take txid=3 woid=906 -> log-1 @ 0
       190  put txid=5 woid=1002 size=4 crc=ok" "$("$qjt" dump --from-offset 149 --to-offset 0xee "$log1")"
check "filters: over a channel, only log records are selected" "2" \
  "$("$qjt" dump --json --op take $(dirs channel) | jq -r 'select(.kind == "log_record") | .offset' | wc -l)"
scratch=$(mktemp -d) && trap 'rm -rf "$scratch"' EXIT
"$qjt" convert --to jsonl "$log1" |
  jq -c 'if .op == "PUT" then .headers.timestamp = (1700000000000 + .transaction_id | tostring) else . end' |
  "$qjt" convert --to flume-log -o "$scratch/log-1" -
check "filters: --since/--until on a put's timestamp header (event time)" "5 8" \
  "$("$qjt" dump --json --since 1700000000005 --until 2023-11-14T22:13:20.008Z "$scratch/log-1" |
     jq -r .transaction_id | paste -sd' ')"
check "text: the timestamp header shown as a time" 'headers={"timestamp":"2023-11-14T22:13:20.005Z"}' \
  "$("$qjt" dump --op put --xid 5 "$scratch/log-1" | grep -o 'headers=.*')"
check "text: ... in the local zone with --local-time" 'headers={"timestamp":"2023-11-15T06:13:20.005+08:00"}' \
  "$("$qjt" dump --local-time --tz +08:00 --op put --xid 5 "$scratch/log-1" | grep -o 'headers=.*')"
check "JSON: the timestamp header as it is" '"1700000000005"' \
  "$("$qjt" dump --json --op put --xid 5 "$scratch/log-1" | jq .headers.timestamp)"
"$qjt" convert --to jsonl "$log1" | jq -c 'if .op == "PUT" then .headers.timestamp = "soon" else . end' |
  "$qjt" convert --to flume-log -o "$scratch/log-2" -
check "text: a timestamp header that is no number stays as it is" 'headers={"timestamp":"soon"}' \
  "$("$qjt" dump --op put --xid 5 "$scratch/log-2" | grep -o 'headers=.*')"
check "filters: a put without a timestamp header has no time" "" \
  "$("$qjt" dump --json --since 0 "$log1" | jq -r .offset)"
"$qjt" dump --op PUT_X "$log1" >/dev/null 2>&1; check "filters: an unknown op" 2 $?
[ "$failures" -eq 0 ]
