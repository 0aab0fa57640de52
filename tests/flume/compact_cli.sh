#!/bin/bash
# qjt compact on Flume channels (issue 28): the order Flume restores open
# takes in; the plan; out-of-place compaction of channels built to need it
# (a log pinned by a long-open take, events spread thin over many logs, two
# data dirs, an encrypted channel, a V2 checkpoint, and the real V2 files
# when ../shared has them), each compared with the input by qjt's replay;
# refusals.
#
#   compact_cli.sh QJT TESTDATA_DIR SHARED_FLUME_V2_DIR
set -uo pipefail
qjt=$1
td=$2
fixtures=$3
source "$(dirname "$0")/../check.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

chan() {  # chan DIR: the options naming the channel gen wrote in DIR
  local data
  data=$(cd "$1" && ls -d data* | sed "s|^|$1/|" | paste -sd,)
  echo --checkpoint-dir "$1/checkpoint" --data-dir "$data"
}
# The queue a channel recovers, event by event (headers and body).
queue() { "$qjt" replay "$@" --json 2>/dev/null | jq -c '.queue[] | [.headers, .data]'; }

# ---- the order of restored takes -------------------------------------------------
# Flume 1.11 (Guava 11.0.2's HashMultimap) starts this channel's queue so.
"$qjt" gen flume --records 5000 --seed 15 --open 8 --batch 5 --checkpoint-version 2 -o order >/dev/null
check "open takes restored in Flume's order" "#2417 #2416 #2418 #2411 #2410 #2415 #2414 #2413 #2412" \
  "$("$qjt" replay $(chan order) --json | jq -r '[.queue[:9][].data | split(" ")[0]] | join(" ")')"

# compacted CASE OPTIONS...: compact the channel CASE to CASE.new, then
# check that the new channel recovers the same queue and verifies clean.
compacted() {
  local name=$1
  shift
  local out
  out=$("$qjt" compact "$@" --to-checkpoint-dir "$name.new/checkpoint" --to-data-dir "$name.new/d1,$name.new/d2" \
    --json)
  check "$name: compacted and verified" "written true" "$(jq -r '"\(.action) \(.verify.ok)"' <<<"$out")"
  local new_opts=(--checkpoint-dir "$name.new/checkpoint" --data-dir "$name.new/d1,$name.new/d2") a prev=""
  for a in "$@"; do [ "$prev" = --key ] && new_opts+=(--key "$a"); prev=$a; done
  check "$name: the same queue" "$(queue "$@")" "$(queue "${new_opts[@]}")"
  "$qjt" verify -q "${new_opts[@]}" >/dev/null 2>&1
  check "$name: the new channel verifies" 0 $?
  check "$name: frees what it said" "$(jq '.before.bytes - .after.bytes' <<<"$out")" "$(jq .freed <<<"$out")"
}

# A log pinned by a long-open take: every log after it stays.
"$qjt" gen flume --records 4000 --seed 3 --open 2 --take-share 0.95 --max-log-size 64K -o pinned >/dev/null
plan=$("$qjt" compact $(chan pinned) --json)
check "pinned: the plan is a plan" "plan dry_run false" "$(jq -r '"\(.type) \(.action) \(.nothing_to_do)"' <<<"$plan")"
check "pinned: the oldest log in use is pinned by an open take" true \
  "$(jq '[.logs[] | select(.queued_items > 0 or .pinned_by_inflight > 0)][0].pinned_by_inflight > 0' <<<"$plan")"
check "pinned: the plan frees most of the logs" true "$(jq '.freed > .before.bytes / 2' <<<"$plan")"
check "pinned: stats reports the same figures per log" \
  "$(jq -c '[.logs[] | [.bytes, .queued_items, .pinned_by_queue, .pinned_by_inflight]]' <<<"$plan")" \
  "$("$qjt" stats $(chan pinned) --json |
     jq -c '[.entities[0].tables.data_log[] | [.journal_bytes, .queued_items, .pinned_by_queue, .pinned_by_inflight]]')"
sums() { (cd "$1" && find . -type f | sort | xargs sha1sum); }
pinned_files=$(sums pinned)
compacted pinned $(chan pinned)
check "pinned: the input is untouched" "$pinned_files" "$(sums pinned)"
check "pinned: new ids above the input's" true \
  "$("$qjt" replay --checkpoint-dir pinned.new/checkpoint --data-dir pinned.new/d1,pinned.new/d2 --json |
     jq --argjson old "$("$qjt" replay $(chan pinned) --json | jq .max_write_order_id)" \
       '.checkpoint_write_order_id > $old')"

