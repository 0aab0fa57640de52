#!/usr/bin/env bash
# qjt repair: the plan changes nothing; --apply truncates the broken file
# (not the live one) with a backup and verifies; --salvage keeps what
# decodes after a damaged region; refusal while a file is open; and a kill
# at every step leaves either the original or the repaired file, whole.
set -uo pipefail
QJT=$1 DATA=$2 WORK=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$WORK"; mkdir -p "$WORK/data"
valid="$DATA/kestrel/files/every-opcode"
broken="$DATA/kestrel/files/broken-truncated-data"

# Plan only: exit 1, nothing changed, nothing created.
cp "$broken" "$WORK/data/j"
out=$("$QJT" repair --json "$WORK/data/j") ; rc=$?
[ $rc -eq 1 ] || fail "plan exited $rc, expected 1"
cmp -s "$broken" "$WORK/data/j" || fail "the plan changed the file"
[ "$(ls "$WORK/data")" = "j" ] && [ "$(ls "$WORK")" = "data" ] || fail "the plan created files"
jq -e '.applied == false and .verify == null and .files[0].action == "truncate"' <<< "$out" >/dev/null ||
  fail "plan JSON: $out"
cut=$(jq '.files[0].dropped[0].offset' <<< "$out")
# The cut is where dump puts the BROKEN record.
[ "$cut" = "$("$QJT" dump --json "$broken" | jq 'select(.op == "BROKEN") | .offset')" ] || fail "cut at $cut"

# Apply: the prefix before the BROKEN record, a backup of the original, exit 0.
"$QJT" repair --apply --backup-to "$WORK/bak" "$WORK/data/j" >/dev/null || fail "apply exited $?"
head -c "$cut" "$broken" | cmp -s - "$WORK/data/j" || fail "repaired file is not the prefix before offset $cut"
cmp -s "$broken" "$(find "$WORK/bak" -type f -name j)" || fail "backup is not the original"
"$QJT" verify --quiet "$WORK/data/j" >/dev/null || fail "repaired file does not verify"
"$QJT" repair "$WORK/data/j" >/dev/null || fail "a second plan on the repaired file is not clean"

# A broken archived segment: repair cuts that segment, not the live file.
cp -a "$DATA/kestrel/dirs/broken-archived" "$WORK/data/dir"
live_before=$(cksum < "$WORK/data/dir/q")
"$QJT" repair --apply --backup-to "$WORK/bak-dir" "$WORK/data/dir" >/dev/null || fail "dir repair exited $?"
[ "$(cksum < "$WORK/data/dir/q")" = "$live_before" ] || fail "repair changed the live file"
"$QJT" verify --quiet "$WORK/data/dir" >/dev/null || fail "repaired directory does not verify"

# Salvage: valid + garbage + valid gives valid + valid exactly.
{ cat "$valid"; printf '\002\377\377\377\177garbage-garbage\001\011'; cat "$valid"; } > "$WORK/data/s"
cat "$valid" "$valid" > "$WORK/s.expected"
out=$("$QJT" repair --salvage --apply --no-backup --json "$WORK/data/s") || fail "salvage exited $?"
cmp -s "$WORK/data/s" "$WORK/s.expected" || fail "salvage did not keep exactly the two valid halves"
size=$(stat -c %s "$valid")
jq -e --argjson at "$size" '.files[0].dropped == [.files[0].dropped[0]] and .files[0].dropped[0].offset == $at
  and .files[0].dropped[0].length == 22 and .verify.ok' <<< "$out" >/dev/null || fail "salvage report: $out"

# Refused while another process has the file open.
cp "$broken" "$WORK/data/held"
exec 7<"$WORK/data/held"; sleep 30 <&7 & holder=$!; exec 7<&-
msg=$("$QJT" repair --apply "$WORK/data/held" 2>&1); rc=$?
kill $holder; wait $holder 2>/dev/null
[ $rc -eq 4 ] || fail "open file: expected exit 4, got $rc"
grep -q "pid $holder" <<< "$msg" || fail "refusal does not name pid $holder: $msg"
cmp -s "$broken" "$WORK/data/held" || fail "refused repair changed the file"

# Failpoints: after a kill at any step the file is the original or the
# repaired one, and a second run completes.
head -c "$cut" "$broken" > "$WORK/fp.expected"
steps=0
for n in $(seq 1 20); do
  rm -rf "$WORK/fp" "$WORK/fp-bak"; mkdir "$WORK/fp"; cp "$broken" "$WORK/fp/j"
  QJT_FAILPOINT=$n "$QJT" repair --apply --backup-to "$WORK/fp-bak" "$WORK/fp/j" >/dev/null 2>&1; rc=$?
  cmp -s "$WORK/fp/j" "$broken" || cmp -s "$WORK/fp/j" "$WORK/fp.expected" ||
    fail "after a kill at failpoint $n the file is neither the original nor the repair"
  [ $rc -eq 0 ] && break
  [ $rc -eq 137 ] || fail "repair exited $rc at failpoint $n"
  steps=$n
  "$QJT" repair --apply --backup-to "$WORK/fp-bak2-$n" "$WORK/fp/j" >/dev/null 2>&1 || fail "second run after failpoint $n"
  cmp -s "$WORK/fp/j" "$WORK/fp.expected" || fail "second run after failpoint $n gave another result"
done
[ $steps -ge 3 ] || fail "only $steps failpoints reached"
echo "repair checks passed ($steps failpoints)"
