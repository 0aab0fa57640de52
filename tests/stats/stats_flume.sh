#!/bin/bash
# qjt stats on Flume file channels. Every figure is checked against values
# known without qjt's replay: the scenario of testdata/flume's hand-built
# channel (its header in tests/flume/channel_cli.sh), the counts `qjt gen`
# reports of what it wrote, what `qjt dump` shows of each file (counted
# here with jq), and what the V2 fixtures' README says Flume does.
#
#   stats_flume.sh QJT PROMETHEUS_LINT TESTDATA_DIR SHARED_FIXTURES_DIR
set -uo pipefail
qjt=$1
lint=$2
td=$3/flume
fixtures=$4/flume-v2
source "$(dirname "$0")/../check.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# stats_of NAME ARGS...: the JSON report in $work/NAME.json and its exit
# status in $work/NAME.status; the Prometheus report of the same through
# the exposition grammar.
stats_of() {
  local name=$1
  shift
  "$qjt" stats "$@" --json >"$work/$name.json"
  echo $? >"$work/$name.status"
  "$qjt" stats "$@" --prometheus 2>/dev/null | "$lint" >/dev/null
  check "$name: the Prometheus report passes the exposition grammar" 0 "${PIPESTATUS[1]}"
}
gauges() { jq -c ".entities[0].gauges | {$2}" "$work/$1.json"; }
table() { jq -c ".entities[0].tables.$2" "$work/$1.json"; }

# The hand-built channel: queue alpha (5 bytes, host=web-1), bravo (5),
# delta (5), foxtrot (7, host=web-1); txn 3 (inflight take of alpha) and
# txn 8 (golf put) never end; 8 records read after the checkpoint, 5 in
# log-1 and 3 in log-2; two data dirs of one log each.
ch="--checkpoint-dir $td/channel/checkpoint --data-dir $td/channel/data1,$td/channel/data2"
stats_of channel $ch --by-header host
check "channel: exit 0, no findings" "0 []" "$(cat "$work/channel.status") $(jq -c .findings "$work/channel.json")"
check "channel: entity" '{"kind":"channel","labels":{"format":"flume","path":"'"$td"'/channel/checkpoint"}}' \
  "$(jq -c '.entities[0] | {kind, labels}' "$work/channel.json")"
check "channel: depth, fill, open transactions, records" \
  '{"capacity":10,"queued_items":4,"fill_ratio":0.4,"queued_bytes":22,"open_transactions":2,"inflight_puts":1,"inflight_takes":1,"records":8}' \
  "$(gauges channel 'capacity, queued_items, fill_ratio, queued_bytes, open_transactions, inflight_puts, inflight_takes, records')"
check "channel: payload" '{"count":4,"sum":22,"min":5,"p50":5,"p90":7,"p99":7,"max":7}' \
  "$(jq -c '.entities[0].distributions.payload_bytes' "$work/channel.json")"
check "channel: recovery from the checkpoint" \
  '[{"source":"checkpoint","reason":"opens","chosen":1},{"source":"backup","reason":"not_configured","chosen":0},{"source":"logs","reason":"not_needed","chosen":0}]' \
  "$(table channel recovery)"
check "channel: --by-header host" \
  '[{"header":"host","group":"value","value":"web-1","queued_items":2,"queued_bytes":12},{"header":"host","group":"other","value":"","queued_items":0,"queued_bytes":0},{"header":"host","group":"absent","value":"","queued_items":2,"queued_bytes":10}]' \
  "$(table channel header_value)"
