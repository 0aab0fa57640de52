#!/usr/bin/env bash
# qjt compact on a Kestrel 3 (libkestrel) queue: killed at every step in
# turn (QJT_FAILPOINT=N kills at the N-th failpoint), the directory must
# still give every reader the same items, a second run must complete, and
# the backups must hold every original file that changed. Then the guard
# rails: dry run, refusal while a file is open, refusal of a damaged queue.
#
# The queue is testdata/libkestrel/queue with web's bookmark made
# non-canonical (head 3, done {9, 5, 1}: 1 is at or below the head and 9
# beyond the tail 6, so libkestrel loads head 3, done {5}) and a stray
# bookmark temp file. Readers: web at 3, audit at 4, so minHead =
# min(6, 4, 5) = 4; segments starting at or below 4 are the first two
# (ids 1 and 3); all but the last of them go: jobs.1700000000000.
#
#   compact_failpoints.sh QJT TESTDATA_LIBKESTREL_DIR WORK
set -uo pipefail
QJT=$1 TD=$2 WORK=$3
fail() { echo "FAIL: $*"; exit 1; }
state() {
  "$QJT" replay --json "$1" 2>/dev/null |
    jq -c '[.readers[] | {name, head, done, pending: [.pending[] | del(.file, .offset)]}]'
}
rm -rf "$WORK"; mkdir -p "$WORK"
source_dir="$WORK/source"
cp -a "$TD/queue" "$source_dir"
# magic, READ_HEAD 3, READ_DONE of 24 bytes: 9, 5, 1 (spec §5.3)
printf '\x26\x3c\x26\x03\x02\x03\0\0\0\0\0\0\0\x91\x18\0\0\0\x09\0\0\0\0\0\0\0\x05\0\0\0\0\0\0\0\x01\0\0\0\0\0\0\0' \
  > "$source_dir/jobs.read.web"
cp "$TD/queue/jobs.read.audit" "$source_dir/jobs.read.web~~123"
expected=$(state "$source_dir")
[ "$expected" = '[{"name":"audit","head":4,"done":[],"pending":[{"op":"PUT","id":5,"error_count":0,"time_ms":1700000005000,"expiry_ms":null,"size":4,"data":"echo"},{"op":"PUT","id":6,"error_count":0,"time_ms":1700000006000,"expiry_ms":null,"size":7,"data":"foxtrot"}]},{"name":"web","head":3,"done":[5],"pending":[{"op":"PUT","id":4,"error_count":2,"time_ms":1700000004000,"expiry_ms":null,"size":5,"data":"delta"},{"op":"PUT","id":6,"error_count":0,"time_ms":1700000006000,"expiry_ms":null,"size":7,"data":"foxtrot"}]}]' ] ||
  fail "unexpected starting state: $expected"

out=$("$QJT" compact --dry-run --json --rewrite-bookmarks "$source_dir") || fail "dry run failed"
[ "$(jq -c '[.action, (.deleted_segments | map(split("/")[-1])), (.rewritten_bookmarks | map(split("/")[-1])), (.deleted_temp_files | map(split("/")[-1]))]' <<<"$out")" = \
  '["dry_run",["jobs.1700000000000"],["jobs.read.web"],["jobs.read.web~~123"]]' ] || fail "dry run plan: $out"
# web (head 3) still needs jobs.1700000001000 (ids 3 and 4: its head must
# reach 4, the id before the next segment's first): it blocks deletion.
[ "$(jq -c '.blocked_by | [(.segment | split("/")[-1]), .reader, .head]' <<<"$out")" = \
  '["jobs.1700000001000","web",3]' ] || fail "dry run does not name the blocking reader: $out"
out=$("$QJT" compact --dry-run "$source_dir") || fail "text dry run failed"
grep -qx "  keep $source_dir/jobs.1700000001000: reader \"web\" (head 3) still needs it" <<<"$out" ||
  fail "text dry run does not name the blocking reader: $out"
[ "$(head -1 <<<"$out")" = "jobs: would delete 1 segment(s), rewrite 0 bookmark(s), delete 1 temp file(s)" ] ||
  fail "text dry run is not in the conditional: $out"

