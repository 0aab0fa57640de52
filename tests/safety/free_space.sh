#!/usr/bin/env bash
# Every in-place writer asks for the room its plan needs before it writes
# anything: short of it, exit 3, a message saying how much, and no byte
# changed. QJT_FREE_BYTES stands in for the file system's answer.
set -uo pipefail
QJT=$1 DATA=$2 WORK=$3
source "$(dirname "$0")/../check.sh"
rm -rf "$WORK"; mkdir -p "$WORK"

# refused NAME DIR CMD...: with 10 bytes free, CMD exits 3, says how much
# it needs, and leaves DIR as it was; with plenty, it runs.
refused() {
  local name=$1 dir=$2
  shift 2
  cp -a "$dir" "$WORK/before"
  QJT_FREE_BYTES=10 "$QJT" "$@" >/dev/null 2>"$WORK/err"
  check "$name: exit 3 with 10 bytes free" 3 $?
  check "$name: says how much it needs" 1 "$(grep -c 'not enough free space: .* needs [0-9]* bytes' "$WORK/err")"
  check "$name: nothing changed" "" "$(diff -r "$WORK/before" "$dir")"
  QJT_FREE_BYTES=100000000000 "$QJT" "$@" >/dev/null 2>&1
  check "$name: runs with room" 0 $?
  rm -rf "$WORK/before"
}

cp -a "$DATA/kestrel/dirs/multi-pack" "$WORK/kestrel"
refused "kestrel compact" "$WORK/kestrel" compact --apply --backup-to "$WORK/b1" "$WORK/kestrel"
# A compaction that only deletes segments (its bookmarks already canonical)
# writes nothing, and needs no room: the backup copies are hard links.
cp -a "$DATA/libkestrel/queue" "$WORK/libkestrel"
QJT_FREE_BYTES=0 "$QJT" compact --apply --rewrite-bookmarks --backup-to "$WORK/b2" "$WORK/libkestrel" >/dev/null 2>&1
check "libkestrel compact that only deletes: runs with no room" 0 $?
mkdir -p "$WORK/canal/example"; cp "$DATA/canal/conf/example/meta.dat" "$WORK/canal/example/"
refused "canal repair" "$WORK/canal" repair --apply --drop-client 1001 "$WORK/canal/example/meta.dat"
cp -a "$DATA/kestrel/files/broken-opcode-0a" "$WORK/journal"
mkdir "$WORK/kestrel-repair"; mv "$WORK/journal" "$WORK/kestrel-repair/"
refused "kestrel repair" "$WORK/kestrel-repair" repair --apply --salvage "$WORK/kestrel-repair/journal"
cp -a "$DATA/flume/v2" "$WORK/flume"
refused "flume upgrade" "$WORK/flume" convert --to flume-v3 --apply --checkpoint-dir "$WORK/flume/checkpoint" \
  --data-dir "$WORK/flume/data1,$WORK/flume/data2"
[ $failures -eq 0 ]
