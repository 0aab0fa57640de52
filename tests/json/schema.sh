#!/bin/bash
# schema.sh QJT SOURCE_DIR: the JSON of qjt-json(5) as qjt prints it.
#  - Every line any command prints with --json (or convert --to jsonl)
#    starts with "type", one of record, report, plan, error, summary, stats; and
#    every finding object, at any depth, starts with "type":"finding".
#  - Every line of `dump --json` and `convert --to jsonl`, for each family,
#    starts with the envelope: "type":"record", "format" (the family, a
#    string) then "file" (a string); the common fields (offset, op,
#    time_ms) have one type in every family, and op is upper case.
#  - Every top-level key of those lines, of the verify report and of its
#    finding objects, of the replay reports, compact and repair plans and
#    error objects has an entry in man/qjt-json.5: a line ".B key" alone
#    (the page's convention, so a key named only in passing does not count).
#  - convert --to jsonl (and dump --json) and back still gives the identical
#    files, and convert refuses a line whose type is not record.
# Runs in SOURCE_DIR on testdata/, read only; outputs go to a scratch dir.
set -u
qjt=$1
cd "$2" || exit 1
page=man/qjt-json.5
source tests/check.sh
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
keys=$scratch/keys
lines=$scratch/lines  # every JSON line printed, for the checks of "type"

# check_stream NAME FORMAT: the lines on stdin all carry FORMAT's envelope;
# their top-level keys go to $keys.
check_stream() {
  local stream
  stream=$(cat)
  check "$1: some lines" yes "$([ -n "$stream" ] && echo yes)"
  check "$1: envelope first, type record, format $2" "" \
    "$(jq -c --arg f "$2" 'select((keys_unsorted[0:3] != ["type", "format", "file"]) or .type != "record"
                                  or .format != $f or (.file | type) != "string")' <<<"$stream")"
  check "$1: common fields: offset an integer, op upper case, time_ms an integer or null" "" \
    "$(jq -c 'select((has("offset") and (.offset | type) != "number")
                     or (has("op") and ((.op | type) != "string" or .op != (.op | ascii_upcase)))
                     or (has("time_ms") and (.time_ms | type) != "number" and .time_ms != null)
                     or has("add_time_ms"))' <<<"$stream")"
  jq -r 'keys_unsorted[]' <<<"$stream" >>"$keys"
  printf '%s\n' "$stream" >>"$lines"
}

# ---- record streams -------------------------------------------------------------
k=testdata/kestrel
"$qjt" dump --json $k/sample 2>/dev/null | check_stream "kestrel dump" kestrel
"$qjt" dump --json --data=hex $k/files/every-opcode $k/files/broken-opcode-0a 2>/dev/null |
  check_stream "kestrel dump --data=hex" kestrel
"$qjt" dump --json --data=base64 $k/files/legacy-1x 2>/dev/null | check_stream "kestrel dump --data=base64" kestrel
"$qjt" convert --to jsonl $k/files/every-opcode | check_stream "kestrel convert --to jsonl" kestrel
"$qjt" dump --json testdata/libkestrel/queue testdata/libkestrel/damaged 2>/dev/null |
  check_stream "libkestrel dump" libkestrel
"$qjt" convert --to jsonl testdata/libkestrel/queue | check_stream "libkestrel convert --to jsonl" libkestrel
f=testdata/flume
for channel in channel damaged; do
  "$qjt" dump --json --checkpoint-dir $f/$channel/checkpoint --data-dir $f/$channel/data1,$f/$channel/data2 \
    2>/dev/null | check_stream "flume dump $channel" flume
done
"$qjt" dump --json $f/damaged/backup/checkpoint.snappy $f/v2/checkpoint/checkpoint $f/v2/data1/log-1 2>/dev/null |
  check_stream "flume dump snappy, V2" flume
