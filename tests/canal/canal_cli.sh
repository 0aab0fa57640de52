#!/bin/bash
# dump, verify and replay over testdata/canal. Expectations derived by hand:
#  - conf/example/meta.dat: the spec's §1.2 example (client 1001) and a
#    lagging client 1002 on mysql-bin.000265:4 from the same source, so
#    Canal's min (§1.3: same source, journal names as strings) restarts
#    from client 1002's cursor.
#  - logs/example/meta.log: line 4 moves client 1001 back (a warning),
#    line 5 is a stack trace (a warning); at 22:49:08.500 the last cursors
#    are lines 3 (1001) and 2 (1002), i.e. conf/example/meta.dat with an
#    empty filter for 1002 (the log does not carry filters).
#  - binlogs.txt lacks mysql-bin.000265: client 1002's journal is purged.
#  - metrics.prom: orders has 90000 - 70000 = 20000 events in flight in a
#    16384-slot buffer (S3), and 6.0E7 - 4.0E7 bytes > 16384 x 1024 (S4).
#
#   canal_cli.sh QJT TESTDATA_CANAL_DIR
source "$(dirname "$0")/lib.sh"
cd "$td" || exit 1

# ---- dump meta.dat ------------------------------------------------------------
check "dump: text" "meta.dat destination example, 2 client(s)
client 1001 destination example filter \"\": mysql-bin.000266:226987109 timestamp 1610750948000 (2021-01-15T22:49:08.000Z) server_id 2757725211 gtid \"\" included false source db1.internal:3306 slave_id -1
client 1002 destination example filter \"shop\\..*\": mysql-bin.000265:4 timestamp 1610740000000 (2021-01-15T19:46:40.000Z) server_id 2757725211 gtid \"\" included false source db1.internal:3306 slave_id -1
restart cursor: client 1002 at mysql-bin.000265:4 timestamp 1610740000000 (2021-01-15T19:46:40.000Z) server_id 2757725211 gtid \"\" included false source db1.internal:3306 slave_id -1" \
  "$("$qjt" dump conf/example/meta.dat)"
json=$("$qjt" dump --json conf/example/meta.dat)
check "dump --json: the restart cursor" \
  '{"client_id":1002,"journal_name":"mysql-bin.000265","position":4,"server_id":2757725211,"timestamp":1610740000000,"gtid":"","included":false,"address":"db1.internal","port":3306,"slave_id":-1}' \
  "$(jq -c .restart_cursor <<<"$json")"
check "dump --json: the file's own fields, field for field" \
  "$(jq -c '[.clientDatas[] | [.clientIdentity.clientId, .clientIdentity.filter, .cursor.postion.journalName, .cursor.postion.position, .cursor.postion.serverId, .cursor.postion.timestamp, .cursor.postion.gtid, .cursor.identity.sourceAddress.address]]' conf/example/meta.dat)" \
  "$(jq -c '[.clients[] | [.client_id, .filter, .cursor.journal_name, .cursor.position, .cursor.server_id, .cursor.timestamp, .cursor.gtid, .cursor.address]]' <<<"$json")"
check "dump --json: a client without a cursor" '{"client_id":1001,"destination":"example","filter":"","cursor":null}|null' \
  "$("$qjt" dump --json variants/no-cursor.dat 2>/dev/null | jq -c '.clients[0], .restart_cursor' | paste -sd'|')"
check "dump: legacy file, no gtid and no serverId" "null null" \
  "$("$qjt" dump --json variants/legacy-2015.dat | jq -r '.clients[0].cursor | "\(.gtid) \(.server_id)"')"
check "dump --format canal-meta-dat on an empty file: exit 1" 1 \
  "$("$qjt" dump --format canal-meta-dat /dev/null >/dev/null 2>&1; echo $?)"

# ---- verify meta.dat -------------------------------------------------------------
check "verify: the example is clean, and where Canal starts" "OK: 0 error(s), 0 warning(s) in 1 file(s), 2 record(s)
destination example: Canal starts from meta.dat: client 1002's cursor, mysql-bin.000265:4" \
  "$("$qjt" verify conf/example/meta.dat)"
for f in fastjson1-2018 legacy-2015 zk-type timestamp-cursor hand-edited; do
  check "verify: $f is valid" 0 "$("$qjt" verify -q "variants/$f.dat" >/dev/null; echo $?)"
done
verify_codes() { "$qjt" verify --json "$@" | jq -c '[.findings[] | "\(.severity) \(.code) \(.offset)"]'; }
check "verify: bad values, one finding each at the cursor" \
  '["error canal_position_range 94","error canal_timestamp_unit 380","error canal_journal_name 663","error canal_server_id_range 946","warning canal_included 1241","error canal_duplicate_client 1448"]' \
  "$(verify_codes variants/bad-values.dat)"
