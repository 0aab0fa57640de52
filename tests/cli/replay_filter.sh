#!/usr/bin/env bash
# replay --since/--until, for every family (lib/cli/read_filter.h): the
# replay is the same as without them (the report less its item lists, the
# findings), only the items within the range are listed, and the text, the
# JSON "time_filter" or (Canal) a note on stderr count the items shown and
# left out. An item without a time is left out.
#
# Expectations derived by hand from the fixtures:
#  - kestrel/files/every-opcode: after restart, the items at 80 (open, added
#    at 1700000000003), 105 (1700000000004) and 152 (1700000000005);
#    legacy-1x's first 50 bytes: two legacy ADDs (no add time) and an ADDX
#    at 24 (1700000000003).
#  - libkestrel/queue: reader audit has ids 5 and 6 to read, web 4 and 6;
#    item N was added at 1700000000000 + N * 1000.
#  - flume/channel, its logs rewritten with a "timestamp" header of
#    1700000000000 + the transaction id on every put but transaction 4's,
#    and no checkpoint (every log replayed): the queue is log-1 @0 and @92
#    (txn 1), log-2 @96 (txn 4) and @209 (txn 6).
#  - canal/logs/example/meta.log (TZ UTC): lines 1 to 4 and 6 at
#    22:49:07.101 (1, 2), 08.102, 09.103, 10.104 on 2021-01-15.
set -uo pipefail
QJT=$1 DATA=$2 WORK=$3
source "$(dirname "$0")/../check.sh"
rm -rf "$WORK"; mkdir -p "$WORK"
every=$DATA/kestrel/files/every-opcode

# ---- classic Kestrel: the add time ---------------------------------------------
json=$("$QJT" replay --json --data=none --since 1700000000004 "$every")
check "kestrel: after_restart within the range" "105 152" "$(jq -r '[.after_restart[].offset] | join(" ")' <<<"$json")"
check "kestrel: queue and open_transactions within it too" "105 152|" \
  "$(jq -r '[.queue[].offset] | join(" ")' <<<"$json")|$(jq -r '[.open_transactions[].offset] | join(" ")' <<<"$json")"
check "kestrel: time_filter" '{"since_ms":1700000000004,"until_ms":null,"shown":2,"left_out":1}' \
  "$(jq -c .time_filter <<<"$json")"
without_items='del(.queue, .open_transactions, .after_restart, .time_filter)'
check "kestrel: the replay itself unchanged" "$("$QJT" replay --json "$every" | jq -c "$without_items")" \
  "$(jq -c "$without_items" <<<"$json")"
check "kestrel: no time_filter without the options" null "$("$QJT" replay --json "$every" | jq -c .time_filter)"
text=$("$QJT" replay --since 2023-11-14T22:13:20.002Z --until 1700000000004 "$every")
check "kestrel text: the summary, then the count" \
  "$("$QJT" replay "$every")
  --since 2023-11-14T22:13:20.002Z --until 2023-11-14T22:13:20.004Z: 2 of 3 item(s) after restart within, 1 left out" \
  "$text"
head -c 50 "$DATA/kestrel/files/legacy-1x" >"$WORK/legacy-adds"
check "kestrel: legacy ADDs have no add time, left out" '[24] {"shown":1,"left_out":2}' \
  "$("$QJT" replay --json --since 0 "$WORK/legacy-adds" |
     jq -c '[.after_restart[].offset], (.time_filter | {shown, left_out})' | paste -sd' ')"

# ---- libkestrel: a PUT's add time, per reader ------------------------------------
json=$("$QJT" replay --json --since 1700000005000 --until 1700000005999 "$DATA/libkestrel/queue")
check "libkestrel: each reader's pending within the range, and its count" \
  'audit [5] 1 1|web [] 0 2' \
  "$(jq -r '[.readers[] | "\(.name) \([.pending[].id] | tostring) \(.time_filter.shown) \(.time_filter.left_out)"] |
            join("|")' <<<"$json")"
check "libkestrel: the replay itself unchanged" \
  "$("$QJT" replay --json "$DATA/libkestrel/queue" | jq -c 'del(.readers[].pending)')" \
  "$(jq -c 'del(.readers[].pending, .readers[].time_filter)' <<<"$json")"
