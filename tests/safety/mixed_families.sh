#!/usr/bin/env bash
# qjt verify, dump and replay send each PATH to the family that claims it,
# whatever the order; verify gives one report and one exit status; a
# directory where no family finds anything is an I/O error.
set -uo pipefail
QJT=$1 DATA=$2 WORK=$3
source "$(dirname "$0")/../check.sh"
rm -rf "$WORK"; mkdir -p "$WORK/empty"
k=$DATA/kestrel/files/every-opcode
lk=$DATA/libkestrel/queue/jobs.1700000000000
meta=$DATA/canal/conf/example/meta.dat
log=$DATA/flume/channel/data1/log-1

# The summary line: Canal's report lines (where a destination starts) follow it.
summary() { "$QJT" verify "$@" 2>&1 | grep -v '^destination ' | tail -1; echo "exit ${PIPESTATUS[0]}"; }
records() { "$QJT" verify --json "$@" | jq .records; }

expected="OK: 0 error(s), 0 warning(s) in 4 file(s), $(( $(records "$k") + $(records "$lk") + $(records "$meta") + $(records "$log") )) record(s)
exit 0"
check "four families, one order" "$expected" "$(summary "$k" "$lk" "$meta" "$log")"
check "four families, the reverse order" "$expected" "$(summary "$log" "$meta" "$lk" "$k")"

# Directories: each family's, side by side, add up to what each reports alone.
dirs=("$DATA/kestrel/sample" "$DATA/libkestrel/queue" "$DATA/flume/channel/data2" "$DATA/canal/logs/example/meta.log")
sum=0
for d in "${dirs[@]}"; do sum=$((sum + $("$QJT" verify --json "$d" | jq .files))); done
check "directories of every family: files add up" "$sum" "$("$QJT" verify --json "${dirs[@]}" | jq .files)"
check "a Flume data directory stands for its files" \
  "$("$QJT" verify --json "$DATA"/flume/channel/data2/* | jq -c '{files, records, findings}')" \
  "$("$QJT" verify --json "$DATA/flume/channel/data2" | jq -c '{files, records, findings}')"

"$QJT" verify "$WORK/empty" >/dev/null 2>&1
check "an empty directory exits 3" 3 $?
check "an empty directory is named" "no journal, channel or checkpoint found in $WORK/empty" \
  "$("$QJT" verify --json "$WORK/empty" | jq -r '.message')"
check "--legacy-xids with another family: usage" 2 "$("$QJT" verify --legacy-xids "$k" "$lk" >/dev/null 2>&1; echo $?)"

# dump and replay: the output of each family's PATHs is what a run of their
# own gives, whatever the order among the others.
alone=$(for p in "$k" "$lk" "$meta" "$log"; do "$QJT" dump --json "$p"; done | sort)
check "dump of four families" "$alone" "$("$QJT" dump --json "$log" "$k" "$meta" "$lk" | sort)"
canal_log=$DATA/canal/logs/example/meta.log
alone=$(for p in "$k" "$lk" "$canal_log"; do "$QJT" replay --json "$p" 2>/dev/null; done | sort)
check "replay of three families" "$alone" "$("$QJT" replay --json "$canal_log" "$lk" "$k" 2>/dev/null | sort)"
"$QJT" dump "$WORK/empty" >/dev/null 2>&1
check "dump of an empty directory exits 3" 3 $?

# --format canal: Canal's own claims still read meta.dat and meta.log apart.
canal_dat=$DATA/canal/conf/example/meta.dat
alone=$(for p in "$canal_dat" "$canal_log"; do "$QJT" dump --json "$p"; done | sort)
check "dump --format canal of both kinds" "$alone" "$("$QJT" dump --json --format canal "$canal_log" "$canal_dat" | sort)"
check "verify --format canal of both kinds: two files" 2 \
  "$("$QJT" verify --json --format canal "$canal_dat" "$canal_log" | jq -r '.files')"
"$QJT" dump --format canal "$k" >/dev/null 2>"$WORK/err"
check "--format canal on a Kestrel journal: usage, the kinds named" "2 1" \
  "$? $(grep -c 'name its kind with --format canal-meta-dat' "$WORK/err")"
[ $failures -eq 0 ]
