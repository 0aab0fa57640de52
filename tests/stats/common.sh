# common.sh, sourced by the stats_<family>.sh scripts with their arguments
# QJT PROMETHEUS_LINT TESTDATA SHARED: the checks' helpers, and a scratch
# directory $tmp removed on exit.
qjt=$1
prometheus_lint=$2
testdata=$3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# expect WHAT ACTUAL EXPECTED
expect() {
  [ "$2" = "$3" ] || fail "$1: expected $3, found $2"
}

# stats_json OUT PATH...: the JSON report in OUT; its exit status in $status.
stats_json() {
  local out=$1
  shift
  "$qjt" stats --json "$@" >"$out" 2>"$out.err"
  status=$?
}

# lint ARGS...: qjt stats --prometheus ARGS through the exposition grammar.
lint() {
  "$qjt" stats --prometheus "$@" 2>/dev/null | "$prometheus_lint" ||
    fail "prometheus_lint rejects qjt stats --prometheus $*"
}

# jobs_match ARGS...: with -j 2, qjt stats ARGS writes what -j 1 writes, to
# standard output and standard error, and exits as it does, in text, JSON
# and Prometheus.
jobs_match() {
  local output s1 s2
  for output in "" --json --prometheus; do
    "$qjt" stats $output -j 1 "$@" >"$tmp/j1" 2>"$tmp/j1.err"
    s1=$?
    "$qjt" stats $output -j 2 "$@" >"$tmp/j2" 2>"$tmp/j2.err"
    s2=$?
    expect "-j 2 $output: exit status" "$s2" "$s1"
    cmp -s "$tmp/j1" "$tmp/j2" || fail "-j 2 $output: output differs from -j 1"
    cmp -s "$tmp/j1.err" "$tmp/j2.err" || fail "-j 2 $output: standard error differs from -j 1"
  done
}

# finish NAME: the verdict, and the exit status.
finish() {
  if [ "$failures" -gt 0 ]; then
    echo "$failures failure(s)"
    exit 1
  fi
  echo "$1: all checks passed"
}
