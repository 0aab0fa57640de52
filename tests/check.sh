# Sourced by the CLI test scripts (bash): check NAME EXPECTED ACTUAL prints
# "ok: NAME", or "FAILED: NAME" and the difference, counting failures in
# $failures for the script's exit status.
failures=0
check() {
  if [ "$2" == "$3" ]; then echo "ok: $1"; else
    echo "FAILED: $1"; diff <(echo "$2") <(echo "$3"); failures=$((failures + 1)); fi
}

# enter_workdir DIR: an empty DIR, made the working directory.
enter_workdir() {
  rm -rf "$1"
  mkdir -p "$1"
  cd "$1" || exit 1
}

# run ARGS...: $QJT with ARGS; its standard output and error in $out and
# $err (and in the files $WORK/out and $WORK/err), its exit status in $rc.
run() {
  "$QJT" "$@" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  out=$(cat "$WORK/out") err=$(cat "$WORK/err")
}
