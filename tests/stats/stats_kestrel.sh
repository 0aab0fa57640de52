#!/usr/bin/env bash
# stats_kestrel.sh QJT PROMETHEUS_LINT TESTDATA SHARED: `qjt stats` on
# classic Kestrel queues, every figure against values known without qjt's
# replay:
#   sample     testdata/kestrel/sample, whose queues' contents are derived by
#              hand (testdata/kestrel/expected/spec/replay-sample.json) and
#              whose file sizes are the files'
#   gen        journals of `qjt gen kestrel`, whose report states the records,
#              bytes, queue length and open transactions it wrote
#   damaged    a broken record: an error finding, exit 1, the figures of what
#              precedes it
#   outputs    every Prometheus report through prometheus_lint, the JSON
#              through jq, and -j 2 giving the bytes of -j 1
# Run with TZ=UTC and QJT_NOW_MS=1700000000000 (tests/stats/CMakeLists.txt).
set -u
source "$(dirname "$0")/common.sh"
now=1700000000000

# q FILE QUEUE JQ: JQ applied to the entity of QUEUE in the report FILE.
q() {
  jq -c --arg q "$2" ".entities[] | select(.kind == \"queue\" and .labels.queue == \$q) | $3" "$1"
}


sample=$testdata/kestrel/sample
size() { stat -c %s "$1"; }

# ---------------------------------------------------------------- sample
stats_json "$tmp/sample.json" "$sample"
expect "sample: exit status" "$status" 0
expect "sample: labels" "$(jq -c '[.entities[] | .labels]' "$tmp/sample.json")" \
  "[{\"format\":\"kestrel\",\"path\":\"$sample\",\"queue\":\"events\"},{\"format\":\"kestrel\",\"path\":\"$sample\",\"queue\":\"orders\"}]"
# orders: orders.1700000000000 (5 records) then orders (4); the queue holds
# items of 48 and 36 bytes added at ...10000 (expiring) and ...20000, and
# xid 2 holds a 36-byte item added at 1699999910000. live = (21+36+5) +
# (21+48) + (21+36).
o=$tmp/sample.json
a=$(size "$sample/orders.1700000000000")
l=$(size "$sample/orders")
expect "orders: records" "$(q "$o" orders .gauges.records)" 9
expect "orders: queued" "$(q "$o" orders '[.gauges.queued_items, .gauges.queued_bytes]')" "[2,84]"
expect "orders: queued payload" "$(q "$o" orders '.distributions.queued_payload_bytes | [.count, .min, .max]')" "[2,36,48]"
expect "orders: oldest and newest" \
  "$(q "$o" orders '[.gauges.oldest_item_add_time_ms, .gauges.oldest_item_age_ms, .gauges.newest_item_add_time_ms, .gauges.newest_item_age_ms]')" \
  "[1700000010000,$((now - 1700000010000)),1700000020000,$((now - 1700000020000))]"
expect "orders: expiry" "$(q "$o" orders '[.gauges.expired_items, .gauges.items_without_expiry]')" "[0,1]"
expect "orders: open transactions" "$(q "$o" orders .gauges.open_transactions)" 1
expect "orders: oldest open transaction" "$(q "$o" orders '.tables.oldest_open_transaction')" \
  "[{\"xid\":\"2\",\"item_add_time_ms\":1699999910000,\"item_age_ms\":$((now - 1699999910000))}]"
expect "orders: space" \
  "$(q "$o" orders '[.gauges.journal_bytes, .gauges.archived_bytes, .gauges.live_bytes, .gauges.reclaimable_bytes]')" \
  "[$((a + l)),$a,188,$((a + l - 188))]"
expect "orders: overflow" "$(q "$o" orders '.gauges.journal_overflow_ratio * 1000 | floor')" $(((a + l) * 1000 / 188))
# The archived segment still adds xid 2's item (ADDX of 36 bytes: 57), the
# live one both queued items (57 and 69 bytes).
expect "orders: segments" "$(q "$o" orders '[.tables.segment[] | [.file, .role, .records, .journal_bytes, .queued_items, .reclaimable_bytes]]')" \
  "[[\"orders.1700000000000\",\"archived\",5,$a,1,$((a - 57))],[\"orders\",\"live\",4,$l,2,$((l - 126))]]"
expect "orders: startup" "$(q "$o" orders '[.gauges.startup_pack_installs, .gauges.startup_deletions, .tables.startup_action]')" \
  "[0,1,[{\"file\":\"orders~~1700000003000\",\"action\":\"delete_temp_file\",\"size_bytes\":$(size "$sample/orders~~1700000003000")}]]"
