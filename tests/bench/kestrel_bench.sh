#!/usr/bin/env bash
# kestrel_bench.sh: throughput and memory of qjt on large classic Kestrel
# journals made by `qjt gen`. Not a ctest test: run it by hand (README.md,
# "Benchmarks").
#
#   tests/bench/kestrel_bench.sh [--qjt PATH] [--scratch DIR] [--runs N]
#                                [--size SIZE] [--records N] [--live N] [--keep]
#
#   --qjt PATH     the qjt binary to measure (default: build a Release
#                  binary in build-bench/ and use it)
#   --scratch DIR  where the journals go, in a fresh subdirectory that is
#                  deleted at the end (default /tmp; about 4 GiB are needed)
#   --runs N       runs of each command; the fastest wall time and the
#                  largest peak RSS are reported (default 3)
#   --size SIZE    size of the two throughput journals (default 1G)
#   --records N, --live N
#                  the replay-memory journal: N records of which N items
#                  stay queued (default 10000000 and 1000000)
#   --keep         keep the scratch directory
#
# For each journal (1 KiB payloads, then 100-byte payloads) it warms the
# page cache, times `cat FILE > /dev/null`, and reports for `qjt verify`,
# `qjt replay` and `qjt dump --json > /dev/null`: wall time, throughput
# (MB/s, 10^6 bytes per second), peak RSS (/usr/bin/time -f %M) and the
# ratio to cat; then the progress line's cost: `qjt verify` of the
# 100-byte journal with the line forced on against --no-progress, in
# alternating runs (wall and CPU time, and instructions by perf or valgrind).
# Then the peak RSS of `qjt replay` on the 10M-record,
# 1M-live-item journal, and `qjt compact -o` of all three journals against
# `cp` (and, for scale, `cp` + `sync OUT`, since compact fsyncs). Then
# streams: `qjt verify` and `qjt dump` of /dev/zero, `qjt verify` of
# /dev/urandom and of 1 GiB of random bytes piped in, and `qjt verify` and
# `qjt dump --json` of a 256 MiB journal piped in (wall time and peak RSS;
# targets: a finding within a second from a device, and at most 64 MiB).
# Ends with the issues' targets, each marked met or MISSED.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/bench/bench_lib.sh"
size=1G
records=10000000
live=1000000
while [ $# -gt 0 ]; do
  shared_option "$@"
  [ "$shifted" -gt 0 ] && { shift "$shifted"; continue; }
  case $1 in
    --size) size=$2; shift 2 ;;
    --records) records=$2; shift 2 ;;
    --live) live=$2; shift 2 ;;
    *) unknown_argument "$1" ;;
  esac
done

# ---- tools ------------------------------------------------------------------
if [ ! -x /usr/bin/time ]; then
  echo "== installing GNU time (/usr/bin/time)"
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd=sudo
  $sudo_cmd apt-get install -y time >/dev/null
fi
setup_run

# ---- measuring: measure, mib, mbps, ratio, ratio4 and check (bench_lib.sh) --

table_header() {
  echo
  echo "| journal | command | wall (s) | CPU (s) | MB/s | peak RSS (MiB) | vs cat |"
  echo "|---|---|---:|---:|---:|---:|---:|"
}

declare -A ratios
verdicts=()

# bench_file LABEL FILE
bench_file() {
  local label=$1 file=$2 bytes cat_wall
  bytes=$(stat -c %s "$file")
  cat "$file" >/dev/null  # warm the page cache
  measure "cat '$file' > /dev/null"
  cat_wall=$wall
  echo "| $label | \`cat > /dev/null\` | $wall | $cpu | $(mbps "$bytes" "$wall") | $(mib "$rss") | 1.00 |"
  local name cmd
  for name in verify replay "dump --json"; do
    cmd="'$qjt' $name '$file' > /dev/null"
    measure "$cmd"
    ratios["$label/$name"]=$(ratio "$wall" "$cat_wall")
    echo "| $label | \`qjt $name\` | $wall | $cpu | $(mbps "$bytes" "$wall") | $(mib "$rss") | ${ratios["$label/$name"]} |"
  done
}

