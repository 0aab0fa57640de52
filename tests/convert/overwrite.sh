#!/usr/bin/env bash
# Every command that writes a PATH the user names (convert -o to each
# target, compact -o, gen -o): an existing file is refused without --force
# (exit 2, no byte changed); -o - and a new path work as before; with
# --force a file a family claims is backed up first (and the note says how
# to restore it), a file no family claims is just replaced, and a file in
# use is never replaced (exit 4).
#
#   overwrite.sh QJT TESTDATA_DIR WORK
set -uo pipefail
QJT=$1 TD=$2 WORK=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$WORK"; mkdir -p "$WORK/d" "$WORK/in"
D=$WORK/d
"$QJT" gen kestrel -o "$WORK/in/j" --records 100 >/dev/null || fail "gen"
"$QJT" convert --to jsonl "$WORK/in/j" >"$WORK/in/j.jsonl" || fail "jsonl"
"$QJT" convert --to jsonl "$TD/flume/channel/data1/log-1" >"$WORK/in/flume.jsonl" || fail "flume jsonl"

# refused NAME EXISTING -- COMMAND...: EXISTING (a file the command would
# write) is left byte for byte, exit 2, stderr says it exists.
refused() {
  local name=$1 existing=$2; shift 3
  local before; before=$(sha1sum "$existing")
  "$@" >/dev/null 2>"$WORK/err" </dev/null
  local rc=$?
  [ $rc -eq 2 ] || fail "$name: exit $rc, expected 2: $(cat "$WORK/err")"
  grep -q "exists" "$WORK/err" && grep -qF -- "--force" "$WORK/err" || fail "$name: stderr: $(cat "$WORK/err")"
  [ "$(sha1sum "$existing")" = "$before" ] || fail "$name: $existing changed"
  find "$D" -name '*~~*' | grep -q . && fail "$name: temp file left"
  return 0
}

# The issue's case: an empty stdin converted over a journal.
cp "$WORK/in/j" "$D/j"
refused kestrel-empty "$D/j" -- "$QJT" convert --to kestrel -o "$D/j" -
refused kestrel "$D/j" -- "$QJT" convert --to kestrel -o "$D/j" "$WORK/in/j.jsonl"
refused jsonl "$D/j" -- "$QJT" convert --to jsonl -o "$D/j" "$TD/kestrel/files/every-opcode"
refused kestrel2 "$D/j" -- "$QJT" convert --to kestrel2 -o "$D/j" "$TD/kestrel/files/every-opcode"
refused classic "$D/j" -- "$QJT" convert --to classic -o "$D/j" --reader web "$TD/libkestrel/queue"
refused compact "$D/j" -- "$QJT" compact -o "$D/j" "$TD/kestrel/files/every-opcode"
refused gen "$D/j" -- "$QJT" gen kestrel -o "$D/j" --records 5
refused flume-log "$D/j" -- "$QJT" convert --to flume-log -o "$D/j" "$WORK/in/flume.jsonl"
echo x >"$D/log-7.meta"
refused flume-log-meta "$D/log-7.meta" -- "$QJT" convert --to flume-log -o "$D/log-7" "$WORK/in/flume.jsonl"
[ -e "$D/log-7" ] && fail "flume-log-meta: log-7 written"
# --to libkestrel writes into a directory: a file of the new queue's names is refused.
mkdir "$D/lk" && echo x >"$D/lk/every-opcode.read."
refused libkestrel-bookmark "$D/lk/every-opcode.read." -- \
  "$QJT" convert --to libkestrel -o "$D/lk" "$TD/kestrel/files/every-opcode"
[ "$(ls "$D/lk")" = "every-opcode.read." ] || fail "libkestrel: files written: $(ls "$D/lk")"

# -o - and a new path work as before.
"$QJT" convert --to kestrel -o - "$WORK/in/j.jsonl" >"$WORK/stdout.j" || fail "-o - exited $?"
cmp -s "$WORK/stdout.j" "$WORK/in/j" || fail "-o - wrote other bytes"
"$QJT" convert --to kestrel -o "$D/new" "$WORK/in/j.jsonl" || fail "new path exited $?"
cmp -s "$D/new" "$WORK/in/j" || fail "new path wrote other bytes"

# --force over a journal: backed up first, the note names the backup and the restore.
"$QJT" convert --to kestrel --force --backup-to "$WORK/bak" -o "$D/j" - </dev/null 2>"$WORK/err" ||
  fail "--force exited $?: $(cat "$WORK/err")"
[ -s "$D/j" ] && fail "--force: the new (empty) journal was not installed"
copy=$(find "$WORK/bak" -type f -name j)
[ -n "$copy" ] && cmp -s "$copy" "$WORK/in/j" || fail "--force: no identical backup of the journal in $WORK/bak"
grep -qF "cp -a $copy $D/j" "$WORK/err" || fail "--force: stderr does not say how to restore: $(cat "$WORK/err")"
cp -a "$copy" "$D/j" && cmp -s "$D/j" "$WORK/in/j" || fail "the restore command does not restore"