check "libkestrel text: a count under each reader" \
  '  reader "audit": head 4, 0 done beyond it; 2 item(s) to read, 11 payload byte(s)
    --since 2023-11-14T22:13:25.000Z: 2 of 2 item(s) to read within, 0 left out
  reader "web": head 3, 1 done beyond it; 2 item(s) to read, 12 payload byte(s)
    --since 2023-11-14T22:13:25.000Z: 1 of 2 item(s) to read within, 1 left out' \
  "$("$QJT" replay --since 1700000005000 "$DATA/libkestrel/queue" | grep -A1 '^  reader')"

# ---- Flume: the event's timestamp header ------------------------------------------
mkdir -p "$WORK/flume/checkpoint" "$WORK/flume/data1" "$WORK/flume/data2"
for n in 1 2; do
  "$QJT" convert --to jsonl "$DATA/flume/channel/data$n/log-$n" |
    jq -c 'if .op == "PUT" and .transaction_id != 4
           then .headers.timestamp = (1700000000000 + .transaction_id | tostring) else . end' |
    "$QJT" convert --to flume-log -o "$WORK/flume/data$n/log-$n" -
done
flume_replay() {
  "$QJT" replay "$@" --checkpoint-dir "$WORK/flume/checkpoint" --data-dir "$WORK/flume/data1,$WORK/flume/data2"
}
json=$(flume_replay --json --data=none --since 1700000000001 --until 2023-11-14T22:13:20.005Z 2>/dev/null)
check "flume: the events within the range; size counts them all" '[[1,0],[1,92]] 4' \
  "$(jq -c '[.queue[] | [.file_id, .offset]], .size' <<<"$json" | paste -sd' ')"
check "flume: an event without a timestamp header is left out" \
  '{"since_ms":1700000000001,"until_ms":1700000000005,"shown":2,"left_out":2}' "$(jq -c .time_filter <<<"$json")"
check "flume: the replay itself unchanged" \
  "$(flume_replay --json 2>/dev/null | jq -c 'del(.queue)')" "$(jq -c 'del(.queue, .time_filter)' <<<"$json")"
check "flume text: the count" "  --since 2023-11-14T22:13:20.006Z: 1 of 4 event(s) within, 3 left out" \
  "$(flume_replay --since 1700000000006 2>/dev/null | tail -1)"

# ---- Canal: the meta.log line's time --------------------------------------------
log=$DATA/canal/logs/example/meta.log
canal_range=(--tz UTC --since 2021-01-15T22:49:08Z --until 2021-01-15T22:49:09.103Z)
check "canal: the cursors within the range" "3 4" \
  "$("$QJT" replay --json "${canal_range[@]}" "$log" 2>/dev/null | jq -r .line | paste -sd' ')"
check "canal text: one line per cursor within, as dump shows them" \
  "$("$QJT" dump --json "${canal_range[@]}" "$log" 2>/dev/null | wc -l)" \
  "$("$QJT" replay "${canal_range[@]}" "$log" 2>/dev/null | wc -l)"
err=$("$QJT" replay "${canal_range[@]}" "$log" 2>&1 >/dev/null)
check "canal: the count on stderr" \
  "qjt replay: --since 2021-01-15T22:49:08.000Z --until 2021-01-15T22:49:09.103Z: 2 of 5 cursor(s) within, 3 left out" \
  "$(grep '^qjt replay:' <<<"$err")"
check "canal: the findings unchanged (the backwards cursor of line 4 included)" \
  "$("$QJT" replay --tz UTC "$log" 2>&1 >/dev/null)" "$(grep -v '^qjt replay:' <<<"$err")"
check "canal: --quiet leaves the count out" "" \
  "$("$QJT" replay -q "${canal_range[@]}" "$log" 2>&1 >/dev/null)"
out=$("$QJT" replay --tz UTC --at 2021-01-15T22:49:09Z --since 0 "$log" 2>/dev/null); status=$?
check "canal: --at with --since is a usage error, nothing printed" "2 " "$status $out"

# ---- usage ---------------------------------------------------------------------
out=$("$QJT" replay --since soon "$every" 2>&1); status=$?
check "a malformed time: usage, the option named" "2 yes" \
  "$status $(grep -q -- '--since soon: expected' <<<"$out" && echo yes)"
check "replay takes no --op" 2 "$("$QJT" replay --op ADD "$every" >/dev/null 2>&1; echo $?)"
[ $failures -eq 0 ]