# ---- 1. throughput on two journals of $size -----------------------------------
echo
echo "== generating two $size journals (1 KiB and 100-byte payloads, half of the items removed)"
"$qjt" gen kestrel -o "$scratch/kib" --size "$size" --payload-size 1K --seed 1 --json |
  jq -r '"  kib: \(.bytes) bytes, \(.records) records, \(.queue_length) items queued"'
"$qjt" gen kestrel -o "$scratch/small" --size "$size" --payload-size 100 --seed 1 --json |
  jq -r '"  small: \(.bytes) bytes, \(.records) records, \(.queue_length) items queued"'

table_header
bench_file "$size, 1 KiB payloads" "$scratch/kib"
bench_file "$size, 100 B payloads" "$scratch/small"

# ---- 1b. the cost of the progress line ----------------------------------------
# QJT_PROGRESS=always draws it on a non-terminal standard error too, so the
# same verify runs with progress forced on and with --no-progress, in
# alternating runs so that both see the same load: the fastest wall time
# and the least CPU time of each (perf stat's task-clock, else
# /usr/bin/time's user + sys, which counts in 10 ms steps). And the
# instructions each executes, which hardly depend on the machine's load,
# so they show a cost that a busy machine's times hide: perf stat's count
# where the machine has the counter (a virtual machine often has not),
# else valgrind's (cachegrind's "I refs", one run each, some 40 times
# slower). The target: under 1% more with progress on, by instructions and
# by CPU time.
# progress_command MODE: sets $setting (QJT_PROGRESS=...) and the array
# $command to the verify with progress MODE (on or off); a tool runs as
# `env "$setting" TOOL "${command[@]}"`, so that it measures qjt, not env.
progress_command() {
  if [ "$1" = on ]; then
    setting=QJT_PROGRESS=always command=("$qjt" verify "$scratch/small")
  else
    setting=QJT_PROGRESS=never command=("$qjt" verify --no-progress "$scratch/small")
  fi
}

# progress_run MODE: one verify with progress MODE; sets $run_wall and
# $run_cpu (seconds).
progress_run() {
  local setting command start end
  progress_command "$1"
  start=$(date +%s%N)
  if [ -n "$perf_clock" ]; then
    # perf stat -x, writes VALUE,UNIT,EVENT,... for each event to -o.
    env "$setting" perf stat -x, -e task-clock -o "$scratch/perf" "${command[@]}" >/dev/null 2>&1 ||
      { echo "kestrel_bench.sh: verify failed" >&2; exit 1; }
    end=$(date +%s%N)
    run_cpu=$(awk -F, '$3 ~ /^task-clock/ { printf "%.4f", $1 / 1000 }' "$scratch/perf")
  else
    env "$setting" /usr/bin/time -f '%U %S' -o "$scratch/time" "${command[@]}" >/dev/null 2>&1 ||
      { echo "kestrel_bench.sh: verify failed" >&2; exit 1; }
    end=$(date +%s%N)
    run_cpu=$(tail -n 1 "$scratch/time" | awk '{ printf "%.2f", $1 + $2 }')
  fi
  run_wall=$(awk -v ns="$((end - start))" 'BEGIN { printf "%.4f", ns / 1e9 }')
}

# progress_instructions MODE: the instructions of one verify with progress
# MODE, by $instructions_tool; nothing without one.
progress_instructions() {
  local setting command
  progress_command "$1"
  case $instructions_tool in
    perf)
      env "$setting" perf stat -x, -e instructions -o "$scratch/perf" "${command[@]}" >/dev/null 2>&1
      awk -F, '$3 ~ /^instructions/ { print $1 }' "$scratch/perf" ;;
    valgrind)
      env "$setting" valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "${command[@]}" 2>&1 >/dev/null |
        awk '/I +refs:/ { gsub(",", "", $NF); print $NF }' ;;
  esac
}

