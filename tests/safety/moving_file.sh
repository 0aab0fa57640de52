#!/usr/bin/env bash
# A file truncated while qjt reads it: qjt is not killed by SIGBUS; it
# reports file_changed (the size it opened, the size found, at the offset
# where the file now ends) and exits 1. Deterministic: dump writes into a
# pipe that is not read until the file is cut, so the cut lands after qjt
# opened and mapped the file and before it reached the end.
set -uo pipefail
QJT=$1 WORK=$2
source "$(dirname "$0")/../check.sh"
rm -rf "$WORK"; mkdir -p "$WORK"
journal=$WORK/moving
"$QJT" gen kestrel --records 200000 --payload-size 100 --seed 1 -o "$journal" > /dev/null
size=$(stat -c %s "$journal")
{ "$QJT" dump "$journal" 2> "$WORK/err"; echo $? > "$WORK/rc"; } |
  { head -n 1 > /dev/null; truncate -s 100000 "$journal"; cat > /dev/null; }
check "dump of a file cut under it: exit" 1 "$(cat "$WORK/rc")"
check "dump of a file cut under it: file_changed" \
  "qjt: $journal:100000: error[file_changed]: expected the $size bytes the file had when qjt opened it, found 100000 bytes" \
  "$(grep -o '^qjt: .*error\[file_changed\]: expected the [0-9]* bytes the file had when qjt opened it, found [0-9]* bytes' "$WORK/err")"
[ $failures -eq 0 ] && echo "all moving-file checks passed"
exit $((failures > 0))
