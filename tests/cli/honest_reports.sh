#!/usr/bin/env bash
# A failing run never says OK (issue 23): files cut inside a family's magic
# and files of no known format are findings with exit 1, verify's summary
# says OK only with exit 0 and "nothing verified" when no file was read;
# dump --limit counts over the whole run (Canal's meta.log too); a file cut
# while verify reads it is in the --json report; in_use.lock given as a PATH
# says what it is and who holds it; --format names its family when a
# directory has nothing of it.
set -uo pipefail
QJT=$1 DATA=$2 WORK=$3
source "$(dirname "$0")/../check.sh"
enter_workdir "$WORK"
hex() { printf "$(echo "$1" | sed 's/\(..\)/\\x\1/g')"; }

# ---- files cut inside a libkestrel magic, whatever their names ---------------
for name in test.1 test.read.x events; do
  for bytes in 27 276426 26 263c26; do
    hex "$bytes" > "$name"
    kind=segment; [[ $bytes == 26* ]] && kind=bookmark
    n=$((${#bytes} / 2))
    out=$("$QJT" verify "$name" 2>/dev/null); rc=$?
    check "verify $name ($bytes): exit" 1 "$rc"
    check "verify $name ($bytes): finding" \
      "$name:0: error[broken_record]: the file is too short to be a libkestrel $kind: $n of 4 magic bytes" \
      "$(echo "$out" | head -n 1 | sed 's/ (expected .*//')"
    check "verify $name ($bytes): no OK" "FAILED" "$(echo "$out" | tail -n 1 | cut -d: -f1)"
    check "verify --json $name ($bytes)" "false 1 0" \
      "$("$QJT" verify --json "$name" | jq -r '"\(.ok) \(.errors) \(.findings[0].offset)"')"
    "$QJT" dump "$name" > dump.out 2> dump.err; rc=$?
    check "dump $name ($bytes): exit, nothing on stdout" "1 0" "$rc $(wc -c < dump.out)"
    check "dump $name ($bytes): the finding on stderr" 1 "$(grep -c 'error\[broken_record\]: the file is too short' dump.err)"
    rm -f "$name"
  done
done

# ---- a file of no known format: one finding, no hint, exit 1 -----------------
printf 'remember the milk\nand the eggs\n' > notes.txt
head -c 200 /etc/passwd > passwd 2>/dev/null || printf 'root:x:0:0:root:/root:/bin/bash\n' > passwd
# passwd is also a name Kestrel's startup would read as queue passwd's
# journal, were its directory a queuePath: a stray_file warning, as its
# directory's walk gives it (tests/cli/three_ways.sh).
for f in notes.txt passwd; do
  stray="" warnings=0
  [ "$f" = passwd ] && stray=",stray_file" warnings=1
  "$QJT" verify --json "$f" > verify.json; rc=$?
  check "verify --json $f: exit" 1 "$rc"
  check "verify --json $f: one unknown_format finding, no hint" "false unknown_format$stray 1 null" \
    "$(jq -r '"\(.ok) \([.findings[].code] | join(",")) \(.errors) \(.findings[0].hint)"' verify.json)"
  msg=$(jq -r '.findings[0].message' verify.json)
  for looked_for in "libkestrel segment or bookmark magic" "Flume file channel file" "Canal meta.dat" \
    "classic Kestrel record at offset 0" "invalid opcode"; do
    [[ $msg == *"$looked_for"* ]] || check "verify $f: the finding names '$looked_for'" "$looked_for" "$msg"
  done
  out=$("$QJT" verify "$f"); rc=$?
  check "verify $f: exit" 1 "$rc"
  check "verify $f: no hint" 0 "$(echo "$out" | grep -c 'hint:')"
  check "verify $f: summary" "FAILED: 1 error(s), $warnings warning(s) in 0 file(s), 0 record(s); nothing verified" \
    "$(echo "$out" | tail -n 1)"
  for command in dump replay; do
    "$QJT" $command "$f" > out 2> err; rc=$?
    check "$command $f: exit" 1 "$rc"
    check "$command $f: stdout empty" 0 "$(wc -c < out)"
    check "$command $f: the finding on stderr, no hint" "1 0" \
      "$(grep -c "^qjt: $f: error\[unknown_format\]: expected " err) $(grep -c hint: err)"
  done
done
# Forced to a family, the file is read as that family's.
"$QJT" verify --format kestrel notes.txt > out; rc=$?
check "verify --format kestrel notes.txt: read as Kestrel" "1 1" "$rc $(grep -c 'error\[broken_record\]' out)"

# ---- verify's summary says OK only with exit 0 ------------------------------
hex 276426 > cut
out=$("$QJT" verify --format libkestrel cut 2>/dev/null); rc=$?
check "verify --format libkestrel of a cut magic: exit" 2 "$rc"
check "verify --format libkestrel of a cut magic: summary" \
  "FAILED: 0 error(s), 0 warning(s) in 0 file(s), 0 record(s); nothing verified" "$(echo "$out" | tail -n 1)"
check "verify --json --format libkestrel of a cut magic: ok" "false" \
  "$("$QJT" verify --json --format libkestrel cut 2>/dev/null | tail -n 1 | jq -r '.ok')"

# ---- dump --limit counts over the whole run ---------------------------------
cp "$DATA/kestrel/files/every-opcode" classic
"$QJT" dump --limit 3 classic "$DATA/libkestrel/queue/jobs.1700000000000" > out; rc=$?
check "dump --limit 3 of two families: exit" 0 "$rc"
check "dump --limit 3 of two families: 3 records over both" 3 "$(grep -vc '^#' out)"
check "dump --json --limit 2 of two families" 2 \
  "$("$QJT" dump --json --limit 2 "$DATA/libkestrel/queue/jobs.1700000000000" classic | wc -l)"
"$QJT" gen canal --records 200 -o canal > /dev/null
log=$(find canal -name meta.log | head -n 1)
check "dump of the generated meta.log: 200 lines" 200 "$("$QJT" dump "$log" | wc -l)"
check "dump --limit 3 of a meta.log" 3 "$("$QJT" dump --limit 3 "$log" | wc -l)"
check "dump --json --limit 3 of a meta.log" 3 "$("$QJT" dump --json --limit 3 "$log" | wc -l)"
check "dump --limit 4 of a meta.log and a Kestrel file" 4 \
  "$("$QJT" dump --json --limit 4 "$log" classic | wc -l)"

# ---- a file cut while verify reads it: file_changed in the report -----------
# verify opens (maps) the files of the queue q, the FIFO q.500 and the
# journal q.1000, then reads them in order: the FIFO to its end first;
# q.1000 is cut to a page boundary before the FIFO ends, so verify's
# replay of q.1000 runs past its new end.
mkfifo q.500
"$QJT" gen kestrel --records 20000 --payload-size 100 --seed 1 -o q.1000 > /dev/null
size=$(stat -c %s q.1000)
{ sleep 1; truncate -s 98304 q.1000; } > q.500 &
"$QJT" verify --json q.500 q.1000 > verify.json 2> err
wait
check "verify --json of a file cut under it: file_changed in findings" \
  "q.1000 98304 expected the $size bytes the file had when qjt opened it, found 98304 bytes" \
  "$(jq -r '.findings[] | select(.code == "file_changed") | "\(.file) \(.offset) \(.message)"' verify.json | sed 's/: it shrank.*//')"
check "verify --json of a file cut under it: not ok" false "$(jq -r .ok verify.json)"
check "verify of a file cut under it: file_changed on stderr too" 1 "$(grep -c 'error\[file_changed\]' err)"

# ---- in_use.lock given as a PATH -------------------------------------------
mkdir -p channel/checkpoint
: > channel/checkpoint/in_use.lock
"$QJT" verify --json channel/checkpoint/in_use.lock > verify.json; rc=$?
check "verify in_use.lock: exit" 0 "$rc"
check "verify in_use.lock: what it is, not held" \
  "warning lock_file expected a Flume file with records, found Flume's in_use.lock, the lock a Flume agent takes on channel/checkpoint: no records; no process holds it (Flume leaves it when it stops)" \
  "$(jq -r '.findings[] | "\(.severity) \(.code) \(.message)"' verify.json)"
if command -v flock > /dev/null; then
  flock channel/checkpoint/in_use.lock sleep 30 &
  holder=$!
  sleep 0.5
  pid=$(pgrep -P "$holder" sleep || echo "$holder")
  msg=$("$QJT" verify --json channel/checkpoint/in_use.lock | jq -r '.findings[0].message')
  [[ $msg == *"held by pid "* ]] || check "verify in_use.lock held: names the holder" "held by pid ..." "$msg"
  kill "$holder" 2> /dev/null
  wait "$holder" 2> /dev/null
  check "dump in_use.lock: told on stderr, exit 0" "0 1" \
    "$("$QJT" dump channel/checkpoint/in_use.lock 2> err > /dev/null; echo $?) $(grep -c 'warning\[lock_file\]' err)"
fi

# ---- --format names its family when a directory has nothing of it -------------
mkdir -p only-kestrel empty
cp "$DATA/kestrel/files/every-opcode" only-kestrel/q
"$QJT" verify --format flume only-kestrel > /dev/null 2> err; rc=$?
check "verify --format flume of a Kestrel directory: exit" 3 "$rc"
check "verify --format flume of a Kestrel directory: message" \
  "qjt verify: no Apache Flume file channel found in only-kestrel (--format flume)" "$(cat err)"
"$QJT" dump --format kestrel empty > /dev/null 2> err
check "dump --format kestrel of an empty directory: message" \
  "qjt dump: no Classic Kestrel journals found in empty (--format kestrel)" "$(cat err)"

[ $failures -eq 0 ] && echo "all honest-report checks passed"
exit $((failures > 0))
