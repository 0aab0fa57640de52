#!/usr/bin/env bash
# Writes need positive evidence: every writing command, run on every file
# and directory that another family claims (each family's testdata) or that
# no family claims (text, JSON, binary), refuses with exit 2 and a
# "refused" message on stderr, and no byte under the scratch tree changes
# (no file changed, created or removed, backups included).
set -uo pipefail
QJT=$1 DATA=$2 WORK=$3
source "$(dirname "$0")/../check.sh"
rm -rf "$WORK"; mkdir -p "$WORK"
cp -a "$DATA" "$WORK/td"
mkdir -p "$WORK/misc"
printf 'hello\nworld\n' > "$WORK/misc/text.txt"
printf '{"op":"ADD","data":"x","offset":0}\n' > "$WORK/misc/data.json"
printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\003\000>\000' > "$WORK/misc/binary"
# A libkestrel segment cut inside its magic.
head -c 2 "$WORK/td/libkestrel/queue/jobs.1700000000000" > "$WORK/misc/cut-segment"

tree_state() { (cd "$WORK" && find . -printf '%p %s\n' | sort && find . -type f -print0 | sort -z | xargs -0 cksum) | cksum; }

# The PATHs under the given roots: every regular file, and every directory
# holding a regular file.
paths_under() {
  for root in "$@"; do
    find "$root" -type f
    find "$root" -type d | while read -r d; do
      [ -n "$(find "$d" -maxdepth 1 -type f -print -quit)" ] && echo "$d"
    done
  done | sort
}

cases=0
expect_refusal() {  # NAME COMMAND...
  local name=$1; shift
  local before after err rc
  before=$(tree_state)
  err=$("$@" 2>&1 >/dev/null); rc=$?
  after=$(tree_state)
  cases=$((cases + 1))
  if [ $rc -ne 2 ] || [ "$before" != "$after" ] || ! grep -q "refused" <<< "$err"; then
    echo "FAILED: $name: exit $rc, tree $([ "$before" = "$after" ] && echo unchanged || echo CHANGED): $err"
    failures=$((failures + 1))
  fi
}

td=$WORK/td
# Classic Kestrel's writers: everything but classic Kestrel. libkestrel's
# own files go to its compact, and a Canal meta.dat (*.dat here) and the
# deployer root and destination directories holding them ($td/canal,
# $td/canal/logs/example: a destination's history, which Canal's repair
# passes over with a note) to Canal's repair, so those are foreign to repair
# and to compact only.
for p in $(paths_under "$td/flume" "$td/canal" "$WORK/misc"); do
  if [[ $p != *.dat && $p != "$td/canal" && $p != "$td/canal/logs/"* ]]; then
    expect_refusal "repair --apply $p" "$QJT" repair --apply "$p"
    expect_refusal "repair --apply --salvage $p" "$QJT" repair --apply --salvage "$p"
  fi
  expect_refusal "compact $p" "$QJT" compact "$p"
done
for p in $(paths_under "$td/libkestrel"); do
  expect_refusal "repair --apply $p" "$QJT" repair --apply "$p"
done
# Canal's writer: everything but a Canal meta.dat.
for p in $(paths_under "$td/kestrel/files" "$td/kestrel/sample" "$td/flume/channel" "$td/libkestrel/queue" "$WORK/misc") \
         "$td/canal/logs/example/meta.log"; do
  expect_refusal "repair --drop-client 1001 --apply $p" "$QJT" repair --drop-client 1001 --apply "$p"
done
# Flume's writers: directories of every other family as a channel's.
for d in "$td/kestrel/sample" "$td/libkestrel/queue" "$td/canal/conf/example" "$WORK/misc"; do
  expect_refusal "repair --rebuild-checkpoint --apply --checkpoint-dir $d" \
    "$QJT" repair --rebuild-checkpoint --apply --checkpoint-dir "$d" --data-dir "$td/flume/channel/data1"
  expect_refusal "repair --apply --data-dir $d" \
    "$QJT" repair --apply --checkpoint-dir "$td/flume/channel/checkpoint" --data-dir "$d"
  expect_refusal "convert --to flume-v3 --apply --checkpoint-dir $d" \
    "$QJT" convert --to flume-v3 --apply --checkpoint-dir "$d" --data-dir "$td/flume/v2/data1"
done

# A classic journal whose first byte is damaged is Kestrel's, but repair
# does not empty it without --force (--salvage keeps what follows).
mkdir -p "$WORK/damaged"
{ printf '\377'; tail -c +2 "$DATA/kestrel/files/every-opcode"; } > "$WORK/damaged/q"
expect_refusal "repair --apply of a journal damaged at byte 0" "$QJT" repair --apply "$WORK/damaged/q"
# Its directory is no queue directory (no file in it is a journal as its
# bytes say): nothing found there, exit 3, nothing changed.
before=$(tree_state)
err=$("$QJT" repair --apply "$WORK/damaged" 2>&1 >/dev/null)
rc=$?
cases=$((cases + 1))
if [ $rc -ne 3 ] || [ "$before" != "$(tree_state)" ] || ! grep -q "no journal, channel or checkpoint found" <<<"$err"; then
  echo "FAILED: repair --apply of a directory holding only a journal damaged at byte 0: exit $rc: $err"
  failures=$((failures + 1))
fi
"$QJT" repair --apply --salvage --no-backup "$WORK/damaged/q" >/dev/null 2>&1
check "--salvage keeps the records after the damaged first byte" 161 "$(stat -c %s "$WORK/damaged/q")"

check "foreign-file cases run" yes "$([ $cases -gt 200 ] && echo yes || echo "only $cases")"
echo "$cases cases, $failures failure(s)"
[ $failures -eq 0 ]
