# Shared by the Canal CLI tests: sourced with the test's arguments,
# QJT TESTDATA_CANAL_DIR; sets $qjt and $td and defines check, which counts
# failures for finish.
set -uo pipefail
qjt=$1
td=$2
failures=0
check() {  # check NAME EXPECTED ACTUAL
  if [ "$2" == "$3" ]; then echo "ok: $1"; else
    echo "FAILED: $1"; diff <(echo "$2") <(echo "$3"); failures=$((failures + 1)); fi
}
finish() {
  echo "$failures failure(s)"
  [ "$failures" -eq 0 ]
}
