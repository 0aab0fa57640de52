#!/bin/bash
# qjt repair on copies of the channels of testdata/flume (scenarios in
# channel_cli.sh). Expectations derived by hand:
#  - damaged: log-2's put of foxtrot at offset 181 fails its CRC (spec §5.3),
#    so the integrity repair (§7.2) writes 0x00 over that OP byte and
#    nothing else. The main checkpoint stays incomplete (§1.5), so the
#    channel still fails verify until the backup (§4) is restored; Flume's
#    queue is alpha, bravo, delta before, during and after.
#  - channel (capacity 10): the rebuild (§7.1) gives the queue the logs commit: alpha was
#    taken by a transaction that never committed, so it is still a committed
#    put, and the rebuilder orders by write order id: alpha, bravo, delta,
#    foxtrot, added to an empty ring whose head moves back on the first two
#    adds (§1.3: head 9, then 8); empty inflight files (§3: MD5 of 16 zero bytes, then 16 zero
#    bytes); each log-N.meta keeps its position and gets the new write order
#    id, its old mark moving to the backup fields (§5.4).
#  - Every step killed (failpoints): the channel replays to a queue Flume
#    would recover before or after the repair, and a second run completes.
#
#   repair_cli.sh QJT TESTDATA_FLUME_DIR
set -uo pipefail
qjt=$1
td=$2
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
source "$(dirname "$0")/../check.sh"
fresh() {  # fresh SCENARIO: a copy in $work/c
  scenario=$1
  rm -rf "$work/c" "$work/bak"; cp -r "$td/$1" "$work/c"
}
chan() {
  echo --checkpoint-dir "$work/c/checkpoint" --data-dir "$work/c/data1,$work/c/data2"
  [ -d "$td/$scenario/backup" ] && echo --backup-dir "$work/c/backup"
}
queue() { "$qjt" replay $(chan) --json 2>/dev/null | jq -c '[.queue[].data]'; }
same_files() {  # same_files DIR_A DIR_B: identical trees
  diff -r "$1" "$2" >/dev/null && echo same || echo different
}

# ---- plan only -------------------------------------------------------------
fresh damaged
out=$("$qjt" repair $(chan) --json); status=$?
check "damaged: plan exit status" 1 "$status"
check "damaged: the plan is one byte over foxtrot's OP byte" \
  '[{"file":"'"$work"'/c/data2/log-2","action":"patch","size":347,"size_after":347,"changes":[{"offset":181,"old_byte":127,"new_byte":0,"kind":"crc_mismatch"}],"backup":null}]' \
  "$(jq -c '[.files[] | del(.reason) | .changes |= map(del(.reason))]' <<<"$out")"
check "damaged: plan report" '{"type":"plan","applied":false,"checkpoint_action":"keep","feasible":true,"rebuild":null,"recovery":{"events_now":3,"events_after":3,"lost":[],"lost_unreached":[],"dropped":[],"consumed":[],"revived":[],"reached":[],"lost_to_damage":[],"hidden_by_damage":[],"dead_after":[],"refused":false},"records_lost":1,"items_lost":0,"gentler":null,"backup_dir":null,"backup_to":"'"$work"'/c/checkpoint.qjt-backup/channel.<ms>","needs":[],"findings":[],"verify":null}' \
  "$(jq -c 'del(.files)' <<<"$out")"
check "damaged: a plan changes nothing" same "$(same_files "$td/damaged" "$work/c")"

# ---- integrity repair, then the backup restored ----------------------------
"$qjt" repair $(chan) --apply --backup-to "$work/bak" --json >"$work/out.json"; status=$?
check "damaged: integrity repair leaves the bad checkpoint: exit 1" 1 "$status"
check "damaged: only byte 182 (1-based) of log-2 changed, 0177 -> 0" "182 177 0" \
  "$(cmp -l "$td/damaged/data2/log-2" "$work/c/data2/log-2" | xargs)"
