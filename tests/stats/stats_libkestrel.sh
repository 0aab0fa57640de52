#!/usr/bin/env bash
# stats_libkestrel.sh QJT PROMETHEUS_LINT TESTDATA SHARED: `qjt stats` on
# Kestrel 3 (libkestrel) queues, every figure against values known without
# qjt's replay:
#   queue    testdata/libkestrel/queue, laid out by hand from the spec
#            (tests/support/make_libkestrel_testdata.cc): six items of
#            5, 5, 7, 5, 4, 7 bytes added at 1700000000000 + 1000 * id,
#            id 2 expiring at 1700000600000; segments of 72, 66 and 81
#            bytes (ids 1-2, 3-4, 5-6), bookmarks of 18 (audit: head 4) and
#            26 (web: head 3, done {5}) bytes (record sizes as in
#            tests/libkestrel/libkestrel_cli.sh). A reader needs a segment
#            while its head is below the id before the next segment's first
#            (2, 4; 6 for the last): audit needs the last, web the last two.
#            minHead = min(6, 4 + 1, 3 + 1) = 4, so compaction deletes the
#            first segment only.
#   files    the same files named directly: the same entities
#   damaged  testdata/libkestrel/damaged: a broken record, an error, exit 1,
#            and the figures of what precedes it
#   gen      a queue of `qjt gen libkestrel`, whose options fix the items,
#            their sizes and each reader's head and done ids
#   outputs  every Prometheus report through prometheus_lint, the JSON
#            through jq, and -j 2 giving the bytes of -j 1
# Run with TZ=UTC and QJT_NOW_MS=1700000000000 (tests/stats/CMakeLists.txt);
# the figures of ages set QJT_NOW_MS themselves.
set -u
source "$(dirname "$0")/common.sh"

# entity FILE KIND READER JQ: JQ applied to the entity of KIND (and READER
# for a reader) in the report FILE.
entity() {
  jq -c --arg k "$2" --arg r "$3" \
    ".entities[] | select(.kind == \$k and (\$k == \"queue\" or .labels.reader == \$r)) | $4" "$1"
}


queue=$testdata/libkestrel/queue
damaged=$testdata/libkestrel/damaged

# ---------------------------------------------------------------- queue
QJT_NOW_MS=1700000010000 stats_json "$tmp/queue.json" "$queue"
expect "queue: exit status" "$status" 0
expect "queue: no findings" "$(jq -c '[.ok, .findings]' "$tmp/queue.json")" '[true,[]]'
expect "queue: entities" "$(jq -c '[.entities[] | [.kind, .labels]]' "$tmp/queue.json")" \
  "[[\"queue\",{\"format\":\"libkestrel\",\"path\":\"$queue\",\"queue\":\"jobs\"}],[\"reader\",{\"format\":\"libkestrel\",\"path\":\"$queue\",\"queue\":\"jobs\",\"reader\":\"audit\"}],[\"reader\",{\"format\":\"libkestrel\",\"path\":\"$queue\",\"queue\":\"jobs\",\"reader\":\"web\"}]]"
# 6 PUTs and 2 records per bookmark; 72 + 66 + 81 + 18 + 26 bytes; 5+5+7+5+4+7
# payload bytes; the oldest add 1700000001000 is 9 s before now.
expect "queue: gauges" "$(entity "$tmp/queue.json" queue '' .gauges)" \
  '{"records":10,"journal_bytes":263,"segments":3,"readers":2,"tail_id":6,"queued_items":6,"queued_bytes":33,"oldest_item_add_time_ms":1700000001000,"newest_item_add_time_ms":1700000006000,"oldest_item_age_ms":9000,"expired_items":0,"items_without_expiry":5,"reclaimable_bytes":72}'
# Sizes 4 5 5 5 7 7: nearest ranks 3 (p50) and 6 (p90, p99).
expect "queue: payload" "$(entity "$tmp/queue.json" queue '' .distributions.payload_bytes)" \
  '{"count":6,"sum":33,"min":4,"p50":5,"p90":7,"p99":7,"max":7}'
# file, first, last, items, bytes, readers needing it, deleted, freed once
# passed (72, 72 + 66; none for the last segment, which libkestrel writes).
expect "queue: segments" \
  "$(entity "$tmp/queue.json" queue '' '[.tables.segment[] | [.[]]]')" \
  '[["jobs.1700000000000",1,2,2,72,0,1,72],["jobs.1700000001000",3,4,2,66,1,0,138],["jobs.1700000002000",5,6,2,81,2,0,null]]'
# The space report: web (head 3) holds the middle segment, where it still
# reads 4 (delta, 5 bytes); in the last, web reads 6 (7 bytes: 5 is done)
# and audit 5 and 6 (4 + 7).
expect "queue: space report" \
  "$(entity "$tmp/queue.json" queue '' '[.tables.segment_reader[] | [.[]]]')" \
  '[["jobs.1700000001000","web",3,1,5],["jobs.1700000002000","web",3,1,7],["jobs.1700000002000","audit",4,2,11]]'
expect "reader audit" "$(entity "$tmp/queue.json" reader audit .gauges)" \
  '{"head_id":4,"done_items":0,"pending_items":2,"pending_bytes":11,"lag_items":2,"oldest_item_add_time_ms":1700000005000,"lag_ms":5000,"needed_segments":1}'