perf_clock="" instructions_tool=""
if command -v perf >/dev/null && perf stat -e task-clock -o /dev/null true 2>/dev/null; then
  perf_clock=yes
  perf stat -x, -e instructions true 2>&1 >/dev/null | grep -q '^[0-9]' && instructions_tool=perf
fi
[ -z "$instructions_tool" ] && command -v valgrind >/dev/null && instructions_tool=valgrind
echo
echo "== progress line: verify with QJT_PROGRESS=always against --no-progress (100-byte payloads," \
  "$((runs * 2)) alternating runs of each; CPU time by $([ -n "$perf_clock" ] && echo perf stat || echo /usr/bin/time)," \
  "instructions by ${instructions_tool:-nothing})"
declare -A best_wall best_cpu instructions
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }'; }
for _ in $(seq $((runs * 2))); do
  for mode in off on; do
    progress_run "$mode"
    best_wall[$mode]=$(min "${best_wall[$mode]:-}" "$run_wall")
    best_cpu[$mode]=$(min "${best_cpu[$mode]:-}" "$run_cpu")
  done
done
for mode in off on; do instructions[$mode]=$(progress_instructions "$mode"); done
percent() { [ -n "$1" ] && awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.2f%%", 100 * (a / b - 1) }' || echo n/a; }
echo
echo "| progress | wall (s) | CPU (s) | instructions |"
echo "|---|---:|---:|---:|"
for mode in off on; do
  echo "| $mode | ${best_wall[$mode]} | ${best_cpu[$mode]} | ${instructions[$mode]:-n/a} |"
done
echo "| on vs off | $(percent "${best_wall[on]}" "${best_wall[off]}") | $(percent "${best_cpu[on]}" "${best_cpu[off]}") |" \
  "$(percent "${instructions[on]}" "${instructions[off]}") |"
ratios[progress_cpu]=$(ratio4 "${best_cpu[on]}" "${best_cpu[off]}")
[ -n "${instructions[on]}" ] && ratios[progress_instructions]=$(ratio4 "${instructions[on]}" "${instructions[off]}")

# ---- 2. replay memory: $records records, $live items queued -------------------
echo
echo "== generating $records records with $live items queued (100-byte payloads)"
"$qjt" gen kestrel -o "$scratch/live" --records "$records" --live "$live" --payload-size 100 --seed 1 --json |
  jq -r '"  live: \(.bytes) bytes, \(.records) records, \(.queue_length) items queued"'
live_bytes=$(stat -c %s "$scratch/live")
cat "$scratch/live" >/dev/null
measure "'$qjt' replay '$scratch/live' > /dev/null"
replay_live_rss=$rss
table_header
echo "| $records records, $live live | \`qjt replay\` | $wall | $cpu | $(mbps "$live_bytes" "$wall") | $(mib "$rss") | |"

# ---- 3. compaction ----------------------------------------------------------
# `qjt compact` fsyncs what it writes and `cp` does not, so `cp` followed
# by `sync OUT` (an fsync of the copy) is shown too, for scale; the target
# is against plain `cp`.
echo
echo "== compact (qjt compact -o OUT FILE) against cp FILE OUT"
echo
echo "| journal | command | wall (s) | CPU (s) | MB/s | peak RSS (MiB) | vs cp |"
echo "|---|---|---:|---:|---:|---:|---:|"
for label in kib small live; do
  file=$scratch/$label
  bytes=$(stat -c %s "$file")
  measure "cp '$file' '$scratch/out'" "rm -f '$scratch/out'"
  cp_wall=$wall
  echo "| $label | \`cp\` | $wall | $cpu | $(mbps "$bytes" "$wall") | $(mib "$rss") | 1.00 |"
  measure "sh -c \"cp '$file' '$scratch/out' && sync '$scratch/out'\"" "rm -f '$scratch/out'"
  echo "| $label | \`cp && sync OUT\` | $wall | $cpu | $(mbps "$bytes" "$wall") | $(mib "$rss") | $(ratio "$wall" "$cp_wall") |"
  measure "'$qjt' compact -o '$scratch/out' '$file' > /dev/null" "rm -f '$scratch/out'"
  ratios["compact/$label"]=$(ratio "$wall" "$cp_wall")
  echo "| $label | \`qjt compact -o\` | $wall | $cpu | $(mbps "$bytes" "$wall") | $(mib "$rss") | ${ratios["compact/$label"]} |"
done
rm -f "$scratch/out"

# ---- 4. streams ---------------------------------------------------------------
# A stream is decoded as it is read: /dev/zero and random bytes end at their
# first broken record, and a journal piped in is verified and dumped in
# memory that does not grow with it (issue 24). Piped through `cat`, so
# that qjt reads a pipe, not a file on standard input.
echo
echo "== streams: devices, random bytes and a 256 MiB journal piped in"
head -c 1G /dev/urandom > "$scratch/random"
"$qjt" gen kestrel -o "$scratch/piped" --size 256M --payload-size 100 --seed 1 >/dev/null
echo
echo "| stream | command | wall (s) | CPU (s) | peak RSS (MiB) |"
echo "|---|---|---:|---:|---:|"
stream_row() {  # KEY LABEL COMMAND EXIT-STATUSES
  measure "$3" "" "$4"
  stream_wall[$1]=$wall stream_rss[$1]=$rss
  echo "| $2 | \`${3//\'/}\` | $wall | $cpu | $(mib "$rss") |"
}
declare -A stream_wall stream_rss
stream_row zero_verify /dev/zero "'$qjt' verify /dev/zero > /dev/null 2>&1" "1"
stream_row zero_dump /dev/zero "'$qjt' dump /dev/zero > /dev/null 2>&1" "1"
stream_row urandom_verify /dev/urandom "'$qjt' verify /dev/urandom > /dev/null 2>&1" "1 3"
stream_row random_verify "1 GiB of random bytes, piped" \
  "sh -c \"cat '$scratch/random' | '$qjt' verify - > /dev/null 2>&1\"" "1 3"
stream_row piped_verify "256 MiB journal, piped" "sh -c \"cat '$scratch/piped' | '$qjt' verify - > /dev/null\""
stream_row piped_dump "256 MiB journal, piped" "sh -c \"cat '$scratch/piped' | '$qjt' dump --json - > /dev/null\""
rm -f "$scratch/random" "$scratch/piped"

# ---- 5. targets ---------------------------------------------------------------
check "verify, 1 KiB payloads, x cat" "${ratios["$size, 1 KiB payloads/verify"]}" 2
check "replay, 1 KiB payloads, x cat" "${ratios["$size, 1 KiB payloads/replay"]}" 2
check "verify, 100 B payloads, x cat" "${ratios["$size, 100 B payloads/verify"]}" 4
check "replay, 100 B payloads, x cat" "${ratios["$size, 100 B payloads/replay"]}" 4
check "replay, $records records / $live live, peak RSS MiB" "$(mib "$replay_live_rss")" 100
check "verify with progress on, x progress off, CPU time" "${ratios[progress_cpu]}" 1.01
[ -n "${ratios[progress_instructions]:-}" ] &&
  check "verify with progress on, x progress off, instructions" "${ratios[progress_instructions]}" 1.01
check "compact, 1 KiB payloads, x cp" "${ratios["compact/kib"]}" 3
check "compact, 100 B payloads, x cp" "${ratios["compact/small"]}" 3
check "compact, $records records / $live live, x cp" "${ratios["compact/live"]}" 3
for key in zero_verify zero_dump urandom_verify; do
  check "$key, wall s" "${stream_wall[$key]}" 1
done
for key in zero_verify zero_dump urandom_verify random_verify piped_verify piped_dump; do
  check "$key, peak RSS MiB" "$(mib "${stream_rss[$key]}")" 64
done
echo
echo "== targets"
printf '%s\n' "${verdicts[@]}"