# events: the leftover pack replaces events.1700000001000 and
# events.1700000002000; it holds 1 record, the live journal 3, two 29- and
# 39-byte items queued. live = (21+29) + (21+39).
p=$(size "$sample/events.1700000002000.pack")
l=$(size "$sample/events")
expect "events: records" "$(q "$o" events .gauges.records)" 4
expect "events: queued" "$(q "$o" events '[.gauges.queued_items, .gauges.queued_bytes, .gauges.open_transactions]')" "[2,68,0]"
expect "events: space" \
  "$(q "$o" events '[.gauges.journal_bytes, .gauges.archived_bytes, .gauges.live_bytes, .gauges.reclaimable_bytes]')" \
  "[$((p + l)),$p,110,$((p + l - 110))]"
expect "events: startup" "$(q "$o" events '[.gauges.startup_pack_installs, .gauges.startup_deletions]')" "[1,2]"
expect "events: startup actions" "$(q "$o" events '[.tables.startup_action[] | [.file, .action, .size_bytes]]')" \
  "[[\"events.1700000002000.pack\",\"install_pack\",$p],[\"events.1700000001000\",\"delete_superseded_segment\",$(size "$sample/events.1700000001000")],[\"events.1700000002000\",\"delete_superseded_segment\",$(size "$sample/events.1700000002000")]]"
expect "events: the leftover pack's segment" "$(q "$o" events '.tables.segment[0] | [.file, .role, .records]')" \
  '["events.1700000002000.pack","pack",1]'
expect "sample: layout warnings" "$(jq -c '[.errors, .warnings]' "$o")" "[0,4]"

# ---------------------------------------------------------------- gen
# All adds, no remove: R records of 21+N bytes, add times first, first+1...
"$qjt" gen kestrel -o "$tmp/adds" --records 500 --payload-size 40 --remove-share 0 --json >"$tmp/adds.gen" ||
  fail "gen adds"
stats_json "$tmp/adds.json" "$tmp/adds"
expect "adds: exit status" "$status" 0
expect "adds: opcodes" "$(q "$tmp/adds.json" adds '.tables.opcode')" '[{"op":"ADDX","records":500,"records_bytes":30500}]'
expect "adds: payload" "$(q "$tmp/adds.json" adds '.distributions.payload_bytes | [.count, .sum, .min, .p50, .p90, .p99, .max]')" \
  "[500,20000,40,40,40,40,40]"
expect "adds: queued" "$(q "$tmp/adds.json" adds '[.gauges.queued_items, .gauges.queued_bytes, .gauges.items_without_expiry, .gauges.expired_items]')" \
  "[500,20000,500,0]"
expect "adds: add times" "$(q "$tmp/adds.json" adds '[.gauges.oldest_item_add_time_ms, .gauges.newest_item_add_time_ms]')" \
  "[$now,$((now + 499))]"
expect "adds: nothing to reclaim" "$(q "$tmp/adds.json" adds '[.gauges.journal_bytes, .gauges.live_bytes, .gauges.reclaimable_bytes, .gauges.journal_overflow_ratio]')" \
  "[30500,30500,0,1]"
expect "adds: path of a file named directly" "$(q "$tmp/adds.json" adds .labels.path)" "\"$tmp\""

# A queue directory of segments, with removes and open transactions: the
# gen report's figures, file by file.
"$qjt" gen kestrel -o "$tmp/dir" --records 4000 --segments 4 --open 3 --json >"$tmp/dir.gen" || fail "gen dir"
stats_json "$tmp/dir.json" "$tmp/dir"
expect "dir: exit status" "$status" 0
r=$tmp/dir.json
g=$tmp/dir.gen
expect "dir: records" "$(q "$r" q .gauges.records)" "$(jq .records "$g")"
expect "dir: journal" "$(q "$r" q .gauges.journal_bytes)" "$(jq .bytes "$g")"
expect "dir: queued items" "$(q "$r" q .gauges.queued_items)" "$(jq .queue_length "$g")"
expect "dir: open transactions" "$(q "$r" q .gauges.open_transactions)" "$(jq .open_transactions "$g")"
expect "dir: opcode records" "$(q "$r" q '[.tables.opcode[].records] | add')" "$(jq .records "$g")"
expect "dir: opcode bytes" "$(q "$r" q '[.tables.opcode[].records_bytes] | add')" "$(jq .bytes "$g")"
expect "dir: adds" "$(q "$r" q '[.tables.opcode[] | select(.op == "ADDX") | .records][0]')" "$(jq .items_added "$g")"
expect "dir: confirmed" "$(q "$r" q '[.tables.opcode[] | select(.op == "CONFIRM_REMOVE") | .records][0]')" \
  "$(jq .transactional_removes "$g")"
