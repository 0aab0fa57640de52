#!/usr/bin/env bash
# Streams: standard input, FIFOs and devices are read once, with bounded
# memory, and never hang or abort.
#  - An endless stream (/dev/zero, as a path and on standard input, under
#    every --format and every reading command) is either decoded as it is
#    read, ending at its first broken record with exit 1 (classic Kestrel,
#    the family of streams), or stops at --max-input with an
#    input_too_large finding (text and --json) and exit 3, within a
#    virtual-memory limit far below what reading it whole would take.
#  - A journal piped in is verified and dumped in memory that does not
#    grow with its length.
#  - Random bytes on standard input end as a BROKEN record, not a crash.
#  - A FIFO is read to its end once and never opened again: a second open
#    would wait for a writer that never comes (`timeout` turns that
#    regression into a failure instead of a hang).
set -uo pipefail
QJT=$1 DATA=$2 WORK=$3
source "$(dirname "$0")/../check.sh"
rm -rf "$WORK"; mkdir -p "$WORK"
MEMORY_KB=$((512 * 1024))  # far above qjt's needs, far below an unbounded read
# AddressSanitizer reserves terabytes of address space for its shadow: under
# it, the time limit stays and the memory limit goes (ASan checks the rest).
if grep -qa __asan_init "$QJT"; then
  qjt_bounded() { timeout 60 "$QJT" "$@"; }
else
  qjt_bounded() { (ulimit -v $MEMORY_KB; timeout 30 "$QJT" "$@"); }
fi

formats="auto kestrel libkestrel canal canal-meta-dat canal-meta-log flume flume-checkpoint flume-checkpoint-meta
         flume-inflight flume-log-v2 flume-log-v3 flume-log-meta flume-snappy flume-backup-complete"
for cmd in dump verify replay; do
  for format in $formats; do
    for source in path stdin; do
      name="$cmd --format $format /dev/zero ($source)"
      if [ $source = path ]; then
        err=$(qjt_bounded $cmd --format $format --max-input 1M /dev/zero 2>&1); rc=$?
      else
        err=$(qjt_bounded $cmd --format $format --max-input 1M - < /dev/zero 2>&1); rc=$?
      fi
      # A usage error (a command the format does not answer) is fine too,
      # as long as nothing was read endlessly.
      if [ $rc -eq 2 ]; then
        echo "ok: $name (usage: $err)"
      elif [[ $format = auto || $format = kestrel ]] && [ $rc -eq 1 ] && grep -q ':0: error\[broken_record\]' <<< "$err"; then
        echo "ok: $name (decoded as read: broken at offset 0)"
      elif [ $rc -eq 3 ] && grep -q 'error\[input_too_large\]' <<< "$err" && grep -q ':1048576: ' <<< "$err"; then
        echo "ok: $name"
      else
        echo "FAILED: $name: exit $rc: $err"; failures=$((failures + 1))
      fi
    done
  done
done
for cmd in "convert --to jsonl" "convert --to kestrel -o $WORK/out" "compact -o $WORK/out" "repair"; do
  err=$(qjt_bounded $cmd --max-input 64K - < /dev/zero 2>&1 >/dev/null); rc=$?
  if [ $rc -eq 2 ] || { [ $rc -eq 3 ] && grep -q 'input_too_large\|File too large' <<< "$err"; } ||
    { [ $rc -eq 1 ] && grep -q 'broken_record' <<< "$err"; }; then
    echo "ok: $cmd - < /dev/zero (exit $rc)"
  else
    echo "FAILED: $cmd - < /dev/zero: exit $rc: $err"; failures=$((failures + 1))
  fi
done

json=$(qjt_bounded verify --json /dev/zero); rc=$?
check "verify --json /dev/zero: exit" 1 "$rc"
check "verify --json /dev/zero: the finding" '{"severity":"error","code":"broken_record","file":"/dev/zero","offset":0}' \
  "$(jq -c '.findings[] | {severity, code, file, offset}' <<< "$json")"
json=$(qjt_bounded verify --json --format flume-log-v3 --max-input 64K /dev/zero); rc=$?
check "verify --json --format flume-log-v3 /dev/zero: exit" 3 "$rc"
check "verify --json --format flume-log-v3 /dev/zero: the finding" \
  '{"severity":"error","code":"input_too_large","file":"/dev/zero","offset":65536}' \
  "$(jq -c '.findings[] | {severity, code, file, offset}' <<< "$json")"
