#!/usr/bin/env bash
# Writers keep the owner, group and mode of what they change in place.
# Every command of writer_cases.sh, run as root on files owned by uid 65534
# with modes 0600 and 0640 (directories 0700 and 0750), leaves every file
# and directory of the queue it replaced or added owned 65534:65534 with
# that mode, and every backup copy as the file it copies; what it writes
# with -o is the running user's, mode 0666 less the umask, as cp makes a
# new file. Run as uid 65534 on another uid's files in a directory it may
# write, every in-place writer is refused (exit 2, naming the file and its
# owner) before any change; on its own files it works and keeps the mode.
#
#   ownership.sh QJT TESTDATA WORK
set -uo pipefail
QJT=$1 TD=$2 WORK=$3
source "$(dirname "$0")/../check.sh"
[ "$(id -u)" -eq 0 ] || { echo "skipped: giving files to another user needs root"; exit 77; }
enter_workdir "$WORK"
fail() { echo "FAIL: $*"; exit 1; }
export QJT_NOW_MS=1800000000000
S=$WORK/s
source "$(dirname "$0")/../support/writer_cases.sh"
make_writer_inputs
umask 002  # an output's mode shows the umask: 0664, where qjt used to make 0644

# give_away UID:GID FILE_MODE DIR_MODE: everything under $S.
give_away() {
  chown -R "$1" "$S"
  find "$S" -mindepth 1 -type f -exec chmod "$2" {} +
  find "$S" -mindepth 1 -type d -exec chmod "$3" {} +
}
# What is not as expected: outputs (under $S/out/) the running user's with
# the umask's mode, everything else under $S and every backup copy
# 65534:65534 with the mode given.
misowned() {
  local file_mode=$1 dir_mode=$2
  (cd "$S" && find . -mindepth 1 -printf '%P %U:%G %m %y\n') | awk -v f="$file_mode" -v d="$dir_mode" '
    $1 ~ /^out(\/|$)/ { if ($4 == "f" && ($2 != "0:0" || $3 != "664")) print; next }
    $2 != "65534:65534" || $3 != ($4 == "d" ? d : f) { print }'
  find "$WORK"/bak* -type f ! -name qjt-backup.txt -printf '%p %U:%G %m\n' 2>/dev/null |
    awk -v f="$file_mode" '$2 != "65534:65534" || $3 != f { print }'
}

# check_case NAME STATE SETUP -- COMMAND... (writer_cases.sh): the command
# as root, on files given to 65534 with each mode.
check_case() {
  local name=$1 setup=$3 modes
  shift 4
  for modes in "600 700" "640 750"; do
    rm -rf "$S" "$WORK"/bak*; mkdir -p "$S"; $setup
    give_away 65534:65534 $modes
    "$@" >/dev/null 2>"$WORK/err" || fail "$name: exited $?: $(cat "$WORK/err")"
    check "$name, files $(echo $modes | cut -d' ' -f1): owner, group and mode kept" "" "$(misowned $modes)"
  done
}
check_every_writer

# As uid 65534, on files of uid 1000 in directories 65534 may write: each
# in-place writer refuses before any change (what it writes with -o is its
# own, and needs no refusal).
as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
# The rest runs as uid 65534, which must reach qjt and this work directory:
# a clone under a directory closed to others cannot run it.
if ! "${as_nobody[@]}" "$QJT" --version >/dev/null 2>&1 || ! "${as_nobody[@]}" test -x "$WORK"; then
  echo "skipped: uid 65534 cannot reach $QJT or $WORK"
  echo "$failures failure(s)"
  [ "$failures" -eq 0 ]
  exit
fi
contents() { (cd "$S" && find . -printf '%P %U:%G %m\n' | sort && find . -type f -print0 | sort -z | xargs -0r sha1sum); }
check_case() {
  local name=$1 setup=$3 arg
  shift 4
  for arg in "$@"; do [[ $arg == "$S/out"* ]] && return; done
  rm -rf "$S" "$WORK"/bak*; mkdir -p "$S"; $setup
  give_away 1000:1000 644 755
  chown 65534:65534 "$S"
  find "$S" -mindepth 1 -type d -exec chown 65534:65534 {} +
  chmod 777 "$WORK"  # room for a backup, had one been made
  local before; before=$(contents)
  "${as_nobody[@]}" "$@" >"$WORK/out" 2>"$WORK/err"
  local status=$?
  check "$name as uid 65534 on uid 1000's files: exit 2" 2 "$status"
  grep -q "uid 1000 gid 1000" "$WORK/err" "$WORK/out" ||
    check "$name: the refusal names the owner" "uid 1000 gid 1000" "$(cat "$WORK/err" "$WORK/out")"
  grep -q "$S/" "$WORK/err" "$WORK/out" || check "$name: the refusal names the file" "$S/..." "$(cat "$WORK/err")"
  check "$name: nothing changed, no backup" "$before" "$(contents; ls -d "$WORK"/bak* 2>/dev/null)"
  chmod 755 "$WORK"
}
check_every_writer

# As uid 65534 on its own files: done, the mode kept.
rm -rf "$S" "$WORK"/bak*; mkdir -p "$S" "$WORK/bak"; setup_canal
give_away 65534:65534 640 750
chown 65534:65534 "$WORK/bak"
"${as_nobody[@]}" "$QJT" repair --set-position 1002=mysql-bin.000266:4 --apply --backup-to "$WORK/bak" \
  "$S/conf/example/meta.dat" >/dev/null 2>"$WORK/err"
check "canal repair as uid 65534 on its own files: exit 0" "0 " "$? $(cat "$WORK/err")"
check "canal repair as uid 65534: meta.dat kept 0640" "65534:65534 640" "$(stat -c '%u:%g %a' "$S/conf/example/meta.dat")"

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
