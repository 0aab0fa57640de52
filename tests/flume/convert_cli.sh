#!/bin/bash
# qjt convert on Flume files, through the command line: every V3 log of
# testdata/flume (and, when ../shared is there, Flume's real V2 logs) to
# JSON Lines and back; a jq edit checked by decoding the result; refusals
# (no key, bad lines) that write nothing; and --to flume-v3 on the V2
# channel of testdata/flume (plan, apply, the queue unchanged, re-run, a
# process holding the checkpoint).
#
#   convert_cli.sh QJT TESTDATA_FLUME_DIR FIXTURE_DIR
set -uo pipefail
qjt=$1
td=$2
fixtures=$3
work=$(mktemp -d)
trap 'rm -rf "$work"; [ -n "${holder:-}" ] && kill "$holder" 2>/dev/null' EXIT
cd "$work" || exit 1
source "$(dirname "$0")/../check.sh"
key=(--key k1=000102030405060708090a0b0c0d0e0f)

# Round trips: identical log and meta, in every --data mode.
trips=0
for log in "$td"/channel/data*/log-? "$td"/damaged/data*/log-? "$td"/encrypted/data*/log-?; do
  for mode in text base64 hex; do
    rm -rf rt && mkdir rt
    "$qjt" convert --to jsonl --data "$mode" "${key[@]}" "$log" >rt/lines 2>/dev/null
    "$qjt" convert --to flume-log "${key[@]}" -o "rt/$(basename "$log")" rt/lines 2>rt/err
    status=$?
    if cmp -s "$log" "rt/$(basename "$log")" && cmp -s "$log.meta" "rt/$(basename "$log").meta" && [ $status = 0 ]; then
      trips=$((trips + 1))
    else
      echo "round trip of $log ($mode) differs"; cat rt/err
    fi
  done
done
check "every V3 log of testdata/flume round-trips in every data mode" 18 "$trips"

out=$("$qjt" convert --to jsonl "$td/channel/data2/log-2" | jq -c '[.kind, .op // null, .fill // null]' | tr -d '\n')
check "the meta line first, then dump --json's lines" \
  '["log_meta",null,null]["log_record","PUT",null]["log_record","COMMIT",null]["log_record","PUT",null]["log_record","COMMIT",null]["log_record","PUT",null]["log_record","COMMIT",null]["log_record","END_OF_DATA",64]' "$out"
check "the records are exactly dump --json's" "$("$qjt" dump --json "$td/channel/data2/log-2")" \
  "$("$qjt" convert --to jsonl "$td/channel/data2/log-2" | tail -n +2)"

# jq surgery: change delta's body and a header, delete foxtrot's put.
"$qjt" convert --to jsonl "$td/channel/data2/log-2" |
  jq -c 'select(.data != "foxtrot") | if .data == "delta" then .data = "delta, edited" | .headers.by = "jq" else . end' |
  "$qjt" convert --to flume-log -o log-2 -
check "edited log: written" 0 $?
check "edited log: the new body, a valid CRC, the header, foxtrot gone" \
  '[{"data":"charlie","crc_ok":true,"headers":{"empty":""}},{"data":"delta, edited","crc_ok":true,"headers":{"by":"jq"}}]' \
  "$("$qjt" dump --json log-2 | jq -c '[select(.op == "PUT") | {data, crc_ok, headers}]' | jq -sc add)"
"$qjt" verify log-2 >/dev/null
check "edited log: verify finds nothing" 0 $?
check "edited log: the meta is the original's" "$(cat "$td/channel/data2/log-2.meta" | od -An -tx1)" "$(od -An -tx1 <log-2.meta)"

# Refusals write nothing.
"$qjt" convert --to jsonl "$td/encrypted/data2/log-2" >enc.jsonl 2>err
check "encrypted log without --key: usage error, no output" "2 0" "$? $(wc -c <enc.jsonl)"
"$qjt" convert --to jsonl "${key[@]}" "$td/encrypted/data2/log-2" | "$qjt" convert --to flume-log -o enc/log-2 - 2>err
check "back to an encrypted log without --key: usage error" 2 $?
check "  ... saying which key" 1 "$(grep -c 'expected --key k1=HEX' err)"
[ -e enc/log-2 ]; check "  ... and writing nothing" 1 $?
printf '%s\n' '{"kind":"log_record","op":"ROLLBACK","version":3,"transaction_id":1,"write_order_id":2}' \
  '{"kind":"log_record","op":"TAKE","version":3,"transaction_id":1,"write_order_id":3}' \
  '{"kind":"log_record","op":"END_OF_DATA","version":3}' '{"kind":"log_record","op":"END_OF_DATA","version":3}' >bad.jsonl
"$qjt" convert --to flume-log -o log-5 bad.jsonl 2>err
check "bad lines: usage error" 2 $?
check "bad lines: each reported with its line, what was expected and found" \
  'qjt convert: bad.jsonl:2: expected "taken" as {"file_id","offset"}, found no such field
qjt convert: bad.jsonl:4: expected nothing after the end_of_data or broken line (the log ends there), found another line
qjt convert: bad.jsonl: 2 bad line(s); log-5 not written' "$(cat err)"
[ -e log-5 ]; check "bad lines: nothing written" 1 $?