check "--max-input takes sizes only" 2 "$("$QJT" dump --max-input lots /dev/zero >/dev/null 2>&1; echo $?)"
# Exactly the limit is not too much; one byte more is.
head -c 4096 "$DATA/kestrel/sample/orders" > "$WORK/orders-4k"
size=$(stat -c %s "$WORK/orders-4k")
check "a stream of exactly --max-input bytes is read" 0 \
  "$(cat "$WORK/orders-4k" | "$QJT" dump --max-input "$size" - > /dev/null 2>&1; echo $?)"
check "one byte more is input_too_large" 3 \
  "$(cat "$WORK/orders-4k" | "$QJT" dump --max-input $((size - 1)) - > /dev/null 2>&1; echo $?)"

head -c 20M /dev/urandom > "$WORK/random"
out=$(qjt_bounded dump - < "$WORK/random" 2>/dev/null); rc=$?
check "dump of random bytes on standard input: exit" 1 "$rc"
check "dump of random bytes on standard input: a BROKEN record" 1 "$(grep -c BROKEN <<< "$out")"
# Random bytes break at once, or (when their sizes happen to hold) at the limit.
err=$(qjt_bounded verify --max-input 1M /dev/urandom 2>&1); rc=$?
check "verify /dev/urandom --max-input 1M: a finding, exit 1 or 3" 1 \
  "$({ [ $rc -eq 1 ] || [ $rc -eq 3 ]; } && grep -c 'broken_record\|input_too_large' <<< "$err" | sed 's/^[1-9][0-9]*$/1/')"

# A journal piped in is decoded as it arrives and let go of behind the
# reader: 256 MiB of it is verified and dumped within a virtual-memory
# limit well below its size (under ASan, which checks memory its own way,
# 32 MiB of it with no limit).
if grep -qa __asan_init "$QJT"; then
  big=32M
  piped() { cat "$WORK/big" | timeout 120 "$QJT" "$@"; }
else
  big=256M
  piped() { cat "$WORK/big" | (ulimit -v $((160 * 1024)); timeout 120 "$QJT" "$@"); }
fi
"$QJT" gen kestrel --size $big --seed 7 -o "$WORK/big" >/dev/null 2>&1 || echo "FAILED: gen of the $big journal"
records=$("$QJT" verify --json "$WORK/big" | jq .records)
json=$(piped verify --json -); rc=$?
check "verify of a $big journal piped in: exit" 0 "$rc"
check "verify of a $big journal piped in: every record" "$records" "$(jq .records <<< "$json")"
check "dump of a $big journal piped in: every record" "$((records + 1))" "$(piped dump - | wc -l)"
rm -f "$WORK/big"

# FIFOs, one per family: the same records as the file, and no second open.
fifo=$WORK/fifo
mkfifo "$fifo"
fifo_case() {  # FILE ARGS...: dump FILE through the FIFO and directly
  local file=$1; shift
  cat "$file" > "$fifo" &
  local writer=$!
  local through direct rc
  through=$(timeout 10 "$QJT" dump "$@" "$fifo" 2>/dev/null); rc=$?
  kill $writer 2>/dev/null; wait $writer 2>/dev/null
  direct=$("$QJT" dump "$@" "$file" 2>/dev/null)
  check "dump $* FIFO of $(basename "$file"): no hang" 0 "$([ $rc -ne 124 ] && echo 0 || echo 124)"
  check "dump $* FIFO of $(basename "$file"): same records" "$direct" "${through//$fifo/$file}"
}
fifo_case "$DATA/kestrel/sample/orders"
fifo_case "$DATA/kestrel/sample/orders" --format kestrel
fifo_case "$DATA/libkestrel/queue/jobs.1700000000000" --format libkestrel
fifo_case "$DATA/canal/conf/example/meta.dat" --format canal
fifo_case "$DATA/flume/channel/data2/log-2" --format flume-log-v3
# The same FIFO named twice is one stream, read once.
cat "$DATA/kestrel/sample/orders" > "$fifo" &
writer=$!
timeout 10 "$QJT" verify "$fifo" "$fifo" > /dev/null 2>&1; rc=$?
kill $writer 2>/dev/null; wait $writer 2>/dev/null
check "verify FIFO FIFO: read once, no hang" 0 "$rc"

[ $failures -eq 0 ] && echo "all stream checks passed"
exit $((failures > 0))
