#!/usr/bin/env bash
# -j N (lib/cli/jobs.h): for any N, the same bytes on standard output and
# standard error and the same exit status as -j 1, for dump, verify and
# replay (text and --json) over a mix of families, clean and damaged; and
# compact of a spool of queues leaves the same bytes. The stream cases
# (standard input, --limit) run one unit at a time and agree too.
set -uo pipefail
QJT=$1 DATA=$2 WORK=$3
source "$(dirname "$0")/../check.sh"
enter_workdir "$WORK"
export QJT_NOW_MS=1800000000000  # backup names and ages: the same in every run

for seed in 1 2 3; do
  "$QJT" gen kestrel --records 3000 --seed $seed -o "k$seed" > /dev/null
  "$QJT" gen libkestrel --records 2000 --seed $seed -o "lk$seed" > /dev/null
done
"$QJT" gen kestrel --records 2000 --segments 3 --queue orders --seed 4 -o spool > /dev/null
"$QJT" gen kestrel --records 2000 --segments 2 --queue mail --seed 5 -o spool > /dev/null
"$QJT" gen kestrel --records 500 --seed 6 --corrupt truncate -o broken > /dev/null
"$QJT" gen canal --records 50 -o canal > /dev/null
meta_dat=$(find canal -name meta.dat | head -n 1)
meta_log=$(find canal -name meta.log | head -n 1)
mixed=(k1 "$DATA/libkestrel/queue" lk2 broken "$DATA/kestrel/dirs/numeric-order" spool k2 lk3 k3
  "$DATA/flume/channel/data1/log-1" "$meta_dat" "$meta_log" "$DATA/kestrel/files/every-opcode")

# same_as_one NAME ARGS...: qjt ARGS with -j 2 and -j 4 prints and exits as with -j 1.
same_as_one() {
  local name=$1
  shift
  "$QJT" "$@" -j 1 > out.1 2> err.1
  local rc1=$?
  for n in 2 4 0; do
    "$QJT" "$@" -j $n > "out.$n" 2> "err.$n"
    local rc=$?
    check "$name -j $n: exit as -j 1" "$rc1" "$rc"
    check "$name -j $n: standard output as -j 1" "$(md5sum < out.1)" "$(md5sum < "out.$n")"
    check "$name -j $n: standard error as -j 1" "$(md5sum < err.1)" "$(md5sum < "err.$n")"
  done
}

for cmd in dump verify replay; do
  same_as_one "$cmd" $cmd "${mixed[@]}"
  same_as_one "$cmd --json" $cmd --json "${mixed[@]}"
done
same_as_one "verify --strict --json" verify --strict --json "${mixed[@]}"
same_as_one "dump --limit" dump --limit 7000 k1 k2 k3
same_as_one "dump of standard input" dump - k2 < k1
check "the mix has problems: exit 1" 1 "$("$QJT" verify -j 2 "${mixed[@]}" > /dev/null 2>&1; echo $?)"

# A run that stops at a unit (an empty directory) stops there for any N.
mkdir empty
same_as_one "verify stopped by an empty directory" verify k1 empty k2

# compact of a spool: the same bytes whatever N.
for n in 1 3; do
  mkdir "c$n"
  cp -a k1 k2 k3 spool lk1 lk2 "c$n/"
  (cd "c$n" && "$QJT" compact --json -j $n k1 k2 k3 spool lk1 lk2 --dry-run > ../compact-dry.$n 2>&1)
  (cd "c$n" && "$QJT" compact --apply --json -j $n spool lk1 lk2 > ../compact.$n 2>&1)
  echo $? > "compact-rc.$n"
done
check "compact --dry-run -j 3: report as -j 1" "$(sed s/c1/cN/g compact-dry.1)" "$(sed s/c3/cN/g compact-dry.3)"
check "compact -j 3: report as -j 1" "$(sed s/c1/cN/g compact.1)" "$(sed s/c3/cN/g compact.3)"
check "compact -j 3: exit as -j 1" "$(cat compact-rc.1)" "$(cat compact-rc.3)"
check "compact -j 3: the same files" "" "$(diff -r c1 c3)"
check "compact -j 3: the spool's queues were compacted" 2 "$(jq -r 'select(.queue_name) | .queue_name' compact.3 | grep -c -e orders -e mail)"

[ $failures -eq 0 ] && echo "all jobs checks passed"
exit $((failures > 0))