# Events spread thin over many logs, and two data dirs.
"$qjt" gen flume --records 6000 --seed 4 --take-share 0.9 --data-dirs 2 --max-log-size 16K -o thin >/dev/null
compacted thin $(chan thin)

# An encrypted channel: the key is required, and kept.
cp -a "$td/encrypted" enc
"$qjt" compact --checkpoint-dir enc/checkpoint --data-dir enc/data1,enc/data2 \
  --to-checkpoint-dir nokey/checkpoint --to-data-dir nokey/d1 >/dev/null 2>&1
check "encrypted: without the key, refused" 1 $?
compacted enc --checkpoint-dir enc/checkpoint --data-dir enc/data1,enc/data2 --key k1=000102030405060708090a0b0c0d0e0f
check "encrypted: the new logs are encrypted" true \
  "$("$qjt" dump enc.new/d1/log-*.meta --json | jq -s 'all(.[]; .encryption.key_alias == "k1")')"

# A V2 checkpoint: the new one is V3.
"$qjt" gen flume --records 3000 --seed 5 --open 4 --checkpoint-version 2 --max-log-size 32K -o v2 >/dev/null
compacted v2 $(chan v2)
check "v2: the new checkpoint is V3" 3 \
  "$("$qjt" replay --checkpoint-dir v2.new/checkpoint --data-dir v2.new/d1,v2.new/d2 --json | jq .checkpoint_version)"

# The real V2 files Flume 1.2/1.3 wrote.
if [ -d "$fixtures" ]; then
  mkdir -p real/checkpoint real/data1 real/data2 real/data3
  gunzip -c "$fixtures/fileformat-v2-checkpoint.gz" >real/checkpoint/checkpoint
  for i in 1 2 3; do gunzip -c "$fixtures/fileformat-v2-log-$i.gz" >"real/data$i/log-$i"; done
  compacted real --checkpoint-dir real/checkpoint --data-dir real/data1,real/data2,real/data3
else
  echo "skipped: no ../shared fixtures"
fi

# ---- refusals and no-ops -----------------------------------------------------
# A compacted channel compacted again frees nothing.
small=(--checkpoint-dir pinned.new/checkpoint --data-dir pinned.new/d1,pinned.new/d2)
out=$("$qjt" compact "${small[@]}" --to-checkpoint-dir again/checkpoint --to-data-dir again/d1,again/d2); status=$?
check "frees nothing: nothing to do, exit 0" "0 1" "$status $(grep -c '^nothing to do: ' <<<"$out")"
check "frees nothing: nothing written" no "$([ -e again ] && echo yes || echo no)"

out=$("$qjt" compact $(chan pinned) --if-reclaimable 1G --to-checkpoint-dir gated/checkpoint --to-data-dir gated/d1)
check "--if-reclaimable: a quiet no-op" "0 ''" "$? '$out'"
check "--if-reclaimable: nothing written" no "$([ -e gated ] && echo yes || echo no)"
check "--if-reclaimable: JSON says why" true \
  "$("$qjt" compact $(chan pinned) --if-reclaimable 1G --json | jq '.nothing_to_do and (.reason | startswith("nothing to do: "))')"

"$qjt" compact $(chan pinned) --to-checkpoint-dir pinned.new/checkpoint --to-data-dir pinned.new/d1,pinned.new/d2 \
  >/dev/null 2>err
check "an existing channel at the target: refused without --force" "3 1" "$? $(grep -c -- '--force' err)"
"$qjt" compact $(chan pinned) --to-checkpoint-dir pinned.new/checkpoint --to-data-dir pinned.new/d1,pinned.new/d2 \
  --force >/dev/null 2>&1
check "an existing channel at the target: --force replaces it" 0 $?

QJT_FAILPOINT_ERROR=verify "$qjt" compact $(chan pinned) --to-checkpoint-dir bad/checkpoint --to-data-dir bad/d1 \
  >/dev/null 2>err
check "a read-back that fails: exit 1, and says so" "1 1" "$? $(grep -c 'did not read back' err)"
check "a read-back that fails: the new files are removed" "" "$(find bad -type f 2>/dev/null)"

"$qjt" compact $(chan pinned) --to-checkpoint-dir x/checkpoint --to-data-dir pinned/data1 >/dev/null 2>&1
check "a target inside the channel: usage error" 2 $?
"$qjt" compact $(chan pinned) --to-checkpoint-dir x/checkpoint >/dev/null 2>&1
check "--to-checkpoint-dir without --to-data-dir: usage error" 2 $?

