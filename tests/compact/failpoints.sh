#!/usr/bin/env bash
# Kills `qjt compact` at every step of its protocol in turn (QJT_FAILPOINT=N
# kills at the N-th failpoint) and checks after each kill that the
# directory still replays to the original queues, that a second run then
# completes, and that the backups hold every original file byte for byte.
QJT=$1 SOURCE=$2 WORK=$3
source "$(dirname "$0")/lib.sh"
expected=$(queue_state "$SOURCE")
[ -n "$expected" ] || fail "cannot replay $SOURCE"
steps=0
for n in $(seq 1 200); do
  rm -rf "$WORK"; mkdir -p "$WORK"
  cp -a "$SOURCE" "$WORK/q"
  QJT_FAILPOINT=$n "$QJT" compact --apply --backup-to "$WORK/backup" "$WORK/q" >/dev/null 2>&1
  rc=$?
  [ "$(queue_state "$WORK/q")" = "$expected" ] || fail "state changed after a kill at failpoint $n"
  if [ $rc -eq 0 ]; then
    break
  fi
  [ $rc -eq 137 ] || fail "compact exited $rc (expected a kill, 137) at failpoint $n"
  steps=$n
  "$QJT" compact --apply --backup-to "$WORK/backup2" "$WORK/q" >/dev/null 2>&1 ||
    fail "a second run after a kill at failpoint $n did not complete"
  [ "$(queue_state "$WORK/q")" = "$expected" ] || fail "second run after failpoint $n changed the queue"
  "$QJT" verify --quiet "$WORK/q" >/dev/null || fail "result after failpoint $n does not verify clean"
done
[ $steps -ge 6 ] || fail "only $steps failpoints were reached; the protocol has more steps"
# The complete run: every original file is in the backup, byte for byte.
for f in "$SOURCE"/*; do
  name=$(basename "$f")
  found=$(find "$WORK/backup" -type f -name "$name" | head -1)
  [ -n "$found" ] && cmp -s "$f" "$found" || fail "backup lacks an identical copy of $name"
done
ls "$WORK/q" | grep -q '~~\|\.pack$' && fail "temp or pack files left behind: $(ls "$WORK/q")"
echo "compact survived a kill at each of $steps failpoints"