check "verify: fastjson 2.0.4's sourceAddress" '["error canal_fastjson_shape 139"]' "$(verify_codes variants/fastjson-2.0.4.dat)"
check "verify: truncated at 150" '["error canal_truncated 150"]' "$(verify_codes variants/truncated.dat)"
check "verify: empty" '["error canal_empty_file 0"]' "$(verify_codes conf/crashed/meta.dat)"
check "verify: in the wrong directory" '["error canal_destination_mismatch 0","error canal_destination_mismatch 16"]' \
  "$(verify_codes conf/moved/meta.dat)"
check "verify: no cursor, empty list" '["warning canal_no_cursor 16"]|["warning canal_no_clients 15"]' \
  "$(verify_codes variants/no-cursor.dat)|$(verify_codes variants/empty-clients.dat)"
check "verify --strict: a warning fails" 1 "$("$qjt" verify --strict variants/no-cursor.dat >/dev/null; echo $?)"
check "verify --binlogs: 1002's journal is purged" '["error canal_journal_purged 322"]' \
  "$(verify_codes --binlogs binlogs.txt conf/example/meta.dat)"
check "verify --binlogs: exit 1" 1 "$("$qjt" verify --binlogs binlogs.txt conf/example/meta.dat >/dev/null; echo $?)"

# ---- verify --metrics ---------------------------------------------------------------
metrics=$("$qjt" verify --json --metrics metrics.prom); status=$?
check "metrics: exit 1" 1 "$status"
check "metrics: stores" '[{"destination":"example","batch_mode":"MEMSIZE","buffer_size":16384,"in_flight_events":345,"in_flight_bytes":765432},{"destination":"orders","batch_mode":"MEMSIZE","buffer_size":16384,"in_flight_events":20000,"in_flight_bytes":20000000}]' \
  "$(jq -c .stores <<<"$metrics")"
check "metrics: findings" '["error canal_store_overflow","warning canal_store_mem_overflow"]' \
  "$(jq -c '[.findings[] | "\(.severity) \(.code)"]' <<<"$metrics")"
check "metrics: --memunit 2048 leaves only S3" '["canal_store_overflow"]' \
  "$("$qjt" verify --json --memunit 2048 --metrics metrics.prom | jq -c '[.findings[].code]')"

# ---- meta.log ---------------------------------------------------------------------
log=logs/example/meta.log
rolled=logs/example/2021-01-14/meta-2021-01-14-1.log.gz
check "dump meta.log: a line per cursor, in the order logged" \
  "2021-01-14T10:00:00.000Z  client 1001  mysql-bin.000264:396 timestamp 1610618400000 (2021-01-14T10:00:00.000Z) address db1.internal/10.0.0.5:3306
2021-01-14T10:00:01.000Z  client 1001  mysql-bin.000264:1200 timestamp 1610618401000 (2021-01-14T10:00:01.000Z)" "$("$qjt" dump "$rolled")"
check "dump meta.log: warnings on stderr, in the order of the lines" \
  "qjt: $log:406: warning[canal_cursor_backwards]: line 4: client 1001 moved back from mysql-bin.000266:226987109 to mysql-bin.000266:226900000