flock pinned/checkpoint/in_use.lock sleep 60 & holder=$!
sleep 0.3
"$qjt" compact $(chan pinned) --to-checkpoint-dir held/checkpoint --to-data-dir held/d1 >/dev/null 2>err
check "in use: refused with exit 4, naming the holder" "4 1" "$? $(grep -c "pid $holder" err)"
check "in use: nothing written" no "$([ -e held ] && echo yes || echo no)"
kill $holder
wait $holder 2>/dev/null
check "the input channel is untouched" "$pinned_files" "$(sums pinned | grep -v in_use.lock)"

# ---- in place -------------------------------------------------------------------
"$qjt" gen flume --records 4000 --seed 3 --open 2 --take-share 0.95 --max-log-size 64K --data-dirs 2 -o inplace \
  >/dev/null
cp -a inplace inplace.orig
expected=$(queue $(chan inplace))
size() { du -sb "$1" | cut -f1; }
before_bytes=$(size inplace)
out=$("$qjt" compact $(chan inplace) --apply --backup-to bak --json)
check "in place: compacted and verified" "compacted true" "$(jq -r '"\(.action) \(.verify.ok)"' <<<"$out")"
check "in place: the same queue" "$expected" "$(queue $(chan inplace))"
check "in place: fewer bytes" true "$([ "$(size inplace)" -lt "$before_bytes" ] && echo true)"
check "in place: no staging left" "" "$(find . -name '.qjt-compact' -o -name '*.qjt-compact')"
check "in place: every old log and meta in the backup" "$(cd inplace.orig && find . -name 'log-*' | wc -l)" \
  "$(find "$(jq -r .backup_dir <<<"$out")" -name 'log-*' | wc -l)"
"$qjt" verify -q $(chan inplace) >/dev/null 2>&1
check "in place: the channel verifies" 0 $?
out=$("$qjt" compact $(chan inplace) --apply --backup-to bak)
check "in place: compacted again, nothing to do" 1 "$(grep -c '^nothing to do: ' <<<"$out")"

# Killed at each step (SIGKILL at failpoint N): every state recovers the
# same queue, and a re-run completes the compaction.
for ((n = 1; ; n++)); do
  rm -rf k && cp -a inplace.orig k
  { QJT_FAILPOINT=$n "$qjt" compact $(chan k) --apply --backup-to "kbak$n" >/dev/null 2>&1; } 2>/dev/null
  [ $? -eq 137 ] || break
  check "killed at step $n: the same queue" "$expected" "$(queue $(chan k))"
  "$qjt" compact $(chan k) --apply --backup-to "kbak$n.again" >/dev/null 2>err
  rerun=$?
  check "killed at step $n: a re-run completes" "0 $expected" "$rerun $(queue $(chan k))"
  "$qjt" verify -q $(chan k) >/dev/null 2>&1
  check "killed at step $n: the channel verifies, no staging left" "0 " "$? $(find k -name '.qjt-compact*')"
done
check "in place: killed at every one of its steps" true "$([ "$n" -gt 8 ] && echo true)"

# An encrypted channel in place, with its key.
cp -a "$td/encrypted" encin
enc=(--checkpoint-dir encin/checkpoint --data-dir encin/data1,encin/data2 --key k1=000102030405060708090a0b0c0d0e0f)
expected=$(queue "${enc[@]}")
"$qjt" compact "${enc[@]}" --apply --no-backup >/dev/null
check "in place, encrypted: the same queue" "$expected" "$(queue "${enc[@]}")"

# Refused while the agent holds the channel.
cp -a inplace.orig held2
flock held2/checkpoint/in_use.lock sleep 60 & holder=$!
sleep 0.3
"$qjt" compact $(chan held2) --apply --backup-to hbak >/dev/null 2>err
check "in place, in use: refused with exit 4" 4 $?
kill $holder
wait $holder 2>/dev/null
check "in place, in use: nothing changed" same "$(diff -r -x in_use.lock inplace.orig held2 >/dev/null && echo same)"
"$qjt" compact $(chan held2) --apply --to-checkpoint-dir x/checkpoint --to-data-dir x/d1 >/dev/null 2>&1
check "--apply with --to-checkpoint-dir: usage error" 2 $?

[ "$failures" -eq 0 ] || exit 1