expect "dir: unremoves" "$(q "$r" q '[.tables.opcode[] | select(.op == "UNREMOVE") | .records][0] // 0')" "$(jq .unremoves "$g")"
expect "dir: segments" "$(q "$r" q '[.tables.segment[] | [.records, .journal_bytes]]')" \
  "$(jq -c '[.files[] | [.records, .bytes]]' "$g")"
expect "dir: segment items" "$(q "$r" q '[.tables.segment[].queued_items] | add')" \
  "$(jq '.queue_length + .open_transactions' "$g")"
expect "dir: archived" "$(q "$r" q .gauges.archived_bytes)" "$(jq '[.files[] | select(.role != "live") | .bytes] | add' "$g")"
expect "dir: oldest open transaction" "$(q "$r" q '.tables.oldest_open_transaction[0].xid')" '"1"'

# An empty queue: its whole journal is reclaimable.
"$qjt" gen kestrel -o "$tmp/empty" --records 1000 --segments 3 --remove-share 1 --transactional 0 --json \
  >"$tmp/empty.gen" || fail "gen empty"
stats_json "$tmp/empty.json" "$tmp/empty"
expect "empty: queue" "$(q "$tmp/empty.json" q '[.gauges.queued_items, .gauges.open_transactions, .gauges.live_bytes]')" "[0,0,0]"
expect "empty: reclaimable" "$(q "$tmp/empty.json" q '[.gauges.reclaimable_bytes, .gauges.journal_bytes]')" \
  "[$(jq .bytes "$tmp/empty.gen"),$(jq .bytes "$tmp/empty.gen")]"
expect "empty: no overflow ratio" "$(q "$tmp/empty.json" q '.gauges | has("journal_overflow_ratio")')" false
expect "empty: segments hold nothing" "$(q "$tmp/empty.json" q '[.tables.segment[] | .journal_bytes == .reclaimable_bytes] | all')" true

# ---------------------------------------------------------------- damaged
broken=$testdata/kestrel/files/broken-truncated-data
stats_json "$tmp/broken.json" "$broken"
expect "broken: exit status" "$status" 1
expect "broken: finding" "$(jq -c '[.ok, .errors, .findings[0].code]' "$tmp/broken.json")" '[false,1,"broken_record"]'
expect "broken: a queue all the same" "$(jq '[.entities[] | select(.kind == "queue")] | length' "$tmp/broken.json")" 1
"$qjt" stats "$broken" >/dev/null 2>"$tmp/broken.err"
expect "broken: text exit status" "$?" 1
grep -q broken_record "$tmp/broken.err" || fail "broken: no broken_record on standard error"
"$qjt" gen kestrel -o "$tmp/cut" --records 300 --segments 2 --corrupt truncate --json >"$tmp/cut.gen" || fail "gen cut"
stats_json "$tmp/cut.json" "$tmp/cut"
expect "cut: exit status" "$status" 1
expect "cut: records before the cut" "$(q "$tmp/cut.json" q .gauges.records)" "$(($(jq .records "$tmp/cut.gen") - 1))"
stats_json "$tmp/missing.json" "$tmp/no-such-dir"
expect "missing: exit status" "$status" 3

# ---------------------------------------------------------------- outputs
lint "$sample"
lint "$tmp/dir" "$tmp/adds" "$tmp/empty"
lint "$broken"
for d in "$testdata"/kestrel/dirs/*; do lint "$d"; done
all=("$sample" "$tmp/dir" "$tmp/adds" "$tmp/empty" "$testdata"/kestrel/dirs/* "$testdata"/kestrel/files/*)
jobs_match "${all[@]}"
"$qjt" stats --json "${all[@]}" 2>/dev/null | jq -e '.type == "stats"' >/dev/null || fail "JSON: not one stats object"
grep -q '^qjt_segment_reclaimable_bytes{format="kestrel",path=".*",queue="orders",file="orders",role="live"} ' \
  <("$qjt" stats --prometheus "$sample" 2>/dev/null) || fail "prometheus: no series of the live segment's reclaimable bytes"

finish stats_kestrel
