# A generated meta.log read backwards (tac): every line but each client's
# first moves its client back, a canal_cursor_backwards warning each
# (20,000 updates of 2 clients: 19,998). verify folds them by cause, one
# finding per client that counts its lines, so what it holds does not grow
# with the damage; the warning count is every one; --all-findings lists
# each.
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
check "backwards: every warning counted, folded by cause into one finding per client" \
  '[19998,2,19998,["1001","1002"]]' \
  "$(jq -c '[.warnings, (.findings | length), ([.findings[].count] | add),
             ([.findings[].message | capture("^[0-9]+ lines move client (?<c>[0-9]+) back from its line before$").c] | sort)]' <<<"$out")"
err=$("$qjt" dump "$scratch/logs/backwards/meta.log" 2>&1 >/dev/null)
check "backwards: dump's stderr folds them as they come, one line per client, then its count" 2 \
  "$(grep -cE '^qjt: .*warning\[canal_cursor_backwards\]: [0-9]+ lines move client 100[12] back' <<<"$err")"
check "backwards: --all-findings lists each" 19998 \
  "$("$qjt" verify --json --all-findings "$scratch/logs/backwards/meta.log" | jq '.findings | length')"
finish
