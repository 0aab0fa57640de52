#!/bin/bash
# The formats of values on classic Kestrel journals, and the filters every
# family shares (lib/cli/read_filter.h, lib/time_value.h):
#  - times in every form (epoch ms, ISO 8601, relative to QJT_NOW_MS), and
#    a usage error naming the option and the forms otherwise;
#  - offsets decimal in the text output, and decimal or 0x on input;
#  - --local-time, --json-big-numbers=string and its round trip through jq;
#  - a filter for a field a family's records lack: exit 2, the family named.
# Expectations derived by hand from testdata/kestrel/files/every-opcode
# (make_kestrel_testdata.cc: ADDX at 0, 26, 52, 80, 105 added at
# 1700000000000 + 0..4 ms; xid 3's REMOVE_TENTATIVE_XID at 147 and
# CONTINUE at 152, added at 1700000000005).
#
#   values.sh QJT SOURCE_DIR SCRATCH
set -uo pipefail
qjt=$1
cd "$2" || exit 1
scratch=$3
source tests/check.sh
rm -rf "$scratch" && mkdir -p "$scratch"
every=testdata/kestrel/files/every-opcode
offsets() { jq -r .offset | paste -sd' '; }

# ---- times ---------------------------------------------------------------------
check "--since/--until ISO and epoch ms, inclusive" "52 80 105" \
  "$("$qjt" dump --json --since 2023-11-14T22:13:20.002Z --until 1700000000004 "$every" | offsets)"
check "--since with an offset" "52 80 105 152" \
  "$("$qjt" dump --json --since 2023-11-15T06:13:20.002+08:00 "$every" | offsets)"
check "--since relative to QJT_NOW_MS" "105 152" \
  "$(QJT_NOW_MS=1700000001004 "$qjt" dump --json --since -1s "$every" | offsets)"
check "--until a date: nothing added before 2023-11-14" "" \
  "$("$qjt" dump --json --until 2023-11-13 "$every" | offsets)"
out=$("$qjt" dump --since soon "$every" 2>&1); status=$?
check "--since soon: usage, the option and the forms named" \
  "2 --since soon: expected epoch milliseconds (1610779748123) or @seconds, ISO 8601 with Z or an offset" \
  "$status $(grep -o -- '--since soon: expected [^,]*, ISO 8601 with Z or an offset' <<<"$out")"
window="52 80 105"
check "a date and time without a zone: local (TZ=UTC)" "$window" \
  "$("$qjt" dump --json --since '2023-11-14 22:13:20.002' --until 2023-11-14T22:13:20.004 "$every" | offsets)"
check "... in the TZ variable's zone" "$window" \
  "$(TZ=Asia/Shanghai "$qjt" dump --json --since '2023-11-15 06:13:20.002' --until '2023-11-15 06:13:20.004' \
     "$every" | offsets)"
check "... in --tz's zone, over TZ's" "$window" \
  "$(TZ=America/New_York "$qjt" dump --json --tz Asia/Shanghai --since '2023-11-15 06:13:20.002' \
     --until '2023-11-15 06:13:20.004' "$every" | offsets)"
check "... --tz after the times it reads" "$window" \
  "$("$qjt" dump --json --since '2023-11-15 06:13:20.002' --until '2023-11-15 06:13:20.004' --tz +08:00 \
     "$every" | offsets)"
check "--tz unknown: usage" 2 "$("$qjt" dump --tz Mars/Olympus "$every" >/dev/null 2>&1; echo $?)"
check "@epoch seconds" "$window" \
  "$("$qjt" dump --json --since @1700000000.002 --until @1700000000.004 "$every" | offsets)"
for since in 1s -1s "1s ago" 1000ms "1 second ago"; do
  check "--since $since: before QJT_NOW_MS" "105 152" \
    "$(QJT_NOW_MS=1700000001004 "$qjt" dump --json --since "$since" "$every" | offsets)"
done
check "--until +2ms: after QJT_NOW_MS" "0 26 52 80" \
  "$(QJT_NOW_MS=1700000000001 "$qjt" dump --json --until +2ms "$every" | offsets)"
check "--since -1w, 1w ago: the same" "$(QJT_NOW_MS=1700604800004 "$qjt" dump --json --since -1w "$every" | offsets)" \
  "$(QJT_NOW_MS=1700604800004 "$qjt" dump --json --since '1w ago' "$every" | offsets)"
all=$("$qjt" dump --json --since 0 "$every" | offsets)
check "--since today: midnight in the local zone" "$all" \
  "$(QJT_NOW_MS=1700000000000 "$qjt" dump --json --since today "$every" | offsets)"
