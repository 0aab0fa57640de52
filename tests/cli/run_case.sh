#!/usr/bin/env bash
# run_case.sh [--stdin FILE] QJT EXPECTED_EXIT EXPECTED_STDOUT [ARGS...]
#
# Runs QJT ARGS... (standard input from FILE, else /dev/null) and passes
# when its exit status is EXPECTED_EXIT and its standard output is byte for
# byte the content of EXPECTED_STDOUT. Standard error is shown, not checked.
set -u
stdin=/dev/null
if [ "${1:-}" = "--stdin" ]; then
  stdin=$2
  shift 2
fi
if [ $# -lt 3 ]; then
  echo "usage: run_case.sh [--stdin FILE] QJT EXPECTED_EXIT EXPECTED_STDOUT [ARGS...]" >&2
  exit 2
fi
qjt=$1 expected_exit=$2 expected=$3
shift 3

actual=$(mktemp)
errors=$(mktemp)
trap 'rm -f "$actual" "$errors"' EXIT
"$qjt" "$@" <"$stdin" >"$actual" 2>"$errors"
status=$?

failed=0
if [ "$status" != "$expected_exit" ]; then
  echo "FAIL: exit status $status, expected $expected_exit" >&2
  failed=1
fi
if ! cmp -s "$expected" "$actual"; then
  echo "FAIL: standard output differs from $expected (diff expected actual):" >&2
  diff -u "$expected" "$actual" >&2
  failed=1
fi
if [ -s "$errors" ]; then
  echo "--- standard error:" >&2
  cat "$errors" >&2
fi
exit $failed