backup=$(jq -r '.files[0].backup' "$work/out.json")
check "damaged: the backup is the original log" same "$(cmp -s "$backup" "$td/damaged/data2/log-2" && echo same)"
check "damaged: the backup is outside the channel, with a manifest" \
  "$backup	$work/c/data2/log-2" "$(cat "$(jq -r .backup_dir "$work/out.json")/qjt-backup.txt")"
check "damaged: verify after: the incomplete checkpoint remains" '["checkpoint_incomplete","checkpoint_unusable"]' \
  "$(jq -c '[.verify.findings[] | select(.severity == "error") | .code] | unique' "$work/out.json")"
check "damaged: queue after the integrity repair" '["alpha","bravo","delta"]' "$(queue)"

out=$("$qjt" repair $(chan) --restore-backup --apply --backup-to "$work/bak" --json); status=$?
check "damaged: restore exit status" 0 "$status"
check "damaged: restore writes checkpoint first and checkpoint.meta last" \
  '["checkpoint","inflightputs","inflighttakes","checkpoint.meta"]' \
  "$(jq -c '[.files[] | .file | split("/") | last]' <<<"$out")"
for f in checkpoint.meta inflightputs inflighttakes; do
  check "damaged: restored $f is the backup's" same "$(cmp -s "$work/c/backup/$f" "$work/c/checkpoint/$f" && echo same)"
done
check "damaged: restored checkpoint decodes as the backup's" \
  "$("$qjt" dump --json "$work/c/backup/checkpoint.snappy" | jq -c 'del(.file)')" \
  "$("$qjt" dump --json "$work/c/checkpoint/checkpoint" | jq -c 'del(.file)')"
check "damaged: after restore the main checkpoint is used" '"checkpoint" ["alpha","bravo","delta"] true' \
  "$("$qjt" replay $(chan) --json | jq -c '.source') $(queue) $(jq -c .verify.ok <<<"$out")"
"$qjt" verify $(chan) --quiet >/dev/null; check "damaged: verify is clean after restore" 0 $?

# ---- rebuild -----------------------------------------------------------------
fresh channel
out=$("$qjt" repair $(chan) --rebuild-checkpoint --write-order-id 5000 --apply --backup-to "$work/bak" --json)
status=$?
check "channel: rebuild exit status" 0 "$status"
check "channel: rebuild report" '{"capacity":10,"write_order_id":5000,"events":4,"dropped_events":0}' \
  "$(jq -c .rebuild <<<"$out")"
check "channel: rebuilt queue" '["alpha","bravo","delta","foxtrot"]' "$(queue)"
check "channel: rebuilt checkpoint" '{"version":3,"write_order_id":5000,"capacity":10,"complete":true,"size":4,"head":8}' \
  "$("$qjt" dump --json "$work/c/checkpoint/checkpoint" | head -1 | jq -c '{version,write_order_id,capacity,complete,size,head}')"
empty_inflight="4ae71336e44bf9bf79d2752e234818a500000000000000000000000000000000"
for f in inflightputs inflighttakes; do
  check "channel: empty $f" "$empty_inflight" "$(od -An -tx1 -v "$work/c/checkpoint/$f" | tr -d ' \n')"
done
for n in 1 2; do
  before=$("$qjt" dump --json "$td/channel/data$n/log-$n.meta" | jq -c '[.checkpoint_position, .checkpoint_write_order_id]')
  check "channel: log-$n.meta marked at 5000, position kept, old mark as backup" \
    "$(jq -c '[.[0], 5000, .[0], .[1]]' <<<"$before")" \
    "$("$qjt" dump --json "$work/c/data$n/log-$n.meta" | jq -c '[.checkpoint_position, .checkpoint_write_order_id, .backup_checkpoint_position, .backup_checkpoint_write_order_id]')"
