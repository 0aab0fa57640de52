#!/usr/bin/env bash
# What a repair plan tells before --apply (issue 23): the records and queued
# items it loses, what it keeps, where the backup goes, and the gentler
# --salvage when it keeps more; the verify hint names the repair that keeps
# the most, and runs as printed. Expectations derived by hand:
#  - every-opcode holds 13 records (dump) and replays to 3 items after a
#    restart (2 queued, 1 open transaction). s = every-opcode, 22 bytes of
#    garbage, every-opcode: 27 records as salvage counts them (13 + the
#    damaged region + 13). The cut keeps the first 13; salvage keeps 26.
#    Both keep every record today's replay reads, so neither loses an item.
#  - A Flume channel with log-1's first length damaged in mid-log (as in
#    tests/flume/repair_cli.sh): the rebuild makes no record a NOOP and
#    loses bravo, one of the 3 events Flume recovers now.
#
#   plans.sh QJT TESTDATA_DIR WORK
set -uo pipefail
QJT=$1 DATA=$2 WORK=$3
source "$(dirname "$0")/../check.sh"
rm -rf "$WORK"; mkdir -p "$WORK/data"
valid="$DATA/kestrel/files/every-opcode"

# ---- classic Kestrel: the cut, and the gentler salvage --------------------------
{ cat "$valid"; printf '\002\377\377\377\177garbage-garbage\001\011'; cat "$valid"; } > "$WORK/data/s"
cp "$WORK/data/s" "$WORK/s.orig"
out=$("$QJT" repair --json "$WORK/data/s"); status=$?
check "cut: plan exit status" 1 "$status"
check "cut: records kept and lost, and salvage's" \
  '{"records_kept":13,"records_lost":14,"gentler":{"records_kept":26,"records_lost":1,"bytes_dropped":22}}' \
  "$(jq -c '.files[0] | {records_kept, records_lost, gentler}' <<<"$out")"
check "cut: where the backup goes" "\"$WORK/data.qjt-backup/s.<ms>\"" "$(jq -c '.files[0].backup_to' <<<"$out")"
check "cut: the queue loses no item" '[{"queue":"s","items_now":3,"items_after":3,"items_lost":0,"items_taken":0,"items_revived":0}]' \
  "$(jq -c .queues <<<"$out")"
check "cut: totals" '14 0' "$(jq -r '"\(.records_lost) \(.items_lost)"' <<<"$out")"
check "cut: the gentler command" \
  "{\"command\":\"qjt repair --salvage $WORK/data/s\",\"records_kept\":26,\"records_lost\":1,\"bytes_dropped\":22,\"items_lost\":0}" \
  "$(jq -c .gentler <<<"$out")"
text=$("$QJT" repair "$WORK/data/s")
check "cut: text says what is lost, kept, the gentler way and the backup" \
"$WORK/data/s: truncate from 396 to 187 bytes
  keeps 13 of 27 record(s); loses 14 record(s) (a damaged region counts as one)
  --salvage would keep 26 of 27 record(s) (drop 22 byte(s))
  backup to $WORK/data.qjt-backup/s.<ms> on --apply
queue s: 3 item(s) recovered now, 3 after the repair; 0 lost, 0 taken by records the damage hides now
gentler: qjt repair --salvage $WORK/data/s keeps more records and loses 0 queued item(s)
plan only: nothing was changed; run with --apply to carry it out" "$(grep -v '^  drop ' <<<"$text")"

# The salvage plan: its own counts; nothing gentler; the items after it are
# those of the salvaged bytes replayed whole.
out=$("$QJT" repair --salvage --json "$WORK/data/s")
cat "$valid" "$valid" > "$WORK/s.salvaged"
after=$("$QJT" replay --json "$WORK/s.salvaged" | jq '.after_restart | length')
check "salvage: records and no gentler" '26 1 null null' \
  "$(jq -r '"\(.files[0].records_kept) \(.files[0].records_lost) \(.files[0].gentler) \(.gentler)"' <<<"$out")"
check "salvage: items after are the salvaged journal's" "3 $after 0" \
  "$(jq -r '.queues[0] | "\(.items_now) \(.items_after) \(.items_lost)"' <<<"$out")"
check "plans changed nothing" same "$(cmp -s "$WORK/data/s" "$WORK/s.orig" && echo same)"

