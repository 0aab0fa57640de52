#!/bin/bash
# Kills `qjt convert --to flume-v3 --apply` at every step of its protocol
# in turn (QJT_FAILPOINT=N kills at the N-th failpoint) and checks that a
# re-run then completes, that the channel replays to the original queue,
# that the checkpoint and checkpoint.meta are those of an uninterrupted
# run, that a backup holds the V2 checkpoint and that no temp file is left.
# Channels: testdata/flume/v2 (always) and Flume's two real V2 channels
# from ../shared/fixtures/flume-v2 (when present).
#
#   upgrade_failpoints.sh QJT TESTDATA_FLUME_DIR FIXTURE_DIR
set -uo pipefail
qjt=$1
td=$2
fixtures=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*"; exit 1; }

mkdir -p "$work/sources"
cp -a "$td/v2" "$work/sources/testdata"
if [ -d "$fixtures" ]; then
  for set in post:fileformat-v2- pre:fileformat-v2-pre-FLUME-1432-; do
    dir="$work/sources/${set%%:*}" prefix=${set#*:}
    mkdir -p "$dir/checkpoint" "$dir/data1" "$dir/data2" "$dir/data3"
    gunzip -c "$fixtures/${prefix}checkpoint.gz" >"$dir/checkpoint/checkpoint"
    for i in 1 2 3; do gunzip -c "$fixtures/${prefix}log-$i.gz" >"$dir/data$i/log-$i"; done
  done
else
  echo "no fixtures at $fixtures: only testdata/flume/v2"
fi

channel() {  # the options naming the channel in $1
  local dirs
  dirs=$(cd "$1" && ls -d data* | sed "s|^|$1/|" | paste -sd,)
  echo --checkpoint-dir "$1/checkpoint" --data-dir "$dirs"
}
queue() { "$qjt" replay --json $(channel "$1") | jq -c '[.queue[] | [.file_id, .offset, .data]]'; }

for source in "$work"/sources/*; do
  name=$(basename "$source")
  expected_queue=$(queue "$source")
  [ "$expected_queue" != "[]" ] && [ -n "$expected_queue" ] || fail "$name: no queue to compare"
  # The uninterrupted run gives the files every interrupted one must end with.
  rm -rf "$work/clean" && cp -a "$source" "$work/clean"
  "$qjt" convert --to flume-v3 --apply $(channel "$work/clean") >/dev/null || fail "$name: clean run"
  steps=0
  for n in $(seq 1 50); do
    rm -rf "$work/ch" && cp -a "$source" "$work/ch"
    # (in a command substitution, so that bash's "Killed" goes nowhere)
    rc=$( (QJT_FAILPOINT=$n "$qjt" convert --to flume-v3 --apply $(channel "$work/ch") >/dev/null 2>&1); echo $?) 2>/dev/null
    if [ $rc -ne 0 ]; then
      [ $rc -eq 137 ] || fail "$name: exit $rc (expected a kill, 137) at failpoint $n"
      steps=$n
      "$qjt" convert --to flume-v3 --apply $(channel "$work/ch") >/dev/null ||
        fail "$name: the re-run after a kill at failpoint $n did not complete"
    fi
    [ "$(queue "$work/ch")" = "$expected_queue" ] || fail "$name: queue changed after failpoint $n"
    cmp -s "$work/ch/checkpoint/checkpoint" "$work/clean/checkpoint/checkpoint" ||
      fail "$name: checkpoint differs from a clean run's after failpoint $n"
    cmp -s "$work/ch/checkpoint/checkpoint.meta" "$work/clean/checkpoint/checkpoint.meta" ||
      fail "$name: checkpoint.meta differs from a clean run's after failpoint $n"
    backups=$(ls "$work/ch/checkpoint" | grep -c '^checkpoint-backup-')
    [ "$backups" = 1 ] || fail "$name: $backups backups after failpoint $n (expected one, reused by the re-run)"
    cmp -s "$work/ch/checkpoint"/checkpoint-backup-* "$source/checkpoint/checkpoint" ||
      fail "$name: the backup is not the V2 checkpoint after failpoint $n"
    ls "$work/ch/checkpoint" | grep -q '~~' && fail "$name: temp files left after failpoint $n: $(ls "$work/ch/checkpoint")"
    [ $rc -eq 0 ] && break
  done
  [ $steps -ge 4 ] || fail "$name: only $steps failpoints reached; the protocol has at least 4 steps"
  echo "ok: $name: upgrade survived a kill at each of $steps failpoints"
done
