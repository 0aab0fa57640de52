#!/usr/bin/env bash
# -q/--quiet on every command, before or after it: only errors on standard
# error. A compact whose gate finds nothing to do prints nothing at all, -q
# or not (cron).
set -uo pipefail
QJT=$1 DATA=$2 WORK=$3
source "$(dirname "$0")/../check.sh"
rm -rf "$WORK"; mkdir -p "$WORK"
cp -r "$DATA/kestrel/sample" "$WORK/sample"  # its stray temp file is a warning
sample=$WORK/sample

# run ARGS...: sets $out, $err and $rc.
run() {
  "$QJT" "$@" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  out=$(cat "$WORK/out") err=$(cat "$WORK/err")
}

run dump "$sample"
check "dump: the directory's warnings on stderr" "yes" "$(grep -q 'warning\[' "$WORK/err" && echo yes)"
for cmd in dump replay "compact --dry-run" "repair"; do
  # shellcheck disable=SC2086
  run $cmd -q "$sample"
  check "$cmd -q: nothing on stderr" "" "$err"
  # shellcheck disable=SC2086
  run $cmd --quiet "$sample"
  check "$cmd --quiet: nothing on stderr" "" "$err"
done
# Before the command, as after it.
for cmd in dump replay verify; do
  run -q $cmd "$sample"
  check "qjt -q $cmd: nothing on stderr" "" "$err"
  run --quiet $cmd "$sample"
  check "qjt --quiet $cmd: nothing on stderr" "" "$err"
done
check "qjt --quiet verify, warnings only: nothing on stdout" "" "$out"
run -q dump "$WORK/no-such-file"
check "qjt -q dump of a missing file: the error still on stderr" \
  "qjt: $WORK/no-such-file: error[io_error]: cannot open $WORK/no-such-file: No such file or directory" "$err"
run convert -q --to jsonl "$DATA/kestrel/files/every-opcode"
check "convert -q: exit 0" 0 "$rc"
check "convert -q: nothing on stderr" "" "$err"
run gen -q kestrel --records 10 -o "$WORK/gen"
check "gen -q: nothing on stderr" "" "$err"

# verify -q: no warning and no summary of a clean run; errors still.
run verify -q "$sample"
check "verify -q, warnings only: exit 0" 0 "$rc"
check "verify -q, warnings only: nothing on stdout" "" "$out"
check "verify -q, warnings only: nothing on stderr" "" "$err"
run verify -q --strict "$sample"
check "verify -q --strict: exit 1" 1 "$rc"
check "verify -q --strict: the warnings fail, so they are shown" "yes" \
  "$(grep -q '^FAILED' "$WORK/out" && grep -q 'warning\[' "$WORK/out" && echo yes)"
run verify -q "$DATA/kestrel/files/broken-truncated-data"
check "verify -q, an error: exit 1" 1 "$rc"
check "verify -q, an error: the error and the verdict" "yes" \
  "$(grep -q 'error\[broken_record\]' "$WORK/out" && grep -q '^FAILED' "$WORK/out" && echo yes)"
run dump -q "$WORK/no-such-file"
check "dump -q of a missing file: the error still on stderr" "yes" "$(grep -q 'io_error' "$WORK/err" && echo yes)"

# The compact gate: nothing to do, nothing printed, with or without -q.
before=$(ls -la "$sample" | md5sum)
run compact --if-larger-than 64M --if-overflow 4 "$sample"
check "compact gate, nothing to do: exit 0" 0 "$rc"
check "compact gate, nothing to do: nothing on stdout" "" "$out"
check "compact gate, nothing to do: nothing on stderr" "" "$err"
check "compact gate, nothing to do: nothing changed" "$before" "$(ls -la "$sample" | md5sum)"
run compact --if-overflow 1000 "$sample"
check "compact --if-overflow, nothing to do: silent" "" "$out$err"
run compact --dry-run "$sample"
check "compact --dry-run without a gate still warns" "yes" "$(grep -q 'warning\[' "$WORK/err" && echo yes)"
[ $failures -eq 0 ]
