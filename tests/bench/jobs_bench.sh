#!/usr/bin/env bash
# jobs_bench.sh: what -j N gains (issue 25's target). Not a ctest test:
# run it by hand (README.md, "Benchmarks").
#
#   tests/bench/jobs_bench.sh [--qjt PATH] [--scratch DIR] [--runs N]
#                             [--size SIZE] [--keep]
#
#   --qjt PATH     the qjt binary to measure (default: build a Release
#                  binary in build-bench/ and use it)
#   --scratch DIR  where the queues go, in a fresh subdirectory that is
#                  deleted at the end (default /tmp)
#   --runs N       runs of each command; the fastest wall time is
#                  reported (default 3)
#   --size SIZE    size of each of the four classic Kestrel queues
#                  (default 256M)
#   --keep         keep the scratch directory
#
# It writes four equal classic Kestrel queues (queue directories of 4
# segments, 100-byte payloads, seeds 1-4) and four libkestrel queues of
# 500000 items, warms the page cache, and times `qjt verify -j 1` against
# `-j 2` (and -j 0, one job per core) of each set, `qjt replay` likewise,
# and `cat` of the same files for scale: wall time, CPU time and the
# speedup of -j N over -j 1. Ends with the target, verify -j 2 of the four
# classic queues at least 1.7x as fast as -j 1 on 2 cores, met or MISSED.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/bench/bench_lib.sh"
size=256M
while [ $# -gt 0 ]; do
  shared_option "$@"
  [ "$shifted" -gt 0 ] && { shift "$shifted"; continue; }
  case $1 in
    --size) size=$2; shift 2 ;;
    *) unknown_argument "$1" ;;
  esac
done
setup_run

echo "== writing four classic Kestrel queues of $size and four libkestrel queues"
mkdir -p "$scratch/kestrel" "$scratch/libkestrel"
for seed in 1 2 3 4; do
  "$qjt" gen kestrel --size "$size" --payload-size 100 --segments 4 --queue "q$seed" --seed $seed \
    -o "$scratch/kestrel/q$seed" > /dev/null
  "$qjt" gen libkestrel --records 500000 --payload-size 100 --seed $seed -o "$scratch/libkestrel/q$seed" > /dev/null
done

speedup() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }'; }
declare -a verdicts=()
for family in kestrel libkestrel; do
  queues=("$scratch/$family"/q*)
  bytes=$(find "${queues[@]}" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
  measure "cat ${queues[*]/%//*} > /dev/null"
  echo "== $family: four queues, $((bytes / 1048576)) MiB; cat ${wall} s"
  printf '  %-22s %8s %8s %8s\n' command wall cpu speedup
  for cmd in verify replay; do
    measure "$qjt $cmd -j 1 ${queues[*]} > /dev/null" "" "0 1"
    one=$wall
    printf '  %-22s %8s %8s %8s\n' "$cmd -j 1" "$wall" "$cpu" 1.00
    for n in 2 0; do
      measure "$qjt $cmd -j $n ${queues[*]} > /dev/null" "" "0 1"
      printf '  %-22s %8s %8s %8s\n' "$cmd -j $n" "$wall" "$cpu" "$(speedup "$one" "$wall")"
      if [ "$family$cmd$n" = kestrelverify2 ]; then
        # check() wants a value at most its limit: the time of -j 2 as a
        # share of -j 1's, at most 1/1.7.
        check "verify -j 2 of four classic queues, time as a share of -j 1 (1.7x: 0.588)" \
          "$(ratio4 "$wall" "$one")" 0.588
      fi
    done
  done
done

echo "== target"
printf '%s\n' "${verdicts[@]}"