# --no-backup: no backup to name.
check "--no-backup: no backup_to" null "$("$QJT" repair --json --no-backup "$WORK/data/s" | jq -c '.files[0].backup_to')"

# ---- classic Kestrel: the hint is the repair that keeps the most --------------
hint_of() { "$QJT" verify --json "$1" | jq -r '[.findings[] | select(.code == "broken_record") | .hint][0]'; }
check "hint: salvage keeps more, so the hint salvages" "qjt repair --salvage --apply $WORK/data/s" \
  "$(hint_of "$WORK/data/s")"
cp "$DATA/kestrel/files/broken-truncated-data" "$WORK/data/t"
check "hint: a torn tail is cut" "qjt repair --apply $WORK/data/t" "$(hint_of "$WORK/data/t")"
{ printf '\002\377\377\377\177garbage-garbage\001\011'; cat "$valid"; } > "$WORK/data/g"
check "hint: damage at offset 0 with records after: salvage, which keeps them" \
  "qjt repair --salvage --apply $WORK/data/g" "$(hint_of "$WORK/data/g")"
printf '\012garbage, nothing decodes' > "$WORK/data/n"
check "hint: none when every repair would empty the file" "null" "$(hint_of "$WORK/data/n")"
# Each hint, run as printed (qjt being $QJT; the paths have no shell
# metacharacters), is accepted and leaves a file that verifies.
for f in s t g; do
  hint=$(hint_of "$WORK/data/$f")
  read -ra words <<<"$hint"; words[0]=$QJT
  "${words[@]}" >/dev/null 2>&1; status=$?
  check "hint for $f: accepted" 0 "$status"
  "$QJT" verify --quiet "$WORK/data/$f" >/dev/null; check "hint for $f: the result verifies" 0 $?
done
check "hint for s: salvage kept both halves" same "$(cmp -s "$WORK/data/s" "$WORK/s.salvaged" && echo same)"

# The scenario of the issue: a journal of 2,000 records with one record
# flipped in mid-file. The cut loses most of it; salvage keeps all but the
# damaged record, and the counts add up to the records gen wrote.
"$QJT" gen kestrel -o "$WORK/data/big" --records 2000 --corrupt flip --seed 3 >/dev/null 2>&1
out=$("$QJT" repair --json "$WORK/data/big")
check "2000 records: the cut and salvage count all of them" '2000 2000' \
  "$(jq -r '.files[0] | "\(.records_kept + .records_lost) \(.gentler.records_kept + .gentler.records_lost)"' <<<"$out")"
check "2000 records: salvage keeps all but the damaged record" 1999 "$(jq '.gentler.records_kept' <<<"$out")"
check "2000 records: the cut keeps fewer" true "$(jq '.files[0].records_kept < .gentler.records_kept' <<<"$out")"

# ---- Flume: the records made NOOPs and the events lost --------------------------
flip() {  # flip FILE OFFSET: the byte XOR 0xff
  local byte; byte=$(od -An -tu1 -j"$2" -N1 "$1" | tr -d ' ')
  printf "\\$(printf %03o $((byte ^ 255)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
cp -r "$DATA/flume/channel" "$WORK/c"
flip "$WORK/c/data1/log-1" 2
chan=(--checkpoint-dir "$WORK/c/checkpoint" --data-dir "$WORK/c/data1,$WORK/c/data2")
out=$("$QJT" repair "${chan[@]}" --rebuild-checkpoint --json 2>/dev/null)
check "flume: records and events lost, no gentler way, the backup's place" \
  "{\"records_lost\":0,\"items_lost\":1,\"gentler\":null,\"backup_to\":\"$WORK/c/checkpoint.qjt-backup/channel.<ms>\"}" \
  "$(jq -c '{records_lost, items_lost, gentler, backup_to}' <<<"$out")"
text=$("$QJT" repair "${chan[@]}" --rebuild-checkpoint 2>/dev/null)
check "flume: the text says what is lost, kept and where the backup goes" \
"loses: 0 record(s) made NOOPs, 1 queued event(s)
keeps: 2 of the 3 queued event(s) Flume recovers now; 1 already lost to the damage
backup: to $WORK/c/checkpoint.qjt-backup/channel.<ms> on --apply" \
  "$(grep -e '^loses: ' -e '^keeps: ' -e '^backup: ' <<<"$text")"

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "repair plan checks passed"
