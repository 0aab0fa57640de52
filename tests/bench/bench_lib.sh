# bench_lib.sh: shell functions shared by the benchmarks in tests/bench
# (sourced, not run). The caller sets $runs (runs of each command) and
# $scratch (a directory for temporary files) before calling measure, and
# reads the $wall, $cpu and $rss it sets.
# shellcheck shell=bash disable=SC2034,SC2154

bench_name=$(basename "$0")
# The options every benchmark takes, at their defaults: --qjt (empty: build
# a Release binary), --scratch, --runs, --keep.
qjt=""
scratch_parent=/tmp
runs=3
keep=0

# shared_option ARGS...: takes the option of every benchmark at the head
# of ARGS (--qjt, --scratch, --runs, --keep; -h prints the caller's header
# and exits) and sets $shifted to the words it used, 0 for another one.
shared_option() {
  shifted=2
  case $1 in
    --qjt) qjt=$2 ;;
    --scratch) scratch_parent=$2 ;;
    --runs) runs=$2 ;;
    --keep) keep=1; shifted=1 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) shifted=0 ;;
  esac
}

# unknown_argument WORD: the usage error for what no option takes.
unknown_argument() {
  echo "$bench_name: unknown argument $1 (see --help)" >&2
  exit 2
}

# build_release ROOT: builds a Release qjt in ROOT/build-bench and prints
# its path.
build_release() {
  echo "== building the Release binary in $1/build-bench" >&2
  cmake -S "$1" -B "$1/build-bench" -DCMAKE_BUILD_TYPE=Release -DQJT_BUILD_TESTS=OFF >/dev/null
  cmake --build "$1/build-bench" -j "$(nproc)" --target qjt qjt_crc32_bench >/dev/null
  echo "$1/build-bench/qjt"
}

# setup_run: with $qjt (empty: build the Release binary in $root), $root,
# $scratch_parent and $keep set, checks $qjt, makes $scratch (deleted on
# exit unless $keep is 1) and prints what the run measures on.
setup_run() {
  [ -n "$qjt" ] || qjt=$(build_release "$root")
  [ -x "$qjt" ] || { echo "$bench_name: $qjt is not an executable" >&2; exit 2; }
  mkdir -p "$scratch_parent"
  scratch=$(mktemp -d "$scratch_parent/qjt-bench.XXXXXX")
  trap remove_scratch EXIT
  echo "== qjt: $qjt ($("$qjt" --version))"
  echo "== machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)"
  echo "== scratch: $scratch"
}

remove_scratch() { if [ "$keep" = 1 ]; then echo "scratch kept: $scratch"; else rm -rf "$scratch"; fi; }

# children_cpu: the user + system seconds of this shell's finished
# children so far (bash's `times`, second line), for when GNU time is
# missing. `times` runs in this shell, not in a pipeline's subshell, which
# has no children of its own.
children_cpu() {
  times >"$scratch/times"
  sed -n 2p "$scratch/times" | awk '{
    s = 0
    for (i = 1; i <= 2; i++) { split($i, p, "m"); sub("s", "", p[2]); s += p[1] * 60 + p[2] }
    printf "%.3f", s }'
}

# measure COMMAND [PREP] [STATUSES]: runs `bash -c "exec COMMAND"` $runs
# times, each after PREP (untimed); sets $wall (fastest run, seconds),
# $cpu (user+sys of that run, seconds) and $rss (largest peak RSS, KiB, by
# /usr/bin/time -f %M; "n/a" without GNU time). An exit status not in
# STATUSES (space-separated, default "0") aborts the benchmark: a command
# whose report finds the problem the input was made with (a channel
# without checkpoint) exits 1.
measure() {
  local best="" best_cpu="" peak=0 start end elapsed r c status
  for _ in $(seq "$runs"); do
    [ -n "${2:-}" ] && bash -c "$2"
    start=$(date +%s%N)
    status=0
    if [ -x /usr/bin/time ]; then
      /usr/bin/time -f '%M %U %S' -o "$scratch/time" bash -c "exec $1" || status=$?
    else
      children_cpu >"$scratch/cpu"
      bash -c "exec $1" || status=$?
    fi
    end=$(date +%s%N)
    if [[ " ${3:-0} " != *" $status "* ]]; then
      echo "$bench_name: failed (exit status $status): $1" >&2
      exit 1
    fi
    elapsed=$((end - start))
    if [ -x /usr/bin/time ]; then
      read -r r c < <(tail -n 1 "$scratch/time" | awk '{ print $1, $2 + $3 }')
    else
      children_cpu >"$scratch/cpu_after"
      r=0 c=$(awk '{ v[NR] = $1 } END { printf "%.3f", v[2] - v[1] }' "$scratch/cpu" "$scratch/cpu_after")
    fi
    if [ -z "$best" ] || [ "$elapsed" -lt "$best" ]; then best=$elapsed; best_cpu=$c; fi
    [ "$r" -gt "$peak" ] && peak=$r
  done
  wall=$(awk -v ns="$best" 'BEGIN { printf "%.3f", ns / 1e9 }')
  cpu=$best_cpu
  if [ -x /usr/bin/time ]; then rss=$peak; else rss=n/a; fi
}

mib() { if [ "$1" = n/a ]; then echo n/a; else awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; fi; }
mbps() { awk -v b="$1" -v s="$2" 'BEGIN { printf "%.0f", (s > 0) ? b / 1e6 / s : 0 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }'; }
ratio4() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", a / b }'; }  # for the progress line's cost

# check DESCRIPTION VALUE LIMIT: appends "met" or "MISSED" to $verdicts
# (an array the caller declares); a value of n/a is "not measured".
check() {
  if [ "$2" = n/a ]; then
    verdicts+=("n/a:    $1: not measured (no /usr/bin/time)")
  elif awk -v v="$2" -v l="$3" 'BEGIN { exit !(v <= l) }'; then
    verdicts+=("met:    $1: $2 (limit $3)")
  else
    verdicts+=("MISSED: $1: $2 (limit $3)")
  fi
}
