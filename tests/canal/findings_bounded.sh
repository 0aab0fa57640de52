# A generated meta.log read backwards (tac): every line but each client's
# first moves its client back, a canal_cursor_backwards warning each
# (20,000 updates of 2 clients: 19,998). verify keeps the first 100 and one
# finding that counts the rest, so what it holds does not grow with the
# damage; the warning count is every one; --all-findings lists each.
#
#   findings_bounded.sh QJT TESTDATA_CANAL_DIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$qjt" gen canal -o "$scratch/gen" --records 20000 >/dev/null 2>&1
mkdir -p "$scratch/logs/backwards"
tac "$scratch/gen/logs/example/meta.log" >"$scratch/logs/backwards/meta.log"
out=$("$qjt" verify --json "$scratch/logs/backwards/meta.log"); status=$?
check "backwards: exit 0 (warnings only)" 0 "$status"
check "backwards: every warning counted, 101 findings kept" \
  '[19998,101,19898,"19898 more canal_cursor_backwards findings, beyond the first 100 listed (--all-findings lists them)"]' \
  "$(jq -c '[.warnings, (.findings | length), .findings[-1].count, .findings[-1].message]' <<<"$out")"
check "backwards: --all-findings lists each" 19998 \
  "$("$qjt" verify --json --all-findings "$scratch/logs/backwards/meta.log" | jq '.findings | length')"
finish
