#!/usr/bin/env bash
# bench.sh: throughput and memory of qjt on large Flume channels, libkestrel
# queues and Canal cursor logs made by `qjt gen` (issue 16's targets). Not
# a ctest test: run it by hand (README.md, "Benchmarks"). Classic Kestrel
# has its own, kestrel_bench.sh.
#
#   tests/bench/bench.sh [--qjt PATH] [--events N] [--payload-size S]
#                        [--runs N] [--scratch DIR] [--keep] flume|libkestrel|canal
#
#   --qjt PATH          the qjt binary to measure (default: build a Release
#                       binary in build-bench/ and use it)
#   --events N          events put (flume), items (libkestrel), updates
#                       (canal) (default 1000000)
#   --payload-size S    event or item payload bytes, N or MIN-MAX (default
#                       1K; flume and libkestrel)
#   --runs N            runs of each command; the fastest wall time and the
#                       largest peak RSS are reported (default 3)
#   --scratch DIR       where the inputs go, in a fresh subdirectory that is
#                       deleted at the end (default /tmp)
#   --keep              keep the scratch directory
#
# It generates the inputs with `qjt gen FAMILY --seed 1`, warms the page
# cache, times `cat` over the same files, and reports for each command:
# wall time, CPU time (user + sys), throughput (MB/s, 10^6 bytes of input
# per second), peak RSS (/usr/bin/time -f %M; n/a without GNU time) and
# the ratio to cat, or for a command that writes, to `cp` of what it reads
# followed by `sync` of the copy (the writers fsync):
#   flume       the CRC-32 of 1 KiB and 1 MiB bodies, zlib's crc32_z and
#               libdeflate's (lib/crc32.h), in GB/s (qjt_crc32_bench);
#               verify of the first data log (against cat of that log);
#               verify, replay (text, and --json --data=none) and the
#               repair --rebuild-checkpoint plan of the channel from its
#               checkpoint, and as a full replay (a
#               copy of the channel with the checkpoint dir emptied)
#               (against cat over the channel's files);
#               repair --rebuild-checkpoint --apply of the copy (against cp
#               + sync of the channel) and convert --to flume-v3 --apply of
#               a V2 channel's checkpoint (against cp + sync of that
#               channel: it verifies the channel after the change)
#   libkestrel  verify and replay of a queue of 4 segments whose reader is
#               half way (against cat), compact of a copy (against cp +
#               sync of the queue)
#   canal       verify of meta.dat and meta.log, replay of meta.log
# Ends with issue 16's and 41's targets for the family, each marked met or
# MISSED (Canal has none): for Flume, the readers within 2.5x cat, the
# rebuild plan within 3x, the writers within 3x cp + sync, peak RSS at
# most 64 MiB + 40 B per queued event, and the moonshot, the rebuild
# --apply of a million events in about 2 s (scaled to --events) under 128
# MiB. --events 10000000 is issue 41's big channel (10 GB of logs).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/bench/bench_lib.sh"
events=1000000
payload=1K
family=""
while [ $# -gt 0 ]; do
  shared_option "$@"
  [ "$shifted" -gt 0 ] && { shift "$shifted"; continue; }
  case $1 in
    --events) events=$2; shift 2 ;;
    --payload-size) payload=$2; shift 2 ;;
    flume|libkestrel|canal) family=$1; shift ;;
    *) unknown_argument "$1" ;;
  esac
done
[ -n "$family" ] || { echo "bench.sh: name the family: flume, libkestrel or canal (see --help)" >&2; exit 2; }

[ -x /usr/bin/time ] || echo "bench.sh: no /usr/bin/time (GNU time, package time): peak RSS is not measured" >&2
setup_run

declare -A ratios
verdicts=()
peak_rss=0  # the largest peak RSS (KiB) of the family's qjt commands

