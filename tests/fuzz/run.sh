#!/usr/bin/env bash
# tests/fuzz/run.sh SECONDS [TARGET...]: build the libFuzzer targets with
# clang into build-fuzz (incrementally), then run each TARGET (default: all
# of tests/fuzz/corpus/*) for SECONDS on a scratch copy of its seed corpus,
# so the committed corpus never grows, with the dictionary TARGET.dict or
# FAMILY.dict (kestrel, libkestrel, flume, canal). Prints, per target, the executions,
# the coverage (libFuzzer's final cov:) and the crash count; a crash input
# is kept under build-fuzz/findings/TARGET/ and named. Exits 1 if any target
# crashed (or failed to run), 2 on bad usage.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/tests/fuzz
build=${QJT_FUZZ_BUILD:-$root/build-fuzz}

[[ $# -ge 1 && $1 =~ ^[0-9]+$ ]] || { echo "usage: $0 SECONDS [TARGET...]" >&2; exit 2; }
seconds=$1
shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for d in "$here"/corpus/*/; do targets+=("$(basename "$d")"); done
fi

cmake -S "$root" -B "$build" -DQJT_FUZZ=ON -DCMAKE_CXX_COMPILER="${CXX:-clang++}" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --target "${targets[@]/#/fuzz_}" -j "${QJT_JOBS:-$(nproc)}" >/dev/null

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
findings=$build/findings
failed=0
printf '%-24s %12s %8s %8s\n' target execs cov crashes
for t in "${targets[@]}"; do
  corpus=$scratch/$t
  out=$findings/$t
  mkdir -p "$corpus" "$out"
  cp "$here/corpus/$t"/* "$corpus/"
  dict=()
  for d in "$here/$t.dict" "$here/${t%%_*}.dict"; do  # the target's, else its family's
    [ -f "$d" ] && { dict=(-dict="$d"); break; }
  done
  log=$out/log.txt
  stamp=$out/.started
  touch "$stamp"
  rc=0
  "$build/tests/fuzz/fuzz_$t" "${dict[@]}" -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=512 \
    -print_final_stats=1 -artifact_prefix="$out/" "$corpus" >"$log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  crashes=$(find "$out" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) -newer "$stamp" | sort)
  n=$(printf '%s' "$crashes" | grep -c . || true)
  printf '%-24s %12s %8s %8s\n' "$t" "${execs:-?}" "${cov:-?}" "$n"
  if [ "$rc" -ne 0 ] || [ "$n" -gt 0 ]; then
    failed=1
    for c in $crashes; do echo "  crash input: $c"; done
    [ "$n" -eq 0 ] && echo "  fuzz_$t exited $rc without a crash file"
    grep -m3 -E 'ERROR|SUMMARY|runtime error|property failed' "$log" | sed 's/^/  /' || true
    echo "  log: $log"
  fi
done
exit "$failed"