"$qjt" convert --to jsonl "$td/channel/data1/log-1" >/dev/full 2>/dev/null
check "a standard output that cannot be written: exit 3" 3 $?
"$qjt" convert --to jsonl "$td/channel/data1/log-1" | "$qjt" convert --to flume-log -o no-such-dir/log-1 - 2>/dev/null
check "an output that cannot be created: exit 3" 3 $?

# No meta line: one made up from the output's name.
printf '%s\n' '{"kind":"log_record","op":"ROLLBACK","version":3,"transaction_id":1,"write_order_id":2}' >one.jsonl
"$qjt" convert --to flume-log -o log-7 one.jsonl 2>err
check "synthesized meta: said on stderr" \
  "qjt convert: no log_meta line: log-7.meta written for file id 7, checkpoint positions 0" "$(cat err)"
check "synthesized meta: file id 7, positions 0" \
  '{"log_file_id":7,"checkpoint_position":0,"checkpoint_write_order_id":0,"encryption":null}' \
  "$("$qjt" dump --json log-7.meta | jq -c '{log_file_id, checkpoint_position, checkpoint_write_order_id, encryption}')"
"$qjt" convert --to flume-log -o events one.jsonl 2>/dev/null
check "no meta line and no log-N name: usage error" 2 $?

# V2 logs: converted back they are V3 logs with the same records.
v2_same() {  # v2_same V2LOG: the records of V2LOG and of its V3 conversion, compared
  "$qjt" convert --to jsonl --format flume-log-v2 "$1" | "$qjt" convert --to flume-log -o v3/log-1 --force - 2>/dev/null
  diff <("$qjt" dump --json --format flume-log-v2 "$1" | jq -c 'select(.op != "END_OF_DATA") | del(.file, .offset, .version)') \
       <("$qjt" dump --json v3/log-1 | jq -c 'select(.op != "END_OF_DATA") | del(.file, .offset, .version)') >/dev/null &&
    "$qjt" verify v3/log-1 >/dev/null && echo same
}
mkdir -p v3
check "testdata V2 log -> V3: same records, verify clean" same "$(v2_same "$td/v2/data2/log-2")"
if [ -d "$fixtures" ]; then
  for i in 1 2 3; do
    gunzip -c "$fixtures/fileformat-v2-log-$i.gz" >v2log
    check "Flume's V2 log-$i -> V3: same records, verify clean" same "$(v2_same v2log)"
  done
else
  echo "no fixtures at $fixtures: real V2 logs not checked"
fi

# --to flume-v3 on testdata/flume/v2.
cp -a "$td/v2" ch
channel=(--checkpoint-dir ch/checkpoint --data-dir ch/data1,ch/data2)
queue() { "$qjt" replay --json "${channel[@]}" | jq -c '[.queue[].data]'; }
before=$(queue)
check "v2 channel: the queue Flume recovers" '["bravo","charlie","delta"]' "$before"
out=$("$qjt" convert --to flume-v3 --json "${channel[@]}")
check "plan: JSON" '{"type":"plan","checkpoint":"ch/checkpoint/checkpoint","state":"v2","version":2,"applied":false,"backup":null,"write_order_id":1000,"queue_size":3,"queue_head":8,"active_logs":[{"file_id":1,"count":2},{"file_id":2,"count":1}],"verify":null}' "$out"
check "plan: nothing changed" "checkpoint" "$(ls ch/checkpoint)"
sleep 600 <ch/checkpoint/checkpoint &
holder=$!
sleep 0.2
"$qjt" convert --to flume-v3 --apply "${channel[@]}" >/dev/null 2>err
check "apply while a process has the checkpoint open: exit 4, nothing changed" "4 checkpoint" "$? $(ls ch/checkpoint)"
kill "$holder"; wait "$holder" 2>/dev/null; holder=
out=$("$qjt" convert --to flume-v3 --apply --json "${channel[@]}")
check "apply: exit 0, applied, a backup, verified clean" "0 true v2 true" \
  "$? $(jq -r '.applied, .state, .verify.ok' <<<"$out" | tr '\n' ' ' | sed 's/ $//')"
backup=$(jq -r .backup <<<"$out")
cmp -s "$backup" "$td/v2/checkpoint/checkpoint"; check "the backup is the V2 checkpoint" 0 $?
check "only long[0] changed, 2 -> 3" "8 2 3" "$(cmp -l "$td/v2/checkpoint/checkpoint" ch/checkpoint/checkpoint | tr -s ' ' | sed 's/^ //')"
check "the queue is the same" "$before" "$(queue)"
"$qjt" verify "${channel[@]}" >/dev/null 2>&1
check "verify: no error" 0 $?
check "re-run: already V3" "ch/checkpoint/checkpoint: already V3 (checkpoint.meta beside it): nothing to do" \
  "$("$qjt" convert --to flume-v3 --apply "${channel[@]}")"
"$qjt" convert --to flume-v3 >/dev/null 2>&1
check "no --checkpoint-dir: usage error" 2 $?
"$qjt" convert --to kestrel --key k1=00 -o x one.jsonl >/dev/null 2>&1
check "Flume options with a Kestrel conversion: usage error" 2 $?
"$qjt" convert --to flume-log --apply -o log-8 one.jsonl >/dev/null 2>&1
check "--apply without --to flume-v3: usage error" 2 $?

[ $failures -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "all checks passed"
