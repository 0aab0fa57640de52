#!/usr/bin/env bash
# Every command that writes, with each of its file-system calls failing in
# turn (qjt_faults.so, see qjt_faults.c): a run learns the command's number
# of eligible calls, then for each N the N-th call fails with ENOSPC, EIO
# or EDQUOT (in rotation), and separately the N-th write comes back short.
# After a failure the command must exit 3 with a message naming the file
# and the system's reason, leave no temp file ("~~" names it did not find)
# in the directories it writes, and leave the state (what the queue
# replays to, or the files' bytes) either as it was or as a complete run
# leaves it. A short write must change nothing in the outcome.
#
#   failpoints.sh QJT QJT_FAULTS_SO TESTDATA_DIR WORK
set -uo pipefail
QJT=$1 SHIM=$2 TD=$3 WORK=$4
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$WORK"; mkdir -p "$WORK/inputs"
export QJT_NOW_MS=1800000000000  # the names of new files, the same in every run
S=$WORK/s  # the scratch directory every case writes in; backups go to $WORK/bak

source "$(dirname "$0")/../support/writer_cases.sh"
make_writer_inputs

# The state of a case, besides writer_cases.sh's replays: the bytes of its files.
# (A Flume checkpoint-backup-<ms>, made before the upgrade changes anything, may stay.)
bytes() { (cd "$S" && find . -type f ! -name '*~~*' ! -name 'checkpoint-backup-*' -print0 | sort -z | xargs -0r sha1sum); }
temps() { (cd "$S" && find . -name '*~~*' | sort); }

total=0 summary=""
# check_case NAME STATE SETUP -- COMMAND...
check_case() {
  local name=$1 state=$2 setup=$3; shift 4
  rm -rf "$S" "$WORK/bak"*; mkdir -p "$S"; $setup
  local before temps_before after count
  before=$($state) temps_before=$(temps)
  rm -f "$WORK/count"
  QJT_FAULT_COUNT=$WORK/count LD_PRELOAD=$SHIM "$@" >/dev/null 2>"$WORK/err" || fail "$name: clean run exited $?: $(cat "$WORK/err")"
  after=$($state) count=$(cat "$WORK/count")
  [ "$count" -gt 0 ] || fail "$name: no eligible calls"
  local errnos=(ENOSPC EIO EDQUOT) n e rc op path reason verb
  for n in $(seq 1 "$count"); do
    e=${errnos[n % 3]}
    rm -rf "$S" "$WORK/bak"* "$WORK/log"; mkdir -p "$S"; $setup
    QJT_FAULT_AT=$n QJT_FAULT_ERRNO=$e QJT_FAULT_LOG=$WORK/log LD_PRELOAD=$SHIM "$@" >/dev/null 2>"$WORK/err"
    rc=$?
    read -r op path <"$WORK/log" || fail "$name: call $n of $count was not reached"
    [ $rc -eq 3 ] || fail "$name: $op $path failing with $e: exit $rc, expected 3: $(cat "$WORK/err")"
    case $e in ENOSPC) reason="No space left on device" ;; EIO) reason="Input/output error" ;; *) reason="Disk quota exceeded" ;; esac
    case $op in fsync | fdatasync) verb=fsync ;; rename*) verb=rename ;; link*) verb=link ;; unlink*) verb=remove ;;
      mkdir) verb=create ;; ftruncate) verb=truncate ;; *) verb=$op ;; esac
    grep -qF "$verb" "$WORK/err" && grep -qF "$(basename "$path")" "$WORK/err" && grep -qF "$reason" "$WORK/err" ||
      fail "$name: $op $path failing with $e: the message does not name the operation ($verb), the file and the reason: $(cat "$WORK/err")"
    local left; left=$(comm -13 <(echo "$temps_before") <(temps))
    [ -z "$left" ] || fail "$name: $op $path failing with $e left temp files: $left"
    local now; now=$($state)
    if [ "$now" != "$before" ] && [ "$now" != "$after" ]; then
      # The upgrade's documented half-done state (checkpoint.meta beside the
      # V2 checkpoint) is the one a re-run completes.
      [ "$name" = upgrade-flume ] && "$@" >/dev/null 2>&1 && [ "$($state)" = "$after" ] ||
        fail "$name: $op $path failing with $e left a state neither before nor after"
    fi
  done
  local writes
  rm -f "$WORK/count"; rm -rf "$S" "$WORK/bak"*; mkdir -p "$S"; $setup
  QJT_FAULT_OPS=write QJT_FAULT_COUNT=$WORK/count LD_PRELOAD=$SHIM "$@" >/dev/null 2>&1
  writes=$(cat "$WORK/count")
  for n in $(seq 1 "$writes"); do
    rm -rf "$S" "$WORK/bak"*; mkdir -p "$S"; $setup
    QJT_FAULT_OPS=write QJT_FAULT_AT=$n QJT_FAULT_ERRNO=SHORT LD_PRELOAD=$SHIM "$@" >/dev/null 2>"$WORK/err" ||
      fail "$name: short write $n: exit $?: $(cat "$WORK/err")"
    [ "$($state)" = "$after" ] || fail "$name: short write $n changed the outcome"
  done
  total=$((total + count))
  summary+="$name: $count calls ($writes writes); "
}

check_every_writer
echo "$summary"
echo "every one of $total failing calls was reported and cleaned up"