steps=0
for n in $(seq 1 100); do
  rm -rf "$WORK/q" "$WORK/backup" "$WORK/backup2"
  cp -a "$source_dir" "$WORK/q"
  QJT_FAILPOINT=$n "$QJT" compact --apply --rewrite-bookmarks --backup-to "$WORK/backup" "$WORK/q" >/dev/null 2>&1
  rc=$?
  [ "$(state "$WORK/q")" = "$expected" ] || fail "state changed after a kill at failpoint $n"
  [ $rc -eq 0 ] && break
  [ $rc -eq 137 ] || fail "compact exited $rc (expected a kill, 137) at failpoint $n"
  steps=$n
  "$QJT" compact --apply --rewrite-bookmarks --backup-to "$WORK/backup2" "$WORK/q" >/dev/null 2>&1 ||
    fail "a second run after a kill at failpoint $n did not complete"
  [ "$(state "$WORK/q")" = "$expected" ] || fail "second run after failpoint $n changed the queues"
  "$QJT" verify --strict --quiet "$WORK/q" >/dev/null || fail "result after failpoint $n does not verify clean"
done
[ $steps -ge 5 ] || fail "only $steps failpoints were reached"
[ "$(ls "$WORK/q" | tr '\n' ' ')" = "jobs.1700000001000 jobs.1700000002000 jobs.read.audit jobs.read.web " ] ||
  fail "unexpected files after compaction: $(ls "$WORK/q")"
# The canonical bookmark is the fixture's own web bookmark: head 3, done {5}.
cmp -s "$WORK/q/jobs.read.web" "$TD/queue/jobs.read.web" || fail "web's bookmark is not in canonical form"
for name in jobs.1700000000000 jobs.read.web 'jobs.read.web~~123'; do
  found=$(find "$WORK/backup" -type f -name "$name" | head -1)
  [ -n "$found" ] && cmp -s "$source_dir/$name" "$found" || fail "backup lacks an identical copy of $name"
done
out=$("$QJT" compact --json "$WORK/q")
jq -e '.action == "skipped" and .verify == null' >/dev/null <<<"$out" || fail "a second compaction is not a no-op: $out"
[ "$(jq -r .reason <<<"$out")" = "nothing to do: reader \"web\" (head 3) still needs $WORK/q/jobs.1700000001000" ] ||
  fail "nothing to do without naming the blocking reader: $out"
jq -e '.nothing_to_do' >/dev/null <<<"$out" || fail "nothing_to_do is not true: $out"
out=$("$QJT" compact "$WORK/q") || fail "compact of a compacted queue exited $?"
[ "$out" = "jobs: nothing to do: reader \"web\" (head 3) still needs $WORK/q/jobs.1700000001000" ] ||
  fail "text: nothing to do, and why: $out"
rm -rf "$WORK/q"; cp -a "$source_dir" "$WORK/q"
out=$("$QJT" compact --apply --json --rewrite-bookmarks --no-backup "$WORK/q") || fail "compact exited $?"
jq -e '.action == "compacted" and .verify.ok' >/dev/null <<<"$out" || fail "not verified after compaction: $out"

# A process holding a segment open: exit 4, nothing changed.
rm -rf "$WORK/q"; cp -a "$source_dir" "$WORK/q"
exec 7<"$WORK/q/jobs.1700000000000"
sleep 30 <&7 &
holder=$!
exec 7<&-
msg=$("$QJT" compact --apply --no-backup "$WORK/q" 2>&1); rc=$?
kill $holder 2>/dev/null; wait $holder 2>/dev/null
[ $rc -eq 4 ] || fail "open file: expected exit 4, got $rc"
grep -q "pid $holder" <<< "$msg" || fail "refusal does not name pid $holder: $msg"
[ -e "$WORK/q/jobs.1700000000000" ] || fail "refused run deleted a segment"
# A damaged queue is refused with exit 1; -o is for classic journals.
"$QJT" compact "$TD/damaged" >/dev/null 2>&1; [ $? -eq 1 ] || fail "damaged queue not refused"
"$QJT" compact -o "$WORK/x" "$WORK/q" >/dev/null 2>&1; [ $? -eq 2 ] || fail "-o with a Kestrel 3 queue is not a usage error"
echo "libkestrel compact survived a kill at each of $steps failpoints"
