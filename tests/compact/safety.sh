#!/usr/bin/env bash
# compact's guard rails: dry run, -o, cron thresholds, refusal while files
# are open or locked, broken input, backup placement, JSON report.
QJT=$1 SOURCE=$2 BROKEN=$3 WORK=$4
source "$(dirname "$0")/lib.sh"
rm -rf "$WORK"; mkdir -p "$WORK"
cp -a "$SOURCE" "$WORK/q"
expected=$(queue_state "$SOURCE")

# --dry-run changes nothing and reports before/after.
"$QJT" compact --dry-run --json "$WORK/q" > "$WORK/dry.json" || fail "dry run exited $?"
diff -r "$SOURCE" "$WORK/q" >/dev/null || fail "dry run changed files"
jq -e 'select(.queue_name == "orders") | .action == "dry_run" and .before.bytes == 313 and .after.bytes == 188 and .after.records == 4' \
  "$WORK/dry.json" >/dev/null || fail "dry run report: $(cat "$WORK/dry.json")"
jq -e 'select(.queue_name == "orders") | .nothing_to_do == false' "$WORK/dry.json" >/dev/null ||
  fail "dry run report: nothing_to_do is not false"
out=$("$QJT" compact --dry-run --queue orders "$WORK/q")
[ "$out" = "orders: would compact: 313 -> 188 bytes, 9 -> 4 records, overflow 1.66x" ] ||
  fail "text dry run is not in the conditional: $out"

# Cron thresholds: quiet no-ops with exit 0.
out=$("$QJT" compact --if-larger-than 1M "$WORK/q") || fail "--if-larger-than exited $?"
[ -z "$out" ] || fail "--if-larger-than no-op was not quiet: $out"
"$QJT" compact --if-overflow 50 "$WORK/q" >/dev/null || fail "--if-overflow exited $?"
"$QJT" compact --if-overflow 50 --json --queue orders "$WORK/q" | jq -e '.action == "skipped"' >/dev/null ||
  fail "--if-overflow --json does not report skipped"
diff -r "$SOURCE" "$WORK/q" >/dev/null || fail "a skipped compaction changed files"

# -o writes elsewhere; the source stays untouched.
"$QJT" compact --queue orders -o "$WORK/orders.out" "$WORK/q" >/dev/null || fail "-o exited $?"
diff -r "$SOURCE" "$WORK/q" >/dev/null || fail "-o changed the source"
[ "$(queue_state "$WORK/orders.out" | jq -c 'del(.queue_name)')" = \
  "$(queue_state "$SOURCE" | jq -c 'select(.queue_name == "orders") | del(.queue_name)')" ] ||
  fail "-o output does not replay to the orders queue"
"$QJT" compact --queue orders -o "$WORK/orders.out" "$WORK/q" 2>/dev/null; [ $? -eq 2 ] || fail "-o over an existing file was not refused with 2"
"$QJT" compact --apply "$SOURCE/orders" 2>/dev/null; [ $? -eq 2 ] || fail "files in place without -o not refused with 2"

# A process holding a journal file open: exit 4 naming the process.
exec 7<"$WORK/q/orders"
sleep 30 <&7 &
holder=$!
exec 7<&-
msg=$("$QJT" compact --apply --queue orders "$WORK/q" 2>&1); rc=$?
kill $holder 2>/dev/null; wait $holder 2>/dev/null
[ $rc -eq 4 ] || fail "open file: expected exit 4, got $rc"
grep -q "pid $holder" <<< "$msg" || fail "refusal does not name pid $holder: $msg"
diff -r "$SOURCE" "$WORK/q" >/dev/null || fail "refused compaction changed files"

# Another qjt (the advisory lock on the directory): exit 4.
flock -o "$WORK/q" sleep 30 &
locker=$!
sleep 0.3
msg=$("$QJT" compact --apply --queue orders "$WORK/q" 2>&1); rc=$?
kill $locker 2>/dev/null; wait $locker 2>/dev/null
[ $rc -eq 4 ] || fail "locked directory: expected exit 4, got $rc ($msg)"
grep -q "pid" <<< "$msg" || fail "lock refusal does not name the holder: $msg"

# A backup directory inside the queue directory is refused.
"$QJT" compact --apply --backup-to "$WORK/q/bak" "$WORK/q" 2>/dev/null; [ $? -eq 2 ] || fail "backup inside queue dir not refused"
diff -r "$SOURCE" "$WORK/q" >/dev/null || fail "refused backup placement changed files"

# A broken journal is refused (exit 1) and left alone.
cp -a "$BROKEN" "$WORK/broken"
"$QJT" compact --apply --backup-to "$WORK/bb" "$WORK/broken" 2>/dev/null; [ $? -eq 1 ] || fail "broken journal not refused with 1"
diff -r "$BROKEN" "$WORK/broken" >/dev/null || fail "refused broken compaction changed files"

# In place: same queues, backups outside, and the JSON report.
"$QJT" compact --apply --json --backup-to "$WORK/backups" "$WORK/q" > "$WORK/done.json" || fail "compact exited $?"
[ "$(queue_state "$WORK/q")" = "$expected" ] || fail "compaction changed the queues"
jq -se 'map([.action, .verify.ok]) == [["compacted", true], ["compacted", true]]' "$WORK/done.json" >/dev/null ||
  fail "report: $(cat "$WORK/done.json")"
[ "$(ls "$WORK/q" | tr '\n' ' ')" = "events orders " ] || fail "left: $(ls "$WORK/q")"
"$QJT" verify --strict --quiet "$WORK/q" || fail "compacted directory does not verify strictly clean"

# Compacted again: nothing to do, said in text and JSON; no gate keeps it quiet.
out=$("$QJT" compact --queue orders "$WORK/q") || fail "compact of a minimal queue exited $?"
[ "$out" = "orders: nothing to do: the journal is already minimal (188 bytes, 4 record(s), none to drop)" ] ||
  fail "an already-minimal queue: $out"
"$QJT" compact --json --queue orders "$WORK/q" | jq -e '.action == "skipped" and .nothing_to_do' >/dev/null ||
  fail "an already-minimal queue: nothing_to_do is not true in JSON"
echo "compact safety checks passed"