# bytes_of PATH...: the bytes of the files under PATHs.
bytes_of() { find "$@" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'; }
# files_of PATH...: the files under PATHs, quoted for bash -c.
files_of() { find "$@" -type f -printf "'%p' "; }

table_header() {  # table_header BASELINE
  echo
  echo "| input | command | wall (s) | CPU (s) | MB/s | peak RSS (MiB) | vs $1 |"
  echo "|---|---|---:|---:|---:|---:|---:|"
}

# row LABEL COMMAND-NAME BYTES BASE-WALL [KEY]: prints the last measure's
# row; with KEY, keeps its ratio in ratios[KEY] and counts its RSS.
row() {
  local r
  r=$(ratio "$wall" "$4")
  echo "| $1 | \`$2\` | $wall | $cpu | $(mbps "$3" "$wall") | $(mib "$rss") | $r |"
  if [ -n "${5:-}" ]; then
    ratios[$5]=$r
    [ "$rss" != n/a ] && [ "$rss" -gt "$peak_rss" ] && peak_rss=$rss
  fi
  return 0
}

# cat_baseline LABEL PATH...: warms the page cache with the files under
# PATHs, times cat over them; sets $base and $base_bytes.
cat_baseline() {
  local label=$1
  shift
  base_bytes=$(bytes_of "$@")
  eval "cat $(files_of "$@") > /dev/null"
  measure "cat $(files_of "$@") > /dev/null"
  base=$wall
  row "$label" "cat > /dev/null" "$base_bytes" "$base"
}

# cp_baseline LABEL SOURCE-DIR: times cp -r of SOURCE-DIR and sync of
# every copied file; sets $base and $base_bytes.
cp_baseline() {
  base_bytes=$(bytes_of "$2")
  measure "sh -c \"cp -r '$2' '$scratch/copy' && find '$scratch/copy' -type f -exec sync {} +\"" \
    "rm -rf '$scratch/copy'"
  base=$wall
  row "$1" "cp -r && sync" "$base_bytes" "$base"
  rm -rf "$scratch/copy"
}

# read_limit: issue 16's limit on a reader's ratio to cat for $payload: 2.5
# with 1 KiB payloads and more, else 5 (100-byte payloads).
read_limit() {
  local smallest=${payload%%-*}
  smallest=$(numfmt --from=iec "$smallest")
  if [ "$smallest" -ge 1024 ]; then echo 2.5; else echo 5; fi
}

# ---- Flume ------------------------------------------------------------------
bench_flume() {
  local ch=$scratch/channel full=$scratch/full v2=$scratch/v2 w=$scratch/work capacity queued log label
  local apply_wall apply_rss
  echo
  echo "== generating a Flume channel: $events events of $payload bytes, V3 checkpoint"
  "$qjt" gen flume -o "$ch" --records "$events" --payload-size "$payload" --seed 1 --json >"$scratch/gen.json"
  jq -r '"  \(.bytes) bytes of logs in \(.files | length) file(s), \(.records) records, \(.queued) events queued"' "$scratch/gen.json"
  capacity=$(jq -r .capacity "$scratch/gen.json")
  queued=$(jq -r .queued "$scratch/gen.json")
  log=$ch/data1/log-1
  cp -r "$ch" "$full"
  rm -f "$full"/checkpoint/*
  echo "== the same channel as a V2 checkpoint, for convert --to flume-v3"
  "$qjt" gen flume -o "$v2" --records "$events" --payload-size "$payload" --checkpoint-version 2 --seed 1 >/dev/null

  # The CRC-32 of every body: zlib's against the one qjt takes.
  local crc_bench
  crc_bench=$(dirname "$qjt")/qjt_crc32_bench
  [ -x "$crc_bench" ] || cmake --build "$(dirname "$qjt")" --target qjt_crc32_bench >/dev/null 2>&1 || true
  if [ -x "$crc_bench" ]; then "$crc_bench"; else echo "crc32: $crc_bench not built (cmake --build DIR --target qjt_crc32_bench)"; fi

  table_header cat
  label="log-1, $(bytes_of "$log") B"
  cat_baseline "$label" "$log"
  measure "'$qjt' verify '$log' > /dev/null"
  row "$label" "qjt verify log-1" "$base_bytes" "$base" "verify log"

  label="channel, $events events"
  cat_baseline "$label" "$ch"
  local dirs="--checkpoint-dir '$ch/checkpoint' --data-dir '$ch/data1'"
  measure "'$qjt' verify $dirs > /dev/null"
  row "$label" "qjt verify" "$base_bytes" "$base" "verify channel"
  measure "'$qjt' replay $dirs > /dev/null"
  row "$label" "qjt replay" "$base_bytes" "$base" "replay channel"
  measure "'$qjt' replay --json --data=none $dirs > /dev/null"
  row "$label" "qjt replay --json --data=none" "$base_bytes" "$base" "replay --json --data=none"
  measure "'$qjt' repair --rebuild-checkpoint $dirs > /dev/null" "" "0 1"
  row "$label" "qjt repair --rebuild-checkpoint (plan)" "$base_bytes" "$base" "rebuild plan"

  label="no checkpoint (full replay)"
  dirs="--checkpoint-dir '$full/checkpoint' --data-dir '$full/data1'"
  measure "'$qjt' verify $dirs > /dev/null 2>&1" "" "0 1"
  row "$label" "qjt verify" "$base_bytes" "$base" "verify, full replay"
  measure "'$qjt' replay $dirs > /dev/null 2>&1" "" "0 1"
  row "$label" "qjt replay" "$base_bytes" "$base" "replay, full replay"
  measure "'$qjt' repair --rebuild-checkpoint --capacity $capacity $dirs > /dev/null 2>&1" "" "0 1"
  row "$label" "qjt repair --rebuild-checkpoint (plan)" "$base_bytes" "$base" "rebuild plan, full replay"

  table_header "cp + sync"
  label="channel, $events events"
  cp_baseline "$label" "$full"
  dirs="--checkpoint-dir '$w/checkpoint' --data-dir '$w/data1'"
  measure "'$qjt' repair --rebuild-checkpoint --capacity $capacity --apply --no-backup $dirs > /dev/null 2>&1" \
    "rm -rf '$w' && cp -r '$full' '$w'" "0 1"
  row "$label" "qjt repair --rebuild-checkpoint --apply" "$base_bytes" "$base" "rebuild apply"
  apply_wall=$wall apply_rss=$rss
  label="V2 channel, $events events"
  cp_baseline "$label" "$v2"
  measure "'$qjt' convert --to flume-v3 $dirs --apply > /dev/null 2>&1" \
    "rm -rf '$w' && cp -r '$v2' '$w'"
  row "$label" "qjt convert --to flume-v3 --apply" "$base_bytes" "$base" "convert apply"
  rm -rf "$w"

  local limit name
  limit=$(read_limit)
  for name in "verify log" "verify channel" "replay channel" "replay --json --data=none" \
    "verify, full replay" "replay, full replay"; do
    check "$name, $payload payloads, x cat" "${ratios[$name]}" "$limit"
  done
  # Issue 41: the rebuild plan within 3x cat.
  for name in "rebuild plan" "rebuild plan, full replay"; do
    check "$name, $payload payloads, x cat" "${ratios[$name]}" 3
  done
  check "repair --rebuild-checkpoint --apply, x cp + sync" "${ratios["rebuild apply"]}" 3
  check "convert --to flume-v3 --apply, x cp + sync" "${ratios["convert apply"]}" 3
  check_rss 40 "$queued" "queued event"
  # Issue 41's moonshot: a checkpoint rebuilt and installed for a million
  # 1 KiB events in about 2 s and under 128 MiB (scaled to --events).
  check "moonshot: repair --rebuild-checkpoint --apply of $events events, s" "$apply_wall" \
    "$(awk -v n="$events" 'BEGIN { printf "%.2f", 2 * n / 1000000 }')"
  check "moonshot: its peak RSS MiB" "$(mib "$apply_rss")" 128
}

# check_rss BYTES-PER COUNT WHAT: issue 16's memory target, 64 MiB plus
# BYTES-PER bytes per COUNT WHATs, against the largest peak RSS.
check_rss() {
  local limit
  limit=$(awk -v b="$1" -v n="$2" 'BEGIN { printf "%.1f", 64 + b * n / 1048576 }')
  if [ "$peak_rss" = 0 ] && [ ! -x /usr/bin/time ]; then
    check "peak RSS MiB ($2 ${3}s)" n/a "$limit"
  else
    check "peak RSS MiB, 64 MiB + $1 B per $3 ($2)" "$(mib "$peak_rss")" "$limit"
  fi
}

# ---- libkestrel ---------------------------------------------------------------
bench_libkestrel() {
  local q=$scratch/queue w=$scratch/work pending label
  echo
  echo "== generating a libkestrel queue: $events items of $payload bytes in 4 segments, the reader half way"
  "$qjt" gen libkestrel -o "$q" --records "$events" --payload-size "$payload" --segments 4 \
    --reader "=$((events / 2))" --seed 1 --json >"$scratch/gen.json"
  jq -r '"  \(.bytes) bytes of segments, \(.items) items, \(.readers[0].pending) pending"' "$scratch/gen.json"
  pending=$(jq -r '.readers[0].pending' "$scratch/gen.json")

  table_header cat
  label="queue, $events items"
  cat_baseline "$label" "$q"
  measure "'$qjt' verify '$q' > /dev/null"
  row "$label" "qjt verify" "$base_bytes" "$base" verify
  measure "'$qjt' replay '$q' > /dev/null"
  row "$label" "qjt replay" "$base_bytes" "$base" replay

  table_header "cp + sync"
  cp_baseline "$label" "$q"
  measure "'$qjt' compact --no-backup '$w' > /dev/null" "rm -rf '$w' && cp -r '$q' '$w'"
  row "$label" "qjt compact" "$base_bytes" "$base" compact
  rm -rf "$w"

  local limit
  limit=$(read_limit)
  check "verify, $payload payloads, x cat" "${ratios[verify]}" "$limit"
  check "replay, $payload payloads, x cat" "${ratios[replay]}" "$limit"
  check "compact, x cp + sync" "${ratios[compact]}" 3
  check_rss 32 "$pending" "pending item"
}

# ---- Canal --------------------------------------------------------------------
bench_canal() {
  local c=$scratch/canal dat log label
  echo
  echo "== generating Canal cursors: $events updates of 2 clients"
  "$qjt" gen canal -o "$c" --records "$events" --seed 1 --json >"$scratch/gen.json"
  jq -r '"  meta.log \(.meta_log_bytes) bytes, meta.dat \(.meta_dat_bytes) bytes, \(.updates) updates"' "$scratch/gen.json"
  dat=$(jq -r .meta_dat "$scratch/gen.json")
  log=$(jq -r .meta_log "$scratch/gen.json")
  case $dat in /*) ;; *) dat=$PWD/$dat log=$PWD/$log ;; esac

  table_header cat
  label="meta.dat + meta.log, $events updates"
  cat_baseline "$label" "$dat" "$log"
  measure "'$qjt' verify '$dat' '$log' > /dev/null"
  row "$label" "qjt verify" "$base_bytes" "$base" verify
  label="meta.log, $events updates"
  cat_baseline "$label" "$log"
  measure "'$qjt' replay '$log' > /dev/null"
  row "$label" "qjt replay" "$base_bytes" "$base" replay
}

"bench_$family"
echo
echo "== targets"
if [ ${#verdicts[@]} -eq 0 ]; then
  echo "issue 16 sets none for $family"
else
  printf '%s\n' "${verdicts[@]}"
fi
