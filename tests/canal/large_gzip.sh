# A gzip'd meta.log that inflates past the 256 MiB limit
# (formats/canal/README.md, "Reading a log in bounded memory"), made on the
# fly: one gzip member of about 1 MiB of identical cursor lines, repeated
# 300 times back to back (as `cat a.gz b.gz` makes; gzip readers take the
# members as one text). Every command that reads a meta.log reads it up to
# the limit in memory that does not grow with it, then refuses it the same
# way: a canal_gzip error and exit status 1. The same member ten times,
# under the limit, is read whole and clean.
#
# The lines carry a GTID set of 50 servers (2 KiB, as a busy GTID setup
# logs), so that 256 MiB is 130,000 lines and the test takes seconds even
# in a Debug build; the time per line is measured by hand (README, "Reading
# a log in bounded memory").
#
# Arguments: qjt, testdata/canal, max_rss (tests/support), and the peak
# RSS allowed in KiB (0: not checked, as under the sanitizers, whose
# shadow memory and quarantine say nothing of qjt's own).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
max_rss=$3
rss_limit_kib=$4
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch" || exit 1

gtid=$(for i in $(seq 10 59); do printf '3e11fa47-71ca-11e1-9e33-c80aa94295%s:1-123456,' "$i"; done)
line="2021-01-14 10:00:00.000 - clientId:1001 cursor:[mysql-bin.000264,396,1610618400000,2757725211,${gtid%,}] address[db1.internal/10.0.0.5:3306]"
lines_per_member=$(((1 << 20) / (${#line} + 1)))
yes "$line" | head -n "$lines_per_member" | gzip -1 >member.gz
members() { for _ in $(seq "$1"); do cat member.gz; done; }
mkdir -p logs/example/2021-01-14 conf/example
big=logs/example/2021-01-14/meta-2021-01-14-1.log.gz
members 300 >"$big"
members 10 >under.log.gz

# run NAME COMMAND...: runs qjt COMMAND..., its stdout in NAME.out (only
# its line count, for the commands that print every line read, so that
# hundreds of MiB are not written), its stderr in NAME.err; echoes the exit
# status; checks the peak RSS.
run() {
  local name=$1 status
  shift
  if [[ $name == *-count ]]; then
    "$max_rss" "$name.rss" "$qjt" "$@" 2>"$name.err" | wc -l >"$name.out"
    status=${PIPESTATUS[0]}
  else
    "$max_rss" "$name.rss" "$qjt" "$@" >"$name.out" 2>"$name.err"
    status=$?
  fi
  echo "$name: peak RSS $(cat "$name.rss") KiB" >&2
  if [ "$rss_limit_kib" -gt 0 ] && [ "$(cat "$name.rss")" -gt "$rss_limit_kib" ]; then
    echo "FAILED: $name: peak RSS $(cat "$name.rss") KiB, more than $rss_limit_kib KiB" >&2
    failures=$((failures + 1))
  fi
  echo "$status"
}

check "under the limit: verify reads every line, clean" "0 $((10 * lines_per_member))" \
  "$(run under verify --json under.log.gz) $(jq .records under.out)"

refused='canal_gzip'
check "dump: exit 1" 1 "$(run dump-count dump "$big")"
check "dump: canal_gzip on stderr" 1 "$(grep -c "error\[$refused\]: inflates beyond 256 MiB" dump-count.err)"
check "dump: the lines before the limit printed" "$(((256 << 20) / (${#line} + 1)))" "$(cat dump-count.out)"
check "verify --json: exit 1, canal_gzip alone" '1 ["canal_gzip"]' \
  "$(run verify-json verify --json "$big") $(jq -c '[.findings[].code]' verify-json.out)"
check "replay: exit 1" 1 "$(run replay-count replay "$big")"
check "replay --at: exit 1" 1 "$(run replay-at replay --json --at 1610618400000 "$big")"
check "replay --at: the meta.dat of the lines read" 1001 \
  "$(jq -r .meta_dat replay-at.out | jq '.clientDatas[0].clientIdentity.clientId')"
check "replay --at: canal_gzip on stderr" 1 "$(grep -c "error\[$refused\]" replay-at.err)"
jq -j .meta_dat replay-at.out >conf/example/meta.dat
cp conf/example/meta.dat before.dat
check "repair --from-log: refused, exit 1" 1 \
  "$(run repair repair --apply --from-log "$big" --at 1610618400000 conf/example/meta.dat)"
check "repair --from-log: nothing changed" same "$(cmp -s before.dat conf/example/meta.dat && echo same)"
check "repair --from-log: canal_gzip and the refusal on stderr" "1 1" \
  "$(grep -c "error\[$refused\]" repair.err) $(grep -c 'refused' repair.err)"

finish