"$qjt" dump --json --key k1=000102030405060708090a0b0c0d0e0f --checkpoint-dir $f/encrypted/checkpoint \
  --data-dir $f/encrypted/data1,$f/encrypted/data2 2>/dev/null | check_stream "flume dump encrypted" flume
"$qjt" convert --to jsonl --data=hex $f/damaged/data2/log-2 2>/dev/null | check_stream "flume convert --to jsonl" flume
"$qjt" dump --json testdata/canal/conf/*/meta.dat 2>/dev/null | check_stream "canal dump meta.dat" canal
"$qjt" dump --json testdata/canal/logs/example/meta.log 2>/dev/null | check_stream "canal dump meta.log" canal

# ---- the verify report ------------------------------------------------------------
verify() { "$qjt" verify --json "$@" 2>/dev/null; }
reports=$( (verify $k/sample; verify testdata/libkestrel/damaged;
            verify --checkpoint-dir $f/damaged/checkpoint --data-dir $f/damaged/data1,$f/damaged/data2;
            verify --metrics testdata/canal/metrics.prom testdata/canal/conf/example/meta.dat) | jq -c .)
check "verify: the report's keys" '[["type","ok","files","records","errors","warnings","findings"],"report"]' \
  "$(jq -c '[keys_unsorted[0:7], .type]' <<<"$reports" | sort -u)"
check "verify: some findings" 1 "$(jq -s '[.[].findings[]] | length > 0 | if . then 1 else 0 end' <<<"$reports")"
jq -r 'keys_unsorted[], (.findings[] | keys_unsorted[])' <<<"$reports" >>"$keys"
printf '%s\n' "$reports" >>"$lines"

# ---- replay reports, compact and repair plans: their top-level keys -----------------
# (plans only: --dry-run and repair without --apply change nothing)
reports=$( ("$qjt" replay --json $k/sample; "$qjt" replay --json testdata/libkestrel/queue;
            "$qjt" replay --json --checkpoint-dir $f/channel/checkpoint --data-dir $f/channel/data1;
            "$qjt" replay --json testdata/canal/logs/example/meta.log;
            "$qjt" compact --json --dry-run $k/sample; "$qjt" compact --json --dry-run testdata/libkestrel/queue;
            "$qjt" repair --json $k/files/broken-opcode-0a;
            "$qjt" repair --json --checkpoint-dir $f/channel/checkpoint --data-dir $f/channel/data1;
            "$qjt" repair --json --drop-client 1001 testdata/canal/conf/example/meta.dat;
            "$qjt" convert --to flume-v3 --json --checkpoint-dir $f/v2/checkpoint --data-dir $f/v2/data1) \
            2>/dev/null | jq -c .)
check "replay, compact, repair, upgrade: some reports" yes "$([ "$(wc -l <<<"$reports")" -ge 10 ] && echo yes)"
printf '%s\n' "$reports" >>"$lines"
check "replay reports: type report" '["report"]' \
  "$( ("$qjt" replay --json $k/sample; "$qjt" replay --json testdata/libkestrel/queue;
       "$qjt" replay --json --checkpoint-dir $f/channel/checkpoint --data-dir $f/channel/data1;
       "$qjt" replay --json --at 1610750948500 testdata/canal/logs/example/meta.log) 2>/dev/null |
     jq -s -c '[.[].type] | unique')"
check "plans (no --apply, --dry-run): type plan, applied false" '["plan"] [false]' \
  "$( ("$qjt" compact --json --dry-run $k/sample; "$qjt" compact --json --dry-run testdata/libkestrel/queue;
       "$qjt" repair --json $k/files/broken-opcode-0a;
       "$qjt" repair --json --checkpoint-dir $f/damaged/checkpoint --data-dir $f/damaged/data1,$f/damaged/data2;
       "$qjt" repair --json --drop-client 1001 testdata/canal/conf/example/meta.dat;
       "$qjt" convert --to flume-v3 --json --checkpoint-dir $f/v2/checkpoint --data-dir $f/v2/data1) 2>/dev/null |
     jq -s -c '([.[].type] | unique), ([.[] | select(has("applied")) | .applied] | unique)' | paste -sd' ')"
# Their keys are described in running text: a .B or .BR line naming the key.
undescribed=$(jq -r 'keys_unsorted[]' <<<"$reports" | sort -u | while read -r key; do
  grep -Eq "^\.BR? $key( |,|\.|;|\)|$)" $page || echo "$key"; done)
check "replay, compact and repair keys are described in $page" "" "$undescribed"

# ---- errors reach --json callers as JSON -------------------------------------------
errors=$( ("$qjt" dump --json --op ADD $f/channel/data1/log-1; "$qjt" verify --json --no-such-option;
           "$qjt" repair --json --apply testdata/canal/logs/example/meta.log) 2>/dev/null | jq -c .)
check "errors: one object each, type error, exit status 2" '3 ["error"] [2]' \
  "$(jq -s -c 'length, ([.[].type] | unique), ([.[].exit_status] | unique)' <<<"$errors" | paste -sd' ')"
jq -r 'keys_unsorted[]' <<<"$errors" >>"$keys"
printf '%s\n' "$errors" >>"$lines"
check "replay --at: a malformed time is an error of replay" '{"type":"error","command":"replay","exit_status":2}' \
  "$("$qjt" replay --json --at yesterday-ish testdata/canal/logs/example/meta.log 2>/dev/null |
     jq -c '{type, command, exit_status}')"

# ---- applied repairs and compactions, gen: reports and summaries ----------------------
mkdir -p "$scratch/r" "$scratch/q" && cp $k/files/broken-truncated-data "$scratch/r/" && cp -r $k/sample/. "$scratch/q/"
applied=$( ("$qjt" repair --json --apply --backup-to "$scratch/b1" "$scratch/r/broken-truncated-data";
            "$qjt" compact --apply --json --backup-to "$scratch/b2" "$scratch/q") 2>/dev/null)
check "applied repair, compact: type report" '["report"]' "$(jq -s -c '[.[].type] | unique' <<<"$applied")"
printf '%s\n' "$applied" >>"$lines"
gens=$( ("$qjt" gen kestrel --records 10 -o "$scratch/g.journal" --json;
         "$qjt" gen libkestrel --records 10 -o "$scratch/g-k3" --json;
         "$qjt" gen flume --records 10 -o "$scratch/g-flume" --json;
         "$qjt" gen canal --records 10 -o "$scratch/g-canal" --json) 2>/dev/null)
check "gen: type summary" '4 ["summary"]' "$(jq -s -c 'length, ([.[].type] | unique)' <<<"$gens" | paste -sd' ')"
printf '%s\n' "$gens" >>"$lines"

# ---- stats: one object per run, whatever the families ------------------------------------
stats=$( ("$qjt" stats --json $k/sample testdata/libkestrel/queue testdata/canal/conf/example/meta.dat;
          "$qjt" stats --json --checkpoint-dir $f/channel/checkpoint --data-dir $f/channel/data1,$f/channel/data2) \
        2>/dev/null)
check "stats: one object per run, type stats, ok, entities of every family" \
  '2 ["stats"] [true] ["canal","flume","kestrel","libkestrel"]' \
  "$(jq -s -c 'length, ([.[].type] | unique), ([.[].ok] | unique), ([.[].entities[].labels.format] | unique)' \
     <<<"$stats" | paste -sd' ')"
jq -r 'keys_unsorted[], (.entities[] | keys_unsorted[])' <<<"$stats" >>"$keys"
printf '%s\n' "$stats" >>"$lines"

# ---- "type" first on every line, and in every finding at any depth -----------------------
check "every line: valid JSON, type first, a known type" "" \
  "$(jq -c 'select(keys_unsorted[0] != "type"
                   or ([.type] | inside(["record", "report", "plan", "error", "summary", "stats"]) | not))' "$lines" 2>&1)"
check "some findings nested below the top level" yes \
  "$(jq -s '[.[] | .. | objects | select(has("severity") and has("code"))] | length > 10 | if . then "yes" else "no" end' \
     -r "$lines")"
check "every finding object, at any depth: type finding first" "" \
  "$(jq -c '.. | objects | select(has("severity") and has("code"))
            | select(keys_unsorted[0] != "type" or .type != "finding")' "$lines")"

# ---- every key documented ---------------------------------------------------------
undocumented=$(sort -u "$keys" | while read -r key; do grep -qx "\.B $key" $page || echo "$key"; done)
check "every key has an entry (.B key) in $page" "" "$undocumented"

# ---- back to the same bytes -------------------------------------------------------
"$qjt" convert --to jsonl $k/files/every-opcode | "$qjt" convert --to kestrel -o "$scratch/every-opcode" - 2>/dev/null
check "kestrel: jsonl and back, identical" 0 "$(cmp -s $k/files/every-opcode "$scratch/every-opcode"; echo $?)"
"$qjt" convert --to jsonl $f/damaged/data2/log-2 2>/dev/null |
  "$qjt" convert --to flume-log -o "$scratch/log-2" - 2>/dev/null
check "flume: jsonl and back, identical log and meta" "0 0" \
  "$(cmp -s $f/damaged/data2/log-2 "$scratch/log-2"; echo $?) $(cmp -s $f/damaged/data2/log-2.meta "$scratch/log-2.meta"; echo $?)"

"$qjt" dump --json $k/files/every-opcode | "$qjt" convert --to kestrel -o "$scratch/every-opcode-dump" - 2>/dev/null
check "kestrel: dump --json and back, identical" 0 \
  "$(cmp -s $k/files/every-opcode "$scratch/every-opcode-dump"; echo $?)"
mkdir -p "$scratch/dumped"
"$qjt" dump --json $f/channel/data2/log-2.meta $f/channel/data2/log-2 2>/dev/null |
  "$qjt" convert --to flume-log -o "$scratch/dumped/log-2" - 2>/dev/null
check "flume: dump --json and back, identical log and meta" "0 0" \
  "$(cmp -s $f/channel/data2/log-2 "$scratch/dumped/log-2"; echo $?) $(cmp -s $f/channel/data2/log-2.meta "$scratch/dumped/log-2.meta"; echo $?)"

# ---- lines of another type or family are refused -----------------------------------
not_record='{"type":"finding","severity":"error","code":"broken_record","file":"x","offset":0,"message":"m"}'
{ "$qjt" convert --to jsonl $k/files/every-opcode; echo "$not_record"; } |
  "$qjt" convert --to kestrel -o "$scratch/with-finding" - 2>"$scratch/err"
rc=$?
check "kestrel: a finding line refused (bad_json_line, exit 1), nothing written" "1 1 no" \
  "$rc $(grep -c 'bad_json_line.*"type" "record"' "$scratch/err") $([ -e "$scratch/with-finding" ] && echo yes || echo no)"
mkdir -p "$scratch/with-report"
{ "$qjt" convert --to jsonl $f/damaged/data2/log-2 2>/dev/null; "$qjt" verify --json $k/sample; } |
  "$qjt" convert --to flume-log -o "$scratch/with-report/log-2" - 2>"$scratch/err"
rc=$?
check "flume: a report line refused (exit 2), nothing written" "2 1 no" \
  "$rc $(grep -c '"type" "record"' "$scratch/err") $([ -e "$scratch/with-report/log-2" ] && echo yes || echo no)"
"$qjt" dump --json testdata/libkestrel/queue/jobs.1700000000000 |
  "$qjt" convert --to kestrel -o "$scratch/wrong" - 2>"$scratch/err"
check "kestrel: libkestrel lines refused, nothing written" "1 no" \
  "$(grep -q 'found "libkestrel"' "$scratch/err" && echo 1) $([ -e "$scratch/wrong" ] && echo yes || echo no)"
exit $((failures > 0))