qjt: $log:544: warning[canal_log_line]: line 5 is not a cursor line (\"TIME - clientId:N cursor:[...] address[...]\"); skipped" \
  "$("$qjt" dump "$log" 2>&1 >/dev/null)"
check "replay: text, a line per cursor as dump shows it" "$("$qjt" dump "$rolled" "$log" 2>/dev/null)" \
  "$("$qjt" replay "$rolled" "$log" 2>/dev/null)"
history=$("$qjt" replay --json "$rolled" "$log" 2>/dev/null)
check "replay --json: one JSON line per cursor, rolled file first" "7 [1,2,1,2,3,4,6]" \
  "$(jq -s 'length' <<<"$history") $(jq -sc '[.[].line]' <<<"$history")"
check "replay: the GTID set with commas, the address without a host name" \
  '{"gtid":"3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5,3e11fa47-71ca-11e1-9e33-c80aa9429563:1-2","address":"10.0.0.5","server_id":2757725211}' \
  "$(jq -sc '.[-1] | {gtid, address, server_id}' <<<"$history")"
check "replay: the rolled line without an address keeps the last one" '"db1.internal"' \
  "$(jq -sc '.[1].address' <<<"$history")"
expected_at=$(jq -c '.clientDatas[1].clientIdentity.filter = ""' conf/example/meta.dat | tr -d '\n')
at_meta_dat() { "$qjt" replay --json "$@" 2>/dev/null | jq -j .meta_dat; }
check "replay --json --at local time: the meta.dat Canal had, byte for byte" "$expected_at" \
  "$(at_meta_dat --at '2021-01-15 22:49:08.500' "$log")"
check "replay --json --at epoch ms: no trailing newline" "$(printf '%s' "$expected_at" | wc -c)" \
  "$(at_meta_dat --at 1610750948500 "$log" | wc -c)"
check "replay --at: text, the cursors as dump shows a meta.dat" \
  "at 2021-01-15T22:49:08.500Z, by the log:
meta.dat destination example, 2 client(s)
client 1001 destination example filter \"\": mysql-bin.000266:226987109 timestamp 1610750948000 (2021-01-15T22:49:08.000Z) server_id 2757725211 gtid \"\" included false source db1.internal:3306 slave_id -1
client 1002 destination example filter \"\": mysql-bin.000265:4 timestamp 1610740000000 (2021-01-15T19:46:40.000Z) server_id 2757725211 gtid \"\" included false source db1.internal:3306 slave_id -1
restart cursor: client 1002 at mysql-bin.000265:4 timestamp 1610740000000 (2021-01-15T19:46:40.000Z) server_id 2757725211 gtid \"\" included false source db1.internal:3306 slave_id -1" \
  "$("$qjt" replay --at 1610750948500 "$log" 2>/dev/null)"
check "replay --at before the first line: exit 1" 1 "$("$qjt" replay --at 1000 "$log" >/dev/null 2>&1; echo $?)"
check "replay --at garbage: usage" 2 "$("$qjt" replay --at soon "$log" >/dev/null 2>&1; echo $?)"
check "replay --at and the log's times in one --tz zone: the same meta.dat" "$expected_at" \
  "$(at_meta_dat --tz +08:00 --at '2021-01-15 22:49:08.500' "$log")"
check "replay of a meta.dat: usage" 2 "$("$qjt" replay conf/example/meta.dat >/dev/null 2>&1; echo $?)"
check "verify meta.log: warnings only" 0 "$("$qjt" verify "$log" >/dev/null; echo $?)"
check "verify --format canal-meta-log on a gzip with a damaged tail: exit 1" 1 \
  "$(head -c 60 "$rolled" > /tmp/qjt-canal-$$.gz; "$qjt" verify --format canal-meta-log /tmp/qjt-canal-$$.gz >/dev/null; echo $?; rm -f /tmp/qjt-canal-$$.gz)"
check "unknown --format: usage" 2 "$("$qjt" dump --format canal-zk conf/example/meta.dat >/dev/null 2>&1; echo $?)"


# ---- formats of values: --tz, filters on meta.log lines, ISO 8601 in text --------
check "--tz +08:00: time_ms read in that zone" 1610722147101 \
  "$("$qjt" dump --json --tz +08:00 "$log" 2>/dev/null | jq -s '.[0].time_ms')"
check "--tz Asia/Shanghai: the same" 1610722147101 \
  "$("$qjt" dump --json --tz Asia/Shanghai "$log" 2>/dev/null | jq -s '.[0].time_ms')"
check "--tz unknown: usage" 2 "$("$qjt" dump --tz Mars/Olympus "$log" >/dev/null 2>&1; echo $?)"
check "--since/--until on the line's time (TZ=UTC)" "3 4" \
  "$("$qjt" dump --json --since 2021-01-15T22:49:08Z --until 2021-01-15T22:49:09.103Z "$log" 2>/dev/null |
     jq -r .line | paste -sd' ')"
check "--since with --tz: the zone moves the lines" "" \
  "$("$qjt" dump --json --tz +08:00 --since 2021-01-15T22:49:00Z "$log" 2>/dev/null | jq -r .line)"
check "--local-time: the text in the --tz zone, as the log wrote it" "2021-01-14T10:00:00.000+08:00  client 1001" \
  "$("$qjt" dump --local-time --tz +08:00 "$rolled" | head -1 | cut -c1-42)"
check "--from-offset on the text's offsets" "6" \
  "$("$qjt" dump --json --from-offset 545 "$log" 2>/dev/null | jq -r .line)"
check "filters on a meta.dat: usage" 2 "$("$qjt" dump --since 0 conf/example/meta.dat >/dev/null 2>&1; echo $?)"
check "--xid on a meta.log: usage" 2 "$("$qjt" dump --xid 1 "$log" >/dev/null 2>&1; echo $?)"
check "replay --at ISO 8601" "$expected_at" "$(at_meta_dat --at 2021-01-15T22:49:08.500Z "$log")"

finish
