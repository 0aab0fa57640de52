#!/usr/bin/env bash
# stats_bench.sh: what `qjt stats` costs beside `qjt replay` (issue 26's
# target). Not a ctest test: run it by hand (README.md, "Benchmarks").
#
#   tests/bench/stats_bench.sh [--qjt PATH] [--scratch DIR] [--runs N]
#                              [--size SIZE] [--keep] [FAMILY...]
#
#   --qjt PATH     the qjt binary to measure (default: build a Release
#                  binary in build-bench/ and use it)
#   --scratch DIR  where the inputs go, in a fresh subdirectory that is
#                  deleted at the end (default /tmp)
#   --runs N       runs of each command; the fastest wall time is
#                  reported (default 3)
#   --size SIZE    the size of each input (default 1G)
#   --keep         keep the scratch directory
#   FAMILY         kestrel, libkestrel, flume, canal (default: all four)
#
# For each family it writes one input of SIZE with `qjt gen --seed 1`
# (kestrel: a journal of 1 KiB payloads, half of the items removed;
# libkestrel: a queue of 4 segments; flume: a
# channel of 1 KiB events, half taken; canal: a meta.log of that many
# updates; replay and stats read the meta.log), warms the page cache, and times `cat` of its
# files, `qjt replay` and `qjt stats` (text, then --prometheus), each to
# /dev/null: wall time, CPU time and peak RSS. Ends with the target, stats
# at most 1.2x the wall time of replay for each family, met or MISSED.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/bench/bench_lib.sh"
size=1G
families=()
while [ $# -gt 0 ]; do
  shared_option "$@"
  [ "$shifted" -gt 0 ] && { shift "$shifted"; continue; }
  case $1 in
    --size) size=$2; shift 2 ;;
    kestrel|libkestrel|flume|canal) families+=("$1"); shift ;;
    *) unknown_argument "$1" ;;
  esac
done
[ ${#families[@]} -gt 0 ] || families=(kestrel libkestrel flume canal)
setup_run

# input FAMILY: writes FAMILY's input under $scratch and sets $args (what
# replay and stats are given) and $files (what cat reads).
input() {
  local out=$scratch/$1
  case $1 in
    kestrel)
      "$qjt" gen kestrel --size "$size" --payload-size 1K --seed 1 -o "$out" >/dev/null
      args=$out files=$out ;;
    libkestrel)
      "$qjt" gen libkestrel --size "$size" --payload-size 1K --segments 4 --seed 1 -o "$out" >/dev/null
      args=$out files="$out/*" ;;
    flume)
      "$qjt" gen flume --size "$size" --payload-size 1K --seed 1 -o "$out" >/dev/null
      args="--checkpoint-dir $out/checkpoint --data-dir $out/data1" files="$out/checkpoint/* $out/data1/*" ;;
    canal)
      # gen counts Canal's history in updates, of about 125 bytes each
      "$qjt" gen canal --records $(($(numfmt --from=iec "$size") / 125)) --seed 1 -o "$out" >/dev/null
      # replay reads meta.log only; stats of meta.dat (one line) costs nothing
      args=$out/logs/example/meta.log files=$args ;;
  esac
}

declare -a verdicts=()
for family in "${families[@]}"; do
  echo "== $family: writing $size"
  input "$family"
  bytes=$(du -cb $files | tail -n 1 | cut -f 1)
  measure "cat $files > /dev/null"
  echo "== $family: $((bytes / 1048576)) MiB; cat ${wall} s"
  printf '  %-18s %8s %8s %9s %7s\n' command wall cpu rss_mib ratio
  measure "$qjt replay $args > /dev/null" "" "0 1"
  replay=$wall
  printf '  %-18s %8s %8s %9s %7s\n' replay "$wall" "$cpu" "$(mib "$rss")" 1.00
  for style in "" --json --prometheus; do
    measure "$qjt stats $style $args > /dev/null" "" "0 1"
    printf '  %-18s %8s %8s %9s %7s\n' "stats $style" "$wall" "$cpu" "$(mib "$rss")" "$(ratio "$wall" "$replay")"
    [ -z "$style" ] && check "$family: stats wall time as a multiple of replay's" "$(ratio "$wall" "$replay")" 1.2
  done
  rm -rf "${scratch:?}/$family"
done

echo "== target"
printf '%s\n' "${verdicts[@]}"
