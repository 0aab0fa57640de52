# Shared by the Canal CLI tests: sourced with the test's arguments,
# QJT TESTDATA_CANAL_DIR; sets $qjt and $td and defines check, which counts
# failures for finish.
set -uo pipefail
qjt=$1
td=$2
source "$(dirname "${BASH_SOURCE[0]}")/../check.sh"
finish() {
  echo "$failures failure(s)"
  [ "$failures" -eq 0 ]
}