expect "reader web" "$(entity "$tmp/queue.json" reader web .gauges)" \
  '{"head_id":3,"done_items":1,"pending_items":2,"pending_bytes":12,"lag_items":3,"oldest_item_add_time_ms":1700000004000,"lag_ms":6000,"needed_segments":2}'
# Item 2 expires at 1700000600000: expired from then on.
QJT_NOW_MS=1700000600000 stats_json "$tmp/later.json" "$queue"
expect "queue: expired at its expiry" "$(entity "$tmp/later.json" queue '' '.gauges.expired_items')" 1

# ---------------------------------------------------------------- files
QJT_NOW_MS=1700000010000 stats_json "$tmp/files.json" "$queue"/jobs.*
expect "files: exit status" "$status" 0
expect "files: the directory's entities" "$(jq -c .entities "$tmp/files.json")" "$(jq -c .entities "$tmp/queue.json")"

# ---------------------------------------------------------------- damaged
# q.1: PUT 1 (28 bytes), an unknown command (5), PUT 2 (28), PUT 3 cut
# (28): 93 bytes; q.2: PUT 4 (29), an end byte, 4 more: 38; q.read.: 34.
# Records: 3 in q.1 (the broken one not counted), 1 in q.2, 2 in q.read.
# The default reader's head 7 is clamped to the tail 4: nothing pending.
stats_json "$tmp/damaged.json" "$damaged"
expect "damaged: exit status" "$status" 1
expect "damaged: error finding" "$(jq -c '[.ok, ([.findings[].code] | index("broken_record") != null)]' \
  "$tmp/damaged.json")" '[false,true]'
expect "damaged: queue" \
  "$(entity "$tmp/damaged.json" queue '' '[.gauges | .records, .journal_bytes, .tail_id, .queued_items, .queued_bytes, .reclaimable_bytes]')" \
  '[6,165,4,3,10,93]'
expect "damaged: segments" "$(entity "$tmp/damaged.json" queue '' '[.tables.segment[] | [.[]]]')" \
  '[["q.1",1,2,2,93,0,1,93],["q.2",4,4,1,38,0,0,null]]'
expect "damaged: the default reader" \
  "$(entity "$tmp/damaged.json" reader '' '[.labels.reader, .gauges.head_id, .gauges.pending_items, .gauges.lag_ms]')" \
  '["",4,0,0]'
"$qjt" stats "$damaged" >"$tmp/damaged.txt" 2>"$tmp/damaged.err"
expect "damaged text: exit status" "$?" 1
grep -q broken_record "$tmp/damaged.err" || fail "damaged text: no broken_record on stderr"
grep -q '^queue ' "$tmp/damaged.txt" || fail "damaged text: no queue figures"

# ---------------------------------------------------------------- gen
# 400 items of 100 bytes in 4 segments; a at head 100 and b at 250, each
# with 3 ids done beyond its head: a reads 400 - 100 - 3 = 297 items.
"$qjt" gen libkestrel --records 400 --payload-size 100 --segments 4 --reader a=100 --reader b=250 --done 3 \
  --add-time 1700000000000 -o "$tmp/gen" >/dev/null 2>&1 || fail "gen exited $?"
stats_json "$tmp/gen.json" "$tmp/gen"
expect "gen: exit status" "$status" 0
expect "gen: queue" "$(entity "$tmp/gen.json" queue '' '[.gauges | .queued_items, .queued_bytes, .tail_id, .readers, .segments, .oldest_item_add_time_ms, .newest_item_add_time_ms]')" \
  '[400,40000,400,2,4,1700000000000,1700000000399]'
expect "gen: reader a" "$(entity "$tmp/gen.json" reader a '[.gauges | .head_id, .done_items, .pending_items, .pending_bytes, .lag_items]')" \
  '[100,3,297,29700,300]'
expect "gen: reader b" "$(entity "$tmp/gen.json" reader b '[.gauges | .head_id, .done_items, .pending_items, .pending_bytes, .lag_items]')" \
  '[250,3,147,14700,150]'
# The sum of the segments' bytes is the directory's, less the bookmarks'.
seg_bytes=$(cat "$tmp"/gen/q.[0-9]* | wc -c)
expect "gen: segment bytes" "$(entity "$tmp/gen.json" queue '' '[.tables.segment[].journal_bytes] | add')" "$seg_bytes"
expect "gen: every space report row names a slowest-first reader" \
  "$(entity "$tmp/gen.json" queue '' '[.tables.segment_reader[] | .reader] | unique')" '["a","b"]'

# ---------------------------------------------------------------- outputs
lint "$queue"
lint "$damaged"
lint "$queue" "$damaged" "$tmp/gen"
"$qjt" stats --prometheus "$queue" >"$tmp/queue.prom" 2>/dev/null
grep -q '^qjt_segment_reader_head_id{format="libkestrel",path="[^"]*",queue="jobs",file="jobs.1700000001000",reader="web"} 3$' \
  "$tmp/queue.prom" || fail "prometheus: no space report series"
grep -q '^qjt_reader_lag_seconds{format="libkestrel",path="[^"]*",queue="jobs",reader="web"} -4$' "$tmp/queue.prom" ||
  fail "prometheus: no lag of web in seconds"
jobs_match "$queue" "$damaged" "$tmp/gen"

finish stats_libkestrel