check "--until yesterday: nothing yet" "" \
  "$(QJT_NOW_MS=1700000000000 "$qjt" dump --json --until yesterday "$every" | offsets)"
# At 2023-11-15T01:13:20Z it is still the 14th in New York.
check "--since today at 01:13Z: nothing since (UTC)" "" \
  "$(QJT_NOW_MS=1700010800000 "$qjt" dump --json --since today "$every" | offsets)"
check "--since today at 01:13Z: all of the 14th in New York" "$all" \
  "$(QJT_NOW_MS=1700010800000 "$qjt" dump --json --tz America/New_York --since today "$every" | offsets)"
check "--until now" "$all" "$("$qjt" dump --json --until now "$every" | offsets)"
check "convert --add-time takes ISO 8601" "1700000000000" \
  "$("$qjt" convert --to kestrel2 --add-time 2023-11-14T22:13:20Z -o "$scratch/upgraded" testdata/kestrel/files/legacy-1x &&
     "$qjt" dump --json --op ADD,ADDX "$scratch/upgraded" | jq -s '.[0].time_ms')"
check "gen --add-time -1d" "1699913600000" \
  "$(QJT_NOW_MS=1700000000000 "$qjt" gen kestrel --records 1 --add-time -1d -o "$scratch/gen" >/dev/null &&
     "$qjt" dump --json --limit 1 "$scratch/gen" | jq .time_ms)"

# ---- offsets and text --------------------------------------------------------
check "offsets: decimal and 0x on input, decimal in text" \
  "        52  ADDX 7      add=2023-11-14T22:13:20.002Z
        80  ADDX 4      add=2023-11-14T22:13:20.003Z
       105  ADDX 0      add=2023-11-14T22:13:20.004Z
       126  REMOVE_TENTATIVE_XID xid=1" \
  "$("$qjt" dump --from-offset 0x34 --to-offset 131 "$every")"
check "--from-offset garbage: usage" 2 "$("$qjt" dump --from-offset 0xZZ "$every" >/dev/null 2>&1; echo $?)"
check "--xid 3" "147 152" "$("$qjt" dump --json --xid 3 "$every" | offsets)"
check "--local-time: the zone's offset" "         0  ADDX 5      add=2023-11-15T06:13:20.000+08:00" \
  "$(TZ=UTC-8 "$qjt" dump --local-time --limit 1 "$every")"

# ---- big numbers -----------------------------------------------------------------
"$qjt" convert --to jsonl "$every" | sed 's/"time_ms":1700000000000/"time_ms":9007199254740993/' |
  "$qjt" convert --to kestrel -o "$scratch/big" -
check "a big number: exact by default" 9007199254740993 \
  "$("$qjt" dump --json --limit 1 "$scratch/big" | grep -o '"time_ms":[0-9]*' | cut -d: -f2)"
check "--json-big-numbers=string: a string, small numbers kept" '"9007199254740993" 1700000000001' \
  "$("$qjt" dump --json --json-big-numbers=string --limit 2 "$scratch/big" | jq -sc '.[0].time_ms, .[1].time_ms' | paste -sd' ')"
"$qjt" convert --to jsonl --json-big-numbers=string "$scratch/big" | jq -c . |
  "$qjt" convert --to kestrel -o "$scratch/big.edited" -
check "--json-big-numbers=string: jq round-trips the journal byte for byte" same \
  "$(cmp -s "$scratch/big" "$scratch/big.edited" && echo same)"
check "--json-big-numbers=other: usage" 2 \
  "$("$qjt" dump --json-big-numbers=float "$every" >/dev/null 2>&1; echo $?)"

# ---- a filter for a field the family lacks -------------------------------------
out=$("$qjt" dump --xid 1 testdata/libkestrel/queue 2>&1); status=$?
check "libkestrel has no xid" "2 qjt dump: --xid does not apply to libkestrel inputs: their records have no transaction id" \
  "$status $out"
out=$("$qjt" dump --op put testdata/canal/logs/example/meta.log 2>&1); status=$?
check "Canal meta.log lines have no type" \
  "2 qjt dump: --op does not apply to canal inputs: their records have no type to select" "$status $out"
check "an --op of another family" 2 "$("$qjt" dump --op PUT "$every" >/dev/null 2>&1; echo $?)"
check "nothing printed on a refusal" "" "$("$qjt" dump --op put testdata/canal/logs/example/meta.log 2>/dev/null)"

rm -rf "$scratch"
exit $((failures > 0))