# Per log, from dump: the records after each log's checkpoint mark, the
# queue's puts (alpha, bravo in log-1; delta, foxtrot in log-2: replay's
# pointers in channel_cli.sh), each log the only one of its dir.
"$qjt" dump $ch --json --data=none >"$work/channel.dump"
expected=$(jq -sc --arg td "$td" '
  (map(select(.kind == "log_meta")) | map({key: (.file | sub("\\.meta$"; "")), value: .checkpoint_position}) | from_entries) as $mark
  | [map(select(.kind == "log_record" and .offset >= $mark[.file])) | group_by(.file)[]
     | {log: .[0].file, records: map(select(.op != "END_OF_DATA")) | length,
        replay_bytes: ((map(select(.op == "END_OF_DATA"))[0].offset) - $mark[.[0].file])}]' "$work/channel.dump")
check "channel: records read and bytes replayed per log" "$expected" \
  "$(jq -c '[.entities[0].tables.data_log[] | {log, records: (.puts + .takes + .commits + .rollbacks), replay_bytes}]' "$work/channel.json")"
check "channel: the space report" \
  '[{"queued_items":2,"queued_bytes":10,"pinned_by_queue":2,"pinned_by_inflight":2,"current_write_log":1,"pinned_by_lower_log":0,"deletable":0,"reclaimable_bytes":0},{"queued_items":2,"queued_bytes":12,"pinned_by_queue":2,"pinned_by_inflight":0,"current_write_log":1,"pinned_by_lower_log":1,"deletable":0,"reclaimable_bytes":0}]' \
  "$(jq -c '[.entities[0].tables.data_log[] | del(.log, .journal_bytes, .replay_bytes, .puts, .takes, .commits, .rollbacks)]' "$work/channel.json")"
check "channel: journal = the logs and metas" \
  "$(stat -c %s "$td"/channel/data*/log-* | paste -sd+ | bc)" "$(gauges channel journal_bytes | jq .journal_bytes)"

# Damaged: the checkpoint is incomplete, so Flume restores the backup;
# foxtrot's CRC fails and log-2 stops before txn 6 commits: alpha, bravo,
# delta. Without the backup, every log from its start.
dm="--checkpoint-dir $td/damaged/checkpoint --data-dir $td/damaged/data1,$td/damaged/data2"
stats_of damaged $dm --backup-dir "$td/damaged/backup"
check "damaged: exit 1, the findings, what can be known" \
  '1 ["checkpoint_incomplete","checkpoint_unusable","crc_mismatch"] {"queued_items":3,"queued_bytes":15}' \
  "$(cat "$work/damaged.status") $(jq -c '[.findings[].code]' "$work/damaged.json") $(gauges damaged 'queued_items, queued_bytes')"
check "damaged: recovery from the backup" \
  '[{"source":"checkpoint","reason":"refused","chosen":0},{"source":"backup","reason":"restored","chosen":1},{"source":"logs","reason":"not_needed","chosen":0}]' \
  "$(table damaged recovery)"
stats_of damaged_alone $dm
check "damaged without the backup: a full replay" \
  '1 [{"source":"checkpoint","reason":"refused","chosen":0},{"source":"backup","reason":"not_configured","chosen":0},{"source":"logs","reason":"no_usable_checkpoint","chosen":1}]' \
  "$(cat "$work/damaged_alone.status") $(table damaged_alone recovery)"

# A generated channel, two data dirs, many logs, transactions left open,
# a checkpoint after the last record: its figures from gen's report and
# from dump's records.
g=$work/g
"$qjt" gen flume -o "$g" --records 3000 --open 4 --seed 7 --max-log-size 32K --data-dirs 2 --json >"$work/gen_report.json"
gc="--checkpoint-dir $g/checkpoint --data-dir $g/data1,$g/data2"
stats_of gen $gc --by-header timestamp
check "gen: exit 0, no findings" "0 []" "$(cat "$work/gen.status") $(jq -c .findings "$work/gen.json")"
check "gen: depth and open transactions as gen wrote them" \
  "$(jq -c '{capacity, queued_items: .queue_length, open_transactions, inflight_puts: .in_flight_puts, inflight_takes: .in_flight_takes}' "$work/gen_report.json")" \
  "$(gauges gen 'capacity, queued_items, open_transactions, inflight_puts, inflight_takes')"
check "gen: fill" "$(jq '.queue_length / .capacity' "$work/gen_report.json")" "$(gauges gen fill_ratio | jq .fill_ratio)"
check "gen: each log's bytes as gen wrote them" "$(jq -c '[.files[] | {log: .path, journal_bytes: .bytes}] | sort_by(.log)' "$work/gen_report.json")" \
  "$(jq -c '[.entities[0].tables.data_log[] | {log, journal_bytes}] | sort_by(.log)' "$work/gen.json")"
metas=$(stat -c %s "$g"/data*/log-*.meta | paste -sd+ | bc)
check "gen: journal = logs + metas" "$(jq ".bytes + $metas" "$work/gen_report.json")" "$(gauges gen journal_bytes | jq .journal_bytes)"
# The queue Flume recovers: the checkpoint's elements, then the inflight
# takes back at the head (the checkpoint follows the last record). Per
# log: those events, their body bytes (the puts' sizes), the reference
# counts (checkpoint.meta's, plus the takes put back), the open
# transactions' pointers; Flume deletes the logs below the lowest log the
# queue names, except the newest of each dir; a log's space is it and its meta.
"$qjt" dump $gc --json --data=none >"$work/gen.dump"
for f in "$g"/data*/log-*.meta; do
  echo "{\"log\":\"${f%.meta}\",\"space\":$(($(stat -c %s "$f") + $(stat -c %s "${f%.meta}")))}"
done >"$work/space.jsonl"
expected_space() {  # expected_space DUMP: the space report by dump's records
  jq -sc --slurpfile space "$work/space.jsonl" '
  def id: sub(".*/log-"; "") | tonumber;
  (map(select(.kind == "log_record" and .op == "PUT")) | map({key: "\(.file | id):\(.offset)", value: .size}) | from_entries) as $size
  | (map(select(.kind == "checkpoint_element")) | map({file_id, offset})) as $elements
  | (map(select(.kind == "inflight_takes")) | map(.pointers[])) as $takes
  | (map(select(.kind == "inflight_puts")) | map(.pointers[])) as $puts
  | (map(select(.kind == "checkpoint_meta"))[0].active_logs | map({key: "\(.file_id)", value: .count}) | from_entries) as $counts
  | ($elements + $takes) as $queue
  | ($queue | map(.file_id) | min) as $lowest
  | ($space | map({key: .log, value: .space}) | from_entries) as $bytes
  | (map(select(.kind == "log_meta") | .file | sub("\\.meta$"; "")) | group_by(sub("/log-[0-9]+$"; "")) | map(max_by(id))) as $newest
  | [map(select(.kind == "log_meta"))[] | (.file | sub("\\.meta$"; "")) as $log | ($log | id) as $id
     | [$queue[] | select(.file_id == $id)] as $mine
     | ($newest | index([$log]) != null) as $current
     | {log: $log, queued_items: ($mine | length), queued_bytes: ([$mine[] | $size["\(.file_id):\(.offset)"]] | add // 0),
        pinned_by_queue: (($counts["\($id)"] // 0) + ([$takes[] | select(.file_id == $id)] | length)),
        pinned_by_inflight: ([($puts + $takes)[] | select(.file_id == $id)] | length),
        current_write_log: (if $current then 1 else 0 end),
        pinned_by_lower_log: (if $id > $lowest then 1 else 0 end),
        deletable: (if ($current | not) and $id < $lowest then 1 else 0 end),
        reclaimable_bytes: (if $current then 0 else $bytes[$log] end)}]
  | sort_by(.log)' "$1"
}
expected=$(expected_space "$work/gen.dump")
check "gen: the space report, from dump's records" "$expected" \
  "$(jq -c '[.entities[0].tables.data_log[] | del(.journal_bytes, .replay_bytes, .puts, .takes, .commits, .rollbacks)] | sort_by(.log)' "$work/gen.json")"
check "gen: reclaimable = the deletable logs' space" \
  "$(jq '[.[] | select(.deletable == 1) | .reclaimable_bytes] | add' <<<"$expected")" "$(gauges gen reclaimable_bytes | jq .reclaimable_bytes)"
check "gen: queued bytes = the queued puts' sizes" \
  "$(jq '[.[].queued_bytes] | add' <<<"$expected")" "$(gauges gen queued_bytes | jq .queued_bytes)"
# --by-header timestamp: each event has its own value, so the top 100 are
# the 100 bytewise-smallest values with one event each, the rest "other".
n=$(jq .queue_length "$work/gen_report.json")
check "gen: --by-header timestamp, rows" "100 1 $((n - 100)) 0" \
  "$(jq -r '.entities[0].tables.header_value | "\(map(select(.group == "value")) | length) \(map(select(.group == "value") | .queued_items) | unique | join(",")) \(.[] | select(.group == "other") | .queued_items) \(.[] | select(.group == "absent") | .queued_items)"' "$work/gen.json")"
check "gen: --by-header timestamp, the values" \
  "$(jq -sc 'def id: sub(".*/log-"; "") | tonumber;
      (map(select(.kind == "log_record" and .op == "PUT")) | map({key: "\(.file | id):\(.offset)", value: .headers.timestamp}) | from_entries) as $t
      | [(map(select(.kind == "checkpoint_element")) + [map(select(.kind == "inflight_takes"))[].pointers[]])[] | $t["\(.file_id):\(.offset)"]]
      | sort | .[0:100]' "$work/gen.dump")" \
  "$(jq -c '[.entities[0].tables.header_value[] | select(.group == "value") | .value]' "$work/gen.json")"
check "gen: --by-header bytes add up to the queued bytes" "$(gauges gen queued_bytes | jq .queued_bytes)" \
  "$(jq '[.entities[0].tables.header_value[].queued_bytes] | add' "$work/gen.json")"

# The same logs without a checkpoint: a full replay reads every record.
# Per log, dump's records by op; the same queue and open transactions.
rm -f "$g"/checkpoint/*
stats_of full $gc --capacity "$(jq .capacity "$work/gen_report.json")"
check "full replay: recovery" \
  '[{"source":"checkpoint","reason":"absent","chosen":0},{"source":"backup","reason":"not_configured","chosen":0},{"source":"logs","reason":"new_channel","chosen":1}]' \
  "$(table full recovery)"
check "full replay: queue and open transactions as gen wrote them" \
  "$(jq -c '{queued_items: .queue_length, open_transactions, inflight_puts: .in_flight_puts, inflight_takes: .in_flight_takes, records}' "$work/gen_report.json")" \
  "$(gauges full 'queued_items, open_transactions, inflight_puts, inflight_takes, records')"
check "full replay: each log's records by op and its bytes read" \
  "$(jq -sc '[map(select(.kind == "log_record")) | group_by(.file)[] | {log: .[0].file,
      replay_bytes: (map(select(.op == "END_OF_DATA"))[0].offset),
      puts: map(select(.op == "PUT")) | length, takes: map(select(.op == "TAKE")) | length,
      commits: map(select(.op == "COMMIT")) | length, rollbacks: map(select(.op == "ROLLBACK")) | length}] | sort_by(.log)' "$work/gen.dump")" \
  "$(jq -c '[.entities[0].tables.data_log[] | {log, replay_bytes, puts, takes, commits, rollbacks}] | sort_by(.log)' "$work/full.json")"

# -j: the same report whatever the jobs.
check "-j 2 gives the bytes of -j 1" "$("$qjt" stats $ch --json -j 1 | md5sum)" "$("$qjt" stats $ch --json -j 2 | md5sum)"

# A damaged generated channel: a queued event's put is broken.
"$qjt" gen flume -o "$work/flip" --records 500 --corrupt flip --seed 3 >/dev/null 2>&1
stats_of flip --checkpoint-dir "$work/flip/checkpoint" --data-dir "$work/flip/data1"
check "flip: exit 1, an error, the channel still reported" "1 true channel" \
  "$(cat "$work/flip.status") $(jq -r '"\(.errors > 0) \(.entities[0].kind)"' "$work/flip.json")"

# Flume's own V2 files (README of the fixtures): post-FLUME-1432, capacity
# 10, the 8 events "2684" .. "2691"; pre-FLUME-1432, capacity 10000, the 50
# events "rollback-0-0" .. "rollback-49-0" (12 bytes for N < 10, else 13).
if [ -d "$fixtures" ]; then
  lay_out() {
    mkdir -p "$work/$1/checkpoint" "$work/$1/data1" "$work/$1/data2" "$work/$1/data3"
    gunzip -c "$fixtures/$2checkpoint.gz" >"$work/$1/checkpoint/checkpoint"
    for i in 1 2 3; do gunzip -c "$fixtures/$2log-$i.gz" >"$work/$1/data$i/log-$i"; done
  }
  v2() { echo --checkpoint-dir "$work/$1/checkpoint" --data-dir "$work/$1/data1,$work/$1/data2,$work/$1/data3"; }
  lay_out post fileformat-v2-
  lay_out pre fileformat-v2-pre-FLUME-1432-
  stats_of post $(v2 post) --by-header timestamp
  check "v2 post: depth and bytes" '0 {"capacity":10,"queued_items":8,"fill_ratio":0.8,"queued_bytes":32,"journal_bytes":3145800,"reclaimable_bytes":0}' \
    "$(cat "$work/post.status") $(gauges post 'capacity, queued_items, fill_ratio, queued_bytes, journal_bytes, reclaimable_bytes')"
  check "v2 post: no headers: other 0, absent 8" '[0,8]' "$(jq -c '[.entities[0].tables.header_value[] | .queued_items]' "$work/post.json")"
  # Per log, from dump: the queued events (bodies 2684 .. 2691), the
  # records after the header's checkpoint position (2587 / 2557 / 2554)
  # whose write order id is past the checkpoint's (1344302226747), and
  # the bytes from that position to the end of the data.
  "$qjt" dump $(v2 post) --json >"$work/post.dump" 2>/dev/null
  check "v2 post: per log" \
    "$(jq -sc '(map(select(.kind == "log_record"))) as $r
      | [{p: 2587, f: "data1/log-1"}, {p: 2557, f: "data2/log-2"}, {p: 2554, f: "data3/log-3"}][] as $l
      | [$r[] | select(.file | endswith($l.f))] as $mine
      | [$mine[] | select(.offset >= $l.p and .op != "END_OF_DATA" and .write_order_id > 1344302226747)] as $read
      | {queued_items: [$mine[] | select(.op == "PUT" and (.data | tonumber) >= 2684)] | length,
         replay_bytes: (($mine[] | select(.op == "END_OF_DATA") | .offset) - $l.p),
         puts: [$read[] | select(.op == "PUT")] | length, takes: [$read[] | select(.op == "TAKE")] | length,
         commits: [$read[] | select(.op == "COMMIT")] | length, rollbacks: [$read[] | select(.op == "ROLLBACK")] | length,
         current_write_log: 1, deletable: 0}' "$work/post.dump" | jq -sc .)" \
    "$(jq -c '[.entities[0].tables.data_log[] | {queued_items, replay_bytes, puts, takes, commits, rollbacks, current_write_log, deletable}]' "$work/post.json")"
  stats_of pre $(v2 pre)
  check "v2 pre: depth and bytes" '0 {"capacity":10000,"queued_items":50,"queued_bytes":640}' \
    "$(cat "$work/pre.status") $(gauges pre 'capacity, queued_items, queued_bytes')"
else
  echo "no fixtures at $fixtures: the V2 checks skipped"
fi

[ "$failures" -eq 0 ]
