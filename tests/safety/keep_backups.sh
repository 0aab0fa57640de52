#!/usr/bin/env bash
# --keep-backups N: once the new state is installed and verified, only the
# newest N backups of the same queue (backup directories <queue>.<ms>) or
# file (copies <file>.qjt-backup-<ms>) stay; other queues' backups and
# files that merely look like backups are never touched, and without the
# option nothing is removed. QJT_NOW_MS names the new backup.
set -uo pipefail
QJT=$1 DATA=$2 WORK=$3
source "$(dirname "$0")/../check.sh"
enter_workdir "$WORK"

listing() { (cd "$1" && find . -mindepth 1 -maxdepth 1 -printf '%f:%y\n' | LC_ALL=C sort | tr '\n' ' '); }

# Classic Kestrel compact of queue q: earlier backups of q (1000, 2000),
# one of another queue, and a plain file named like a backup directory.
cp -a "$DATA/kestrel/dirs/multi-pack" kestrel
mkdir -p b/q.1000 b/q.2000 b/events.1000
: >b/q.3000
QJT_NOW_MS=5000 "$QJT" compact --apply --backup-to b --keep-backups 2 kestrel >/dev/null 2>&1
check "compact exits 0" 0 $?
check "compact: the newest 2 of q stay, nothing else is touched" "events.1000:d q.2000:d q.3000:f q.5000:d" \
  "$(listing b | sed 's/ $//')"

# Without --keep-backups nothing is removed.
mkdir -p c/q.1000 c/q.2000 c/events.1000
cp -a "$DATA/kestrel/dirs/multi-pack" kestrel2
QJT_NOW_MS=5000 "$QJT" compact --apply --backup-to c kestrel2 >/dev/null 2>&1
check "without the option: every earlier backup stays" "events.1000:d q.1000:d q.2000:d q.5000:d" \
  "$(listing c | sed 's/ $//')"

# Canal repair: copies beside the file, <file>.qjt-backup-<ms>.
mkdir -p canal/example
cp "$DATA/canal/conf/example/meta.dat" canal/example/meta.dat
for ms in 1000 2000 3000; do cp canal/example/meta.dat "canal/example/meta.dat.qjt-backup-$ms"; done
: >canal/example/other.dat.qjt-backup-1000
QJT_NOW_MS=5000 "$QJT" repair --apply --keep-backups 2 --drop-client 1002 canal/example/meta.dat >/dev/null 2>err
status=$?
if [ $status -eq 0 ]; then
  check "canal: the newest 2 copies stay" "meta.dat.qjt-backup-3000:f meta.dat.qjt-backup-5000:f meta.dat:f other.dat.qjt-backup-1000:f" \
    "$(listing canal/example | sed 's/ $//')"
else
  check "canal repair ran" 0 "$status ($(cat err))"
fi

check "--keep-backups 0 is a usage error" 2 "$("$QJT" compact --keep-backups 0 kestrel >/dev/null 2>&1; echo $?)"

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