done
rebuilt="$work/rebuilt"; rm -rf "$rebuilt"; cp -r "$work/c" "$rebuilt"
# No checkpoint dir at all (the usual reason to rebuild): it is created.
fresh channel
rm -rf "$work/c/checkpoint"
"$qjt" repair $(chan) --rebuild-checkpoint --capacity 10 --apply --no-backup >/dev/null 2>&1
check "no checkpoint dir: rebuilt" '0 "checkpoint" ["alpha","bravo","delta","foxtrot"]' \
  "$? $("$qjt" replay $(chan) --json | jq -c .source) $(queue)"

# ---- a torn tail ----------------------------------------------------------------
# log-2 cut 20 bytes into foxtrot's put (at 181; 5 + 61 bytes long): Flume's
# reader ends the log there (an EOF inside a record), losing txn 6. The plan
# writes 0x80, the end of the data, over its OP byte, and the channel then
# verifies clean with the same queue.
fresh channel
truncate -s 201 "$work/c/data2/log-2"
check "torn: replay before" '["alpha","bravo","delta"]' "$(queue)"
out=$("$qjt" repair $(chan) --json)
check "torn: plan" '[{"offset":181,"old_byte":127,"new_byte":128,"kind":"torn_record"}]' \
  "$(jq -c '[.files[].changes[] | del(.reason)]' <<<"$out")"
"$qjt" repair $(chan) --apply --no-backup >/dev/null; check "torn: apply verifies clean" 0 $?
check "torn: replay after" '["alpha","bravo","delta"]' "$(queue)"

