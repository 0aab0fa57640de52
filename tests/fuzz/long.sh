#!/usr/bin/env bash
# tests/fuzz/long.sh SECONDS [TARGET...]: the long fuzz runs that add up
# over time. Each TARGET (default: every target, the fewest executions on
# record first) is fuzzed for SECONDS on one core, at the lowest priority,
# on a working corpus kept between runs in build-fuzz/long/TARGET; then the
# inputs that add coverage are merged, minimised (-merge=1), into the
# committed corpus tests/fuzz/corpus/TARGET, and the target's row of
# tests/fuzz/executions.tsv gets the run's executions and date. A crash
# input is kept in build-fuzz/findings/TARGET/, named on stdout, and
# counted in the row's crashes_found column; once fixed, with a regression
# test, raise crashes_fixed by hand. README.md's table is rewritten from
# executions.tsv after every target, so it is true even if the run stops.
#
# Run it on the spare core while working:
#   nohup tests/fuzz/long.sh 1800 >/tmp/fuzz-long.log 2>&1 &
# Exits 1 if any target crashed, 2 on bad usage.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/tests/fuzz
build=${QJT_FUZZ_BUILD:-$root/build-fuzz}
table=$here/executions.tsv

[[ $# -ge 1 && $1 =~ ^[0-9]+$ ]] || { echo "usage: $0 SECONDS [TARGET...]" >&2; exit 2; }
seconds=$1
shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(tail -n +2 "$table" | sort -t $'\t' -k2,2n | cut -f1)
fi

cmake -S "$root" -B "$build" -DQJT_FUZZ=ON -DCMAKE_CXX_COMPILER="${CXX:-clang++}" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
nice -n 19 cmake --build "$build" --target "${targets[@]/#/fuzz_}" -j "${QJT_JOBS:-1}" >/dev/null

# add_run TARGET EXECS CRASHES: the row of TARGET gets EXECS more
# executions, today's date and CRASHES more crashes found.
add_run() {
  local day
  day=$(date -u +%Y-%m-%d)
  awk -F'\t' -v OFS='\t' -v t="$1" -v n="$2" -v c="$3" -v d="$day" '
    NR > 1 && $1 == t { $2 += n; $3 = d; $4 += c; found = 1 }
    { print }
    END { if (!found) print t, n, d, c, 0 }' "$table" >"$table.new"
  mv "$table.new" "$table"
}

# README.md's table between its two marker lines, from executions.tsv.
write_readme_table() {
  local readme=$here/README.md rows
  rows=$(tail -n +2 "$table" | sort |
    awk -F'\t' '{ printf "| `%s` | %d | %s | %d | %d |\n", $1, $2, $3, $4, $5 }')
  awk -v rows="$rows" '
    /^<!-- executions:begin -->$/ { print; print "| target | executions | last long run | crashes found | fixed |";
                                    print "|---|---:|---|---:|---:|"; print rows; skip = 1; next }
    /^<!-- executions:end -->$/ { skip = 0 }
    !skip { print }' "$readme" >"$readme.new"
  mv "$readme.new" "$readme"
}

findings=$build/findings
failed=0
printf '%-24s %12s %8s %8s %8s\n' target execs exec/s merged crashes
for t in "${targets[@]}"; do
  binary=$build/tests/fuzz/fuzz_$t
  work=$build/long/$t
  out=$findings/$t
  mkdir -p "$work" "$out"
  [ -n "$(ls -A "$work")" ] || cp "$here/corpus/$t"/* "$work/"
  dict=()
  for d in "$here/$t.dict" "$here/${t%%_*}.dict"; do
    [ -f "$d" ] && { dict=(-dict="$d"); break; }
  done
  log=$out/long.txt
  stamp=$out/.long-started
  touch "$stamp"
  nice -n 19 "$binary" "${dict[@]}" -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=512 \
    -print_final_stats=1 -artifact_prefix="$out/" "$work" >"$log" 2>&1 || true
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  crashes=$(find "$out" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) \
    -newer "$stamp" | sort)
  n=$(printf '%s' "$crashes" | grep -c . || true)
  before=$(find "$here/corpus/$t" -type f | wc -l)
  nice -n 19 "$binary" -merge=1 "$here/corpus/$t" "$work" >"$out/merge.txt" 2>&1 || true
  merged=$(($(find "$here/corpus/$t" -type f | wc -l) - before))
  add_run "$t" "${execs:-0}" "$n"
  write_readme_table
  printf '%-24s %12s %8s %8s %8s\n' "$t" "${execs:-?}" "${rate:-?}" "$merged" "$n"
  if [ "$n" -gt 0 ]; then
    failed=1
    for c in $crashes; do echo "  crash input: $c"; done
    grep -m3 -E 'ERROR|SUMMARY|runtime error|property failed' "$log" | sed 's/^/  /' || true
  fi
done
exit "$failed"