# --force over a file no family claims: replaced, no backup.
echo "notes" >"$D/notes.txt"
"$QJT" convert --to jsonl --force --backup-to "$WORK/bak2" -o "$D/notes.txt" "$WORK/in/j" 2>"$WORK/err" ||
  fail "--force over notes.txt exited $?: $(cat "$WORK/err")"
cmp -s "$D/notes.txt" "$WORK/in/j.jsonl" || fail "notes.txt not replaced by the JSON Lines"
[ -e "$WORK/bak2" ] && fail "a backup was made of a file no family claims"

# --force never replaces a file in use: exit 4, unchanged.
cp "$WORK/in/j" "$D/busy"
exec 3<"$D/busy"
sleep 30 <&3 &
holder=$!
exec 3<&-
# Until the child has exec'd sleep it is a copy of this shell: wait, so
# that the holder qjt names is sleep.
for _ in $(seq 200); do [ "$(cat "/proc/$holder/comm" 2>/dev/null)" = sleep ] && break; sleep 0.01; done
"$QJT" convert --to kestrel --force --backup-to "$WORK/bak3" -o "$D/busy" - </dev/null 2>"$WORK/err"
rc=$?
kill "$holder"; wait "$holder" 2>/dev/null
[ $rc -eq 4 ] || fail "in use: exit $rc, expected 4: $(cat "$WORK/err")"
grep -q "sleep" "$WORK/err" || fail "in use: the holder is not named: $(cat "$WORK/err")"
cmp -s "$D/busy" "$WORK/in/j" || fail "in use: the journal changed"

# A directory is never an OUTPUT file, --force or not.
"$QJT" convert --to kestrel --force -o "$D/lk" - </dev/null 2>/dev/null
[ $? -eq 2 ] || fail "a directory as OUTPUT was not refused"
# Killed at each failpoint of --force's path (QJT_FAILPOINT=N kills at the
# N-th): the journal is the old one byte for byte or the whole new one, and
# a backup made is an identical copy. (SIGKILL leaves the run's own
# k~~qjt-PID temp file, which nothing reads; interrupts remove it, see
# tests/signals/interrupt.sh.)
"$QJT" convert --to kestrel2 -o "$WORK/in/new" "$TD/kestrel/files/every-opcode" || fail "kestrel2"
steps=0
for n in $(seq 1 50); do
  rm -rf "$WORK/kbak" && cp "$WORK/in/j" "$D/k"
  QJT_FAILPOINT=$n "$QJT" convert --to kestrel2 --force --backup-to "$WORK/kbak" -o "$D/k" \
    "$TD/kestrel/files/every-opcode" >/dev/null 2>&1
  rc=$?
  cmp -s "$D/k" "$WORK/in/j" || cmp -s "$D/k" "$WORK/in/new" || fail "kill at failpoint $n: the output is neither"
  find "$D" "$WORK/kbak" -name '*~~*' ! -name 'k~~qjt-*' 2>/dev/null | grep -q . && fail "kill at failpoint $n: a stray file"
  rm -f "$D"/k~~qjt-*
  for copy in $(find "$WORK/kbak" -type f 2>/dev/null); do
    cmp -s "$copy" "$WORK/in/j" || fail "kill at failpoint $n: the backup $copy differs"
  done
  [ $rc -eq 0 ] && break
  [ $rc -eq 137 ] || fail "kill at failpoint $n: exit $rc, expected 137"
  steps=$n
done
[ $steps -ge 2 ] || fail "only $steps failpoints on --force's path"
cmp -s "$D/k" "$WORK/in/new" || fail "the complete run did not install the new journal"

# A write that cannot verify itself does not start: the V2 upgrade without
# the data dir of a log the queue points into is refused (exit 2), saying
# what to add, and changes nothing.
"$QJT" gen flume --checkpoint-version 2 --data-dirs 3 --records 200 -o "$WORK/ch" >/dev/null || fail "gen flume"
before=$(cd "$WORK/ch" && find . -type f | sort | xargs sha1sum)
"$QJT" convert --to flume-v3 --apply --checkpoint-dir "$WORK/ch/checkpoint" --data-dir "$WORK/ch/data1" 2>"$WORK/err"
rc=$?
[ $rc -eq 2 ] || fail "upgrade without data2: exit $rc, expected 2: $(cat "$WORK/err")"
grep -q "log-2.*add --data-dir $WORK/ch/data2" "$WORK/err" || fail "upgrade: stderr does not say what to add: $(cat "$WORK/err")"
[ "$(cd "$WORK/ch" && find . -type f | sort | xargs sha1sum)" = "$before" ] || fail "the refused upgrade changed files"
"$QJT" convert --to flume-v3 --apply --checkpoint-dir "$WORK/ch/checkpoint" \
  --data-dir "$WORK/ch/data1,$WORK/ch/data2,$WORK/ch/data3" >/dev/null 2>"$WORK/err" ||
  fail "upgrade with every data dir exited $?: $(cat "$WORK/err")"

echo "every existing output was refused, backed up or replaced as it should be"
