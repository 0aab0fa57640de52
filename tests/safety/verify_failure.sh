#!/usr/bin/env bash
# Every writer whose change is verified afterwards, with that verify made
# to fail (QJT_FAILPOINT_ERROR=verify, lib/failpoint.h): the run exits 1,
# says on standard error that the verify after the change found errors,
# where the backup is and the command that restores it; and that command,
# run as printed, gives back every file's bytes as they were (the backup
# itself aside); and the --json report carries the same command, as the
# hint of a restore_from_backup finding.
#
#   verify_failure.sh QJT TESTDATA_DIR WORK
set -uo pipefail
QJT=$1 TD=$2 WORK=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$WORK"; mkdir -p "$WORK"
S=$WORK/s  # the scratch directory every case writes in; backups go to $WORK/bak
source "$(dirname "$0")/../support/writer_cases.sh"

# Every file's bytes in the scratch tree, Flume's own checkpoint-backup-<ms>
# aside (the upgrade's backup, which the restore leaves).
bytes() { (cd "$S" && find . -type f ! -path '*checkpoint-backup-*' -print0 | sort -z | xargs -0r sha1sum); }

checked=0
# check_case NAME STATE SETUP -- COMMAND...: STATE is writer_cases.sh's; the
# bytes are what this test compares.
check_case() {
  local name=$1 setup=$3
  shift 4
  rm -rf "$S" "$WORK/bak"
  mkdir -p "$S"
  $setup
  local before rc restore
  before=$(bytes)
  QJT_FAILPOINT_ERROR=verify "$@" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  case $name in
  convert-* | gen) # written to a new path: nothing is verified after, nothing to restore
    [ $rc -eq 0 ] || fail "$name: exit $rc: $(cat "$WORK/err")"
    return
    ;;
  compact-flume) # a new channel that fails its read-back is removed: the input stays as it was
    [ $rc -eq 1 ] || fail "$name: exit $rc, expected 1: $(cat "$WORK/err")"
    [ "$(bytes)" = "$before" ] || fail "$name: files left: $(diff <(echo "$before") <(bytes))"
    return
    ;;
  esac
  [ $rc -eq 1 ] || fail "$name: exit $rc, expected 1: $(cat "$WORK/err")"
  grep -q 'the verify after the change found 1 error(s)' "$WORK/err" ||
    fail "$name: standard error does not tell the failed verify: $(cat "$WORK/err")"
  # One line per queue or file changed (a directory of two queues: two).
  restore=$(sed -n 's/.*; to restore them: //p' "$WORK/err")
  [ -n "$restore" ] || fail "$name: no restore command on standard error: $(cat "$WORK/err")"
  case $name in
  upgrade-flume) ;; # Flume's own backup, in the checkpoint directory
  *) grep -q "the files as they were are in $WORK/bak" "$WORK/err" || fail "$name: the backup is not named: $(cat "$WORK/err")" ;;
  esac
  while IFS= read -r line; do
    bash -c "$line" || fail "$name: the restore command failed: $line"
  done <<<"$restore"
  [ "$(bytes)" = "$before" ] ||
    fail "$name: after '$restore' the files differ: $(diff <(echo "$before") <(bytes))"
  # The JSON report carries the same way back, as a restore_from_backup
  # finding whose hint is the command (its backup's stamp aside).
  rm -rf "$S" "$WORK/bak"
  mkdir -p "$S"
  $setup
  QJT_FAILPOINT_ERROR=verify "$@" --json >"$WORK/json" 2>/dev/null
  local stamped='s/[0-9]\{13\}/<ms>/g'
  [ "$(jq -r '.. | objects | select(.code? == "restore_from_backup") | .hint' "$WORK/json" | sed "$stamped" | sort -u)" = \
    "$(sed "$stamped" <<<"$restore" | sort -u)" ] || fail "$name: the JSON report does not carry the restore command: $(cat "$WORK/json")"
  checked=$((checked + 1))
}

make_writer_inputs
check_every_writer
[ $checked -ge 7 ] || fail "only $checked writers checked"
echo "ok: $checked writers restored as their failed verify says"