# ---- damage in mid-log (issue 14) -------------------------------------------------
# log-1's first record (alpha) with byte 2 of its length XOR 0xff: the length
# runs past the end, but bravo and the records after it decode, so this is
# not a torn tail (0x80 there would end log-1 at byte 0). Nothing is planned
# for log-1 (integrity_unrepairable). The rebuild would read log-1 only up to
# that record: it loses bravo (log-1 @64) and revives charlie (log-2 @0,
# taken by txn 7 in log-1), so --apply refuses it (exit 1, nothing changed);
# --force carries it out.
flip() {  # flip FILE OFFSET: the byte XOR 0xff
  local byte; byte=$(od -An -tu1 -j"$2" -N1 "$1" | tr -d ' ')
  printf "\\$(printf %03o $((byte ^ 255)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
fresh channel
flip "$work/c/data1/log-1" 2
rm -rf "$work/mid"; cp -r "$work/c" "$work/mid"
out=$("$qjt" repair $(chan) --json); status=$?
check "mid-log: plan" '1 [] ["integrity_unrepairable"]' "$status $(jq -c '[.files[].changes[]]' <<<"$out") $(jq -c '[.findings[].code]' <<<"$out")"
out=$("$qjt" repair $(chan) --rebuild-checkpoint --apply --backup-to "$work/bak" --json); status=$?
check "mid-log: the rebuild is refused" '1 false' "$status $(jq -c .applied <<<"$out")"
check "mid-log: the events lost and revived" \
  '{"events_now":3,"events_after":3,"lost":[{"file_id":1,"offset":64}],"lost_unreached":[],"dropped":[],"consumed":[],"revived":[{"file_id":2,"offset":0}],"reached":[],"lost_to_damage":[{"file_id":1,"offset":0,"found":"broken_record"}],"hidden_by_damage":[],"dead_after":[],"refused":true}' \
  "$(jq -c .recovery <<<"$out")"
check "mid-log: findings name them" '["repair_loses_event:64","repair_revives_event:0"]' \
  "$(jq -c '[.findings[] | select(.code | startswith("repair_")) | "\(.code):\(.offset)"]' <<<"$out")"
check "mid-log: refused changes nothing" same "$(same_files "$work/mid" "$work/c")"
out=$("$qjt" repair $(chan) --rebuild-checkpoint 2>/dev/null)
check "mid-log: the text plan names them" 2 "$(grep -c -e '^  lost: log-1 offset 64' -e '^  revived: log-2 offset 0' <<<"$out")"
"$qjt" repair $(chan) --rebuild-checkpoint --apply --force --no-backup >/dev/null 2>&1
check "mid-log: --force carries it out" '["charlie","delta","foxtrot"]' "$(queue)"

# ---- refusals ------------------------------------------------------------------
fresh damaged
flock "$work/c/data1/in_use.lock" sleep 60 & holder=$!
sleep 0.3
"$qjt" repair $(chan) --apply --backup-to "$work/bak" >/dev/null 2>"$work/err"; status=$?
check "in use: refused with exit 4" 4 "$status"
check "in use: the message names the holder" 1 "$(grep -c "pid $holder" "$work/err")"
check "in use: nothing changed" same "$(diff -r -x in_use.lock "$td/damaged" "$work/c" >/dev/null && echo same)"
"$qjt" repair $(chan) --apply --force --backup-to "$work/bak" >/dev/null 2>&1
check "in use: --force goes ahead" 1 "$(cmp -l "$td/damaged/data2/log-2" "$work/c/data2/log-2" | wc -l)"
kill $holder; wait $holder 2>/dev/null

fresh damaged
"$qjt" repair $(chan) --apply --backup-to "$work/c/data1/bak" >/dev/null 2>&1
check "backup inside a data dir: usage error" 2 $?
"$qjt" repair $(chan) --drop-event 2:x >/dev/null 2>&1; check "bad --drop-event: usage error" 2 $?
"$qjt" repair $(chan) --rebuild-checkpoint --restore-backup >/dev/null 2>&1; check "rebuild and restore: usage error" 2 $?
"$qjt" repair $(chan) --salvage >/dev/null 2>&1; check "--salvage on a channel: usage error" 2 $?
out=$("$qjt" repair $(chan) --drop-event 9:0 --json); status=$?
check "drop in an unknown log" "1 drop_unknown_log" "$status $(jq -r '.findings[].code' <<<"$out")"
check "refusals changed nothing" same "$(same_files "$td/damaged" "$work/c")"

# ---- failpoints ------------------------------------------------------------------
# failpoints NAME EXPECTED_BEFORE EXPECTED_AFTER ARGS...: kill at every step.
failpoints() {
  local name=$1 before=$2 after=$3; fresh "$4"; local first=$4; shift 4
  local n steps=0 rc q
  for n in $(seq 1 30); do
    fresh "$first"
    rc=$( { (QJT_FAILPOINT=$n exec "$qjt" repair $(chan) "$@" --apply --backup-to "$work/bak" >/dev/null 2>&1)
            echo $?; } 2>/dev/null)  # without bash's "Killed" notices
    q=$(queue)
    [ "$q" == "$before" ] || [ "$q" == "$after" ] ||
      { check "$name: queue after a kill at failpoint $n" "$before or $after" "$q"; return; }
    [ $rc -ne 137 ] && break
    steps=$n
    "$qjt" repair $(chan) "$@" --apply --backup-to "$work/bak" >/dev/null 2>&1
    rc=$?
    [ $rc -le 1 ] || { check "$name: second run after failpoint $n" "0 or 1" "$rc"; return; }
    check "$name: failpoint $n, then a second run" "$after" "$(queue)"
  done
  [ $steps -ge 3 ] || check "$name: failpoints reached" "at least 3" "$steps"
}
failpoints "restore" '["alpha","bravo","delta"]' '["alpha","bravo","delta"]' damaged --restore-backup
failpoints "rebuild" '["alpha","bravo","delta","foxtrot"]' '["alpha","bravo","delta","foxtrot"]' channel \
  --rebuild-checkpoint --write-order-id 5000
check "rebuild after failpoints: the files of an uninterrupted run" same \
  "$(diff -r -x in_use.lock "$rebuilt" "$work/c" >/dev/null && echo same)"
# foxtrot's put (log-2 @ 181, write order id after the checkpoint) dropped.
failpoints "drop" '["alpha","bravo","delta","foxtrot"]' '["alpha","bravo","delta"]' channel --drop-event 2:181

[ $failures -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "all repair checks passed"
