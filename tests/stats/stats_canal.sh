#!/bin/bash
# qjt stats over testdata/canal, every figure against the files' own
# contents read by hand (canal_cli.sh says what they hold), at
# QJT_NOW_MS=1700000000000 and TZ=UTC:
#  - conf/example/meta.dat: client 1001 at mysql-bin.000266:226987109,
#    timestamp 1610750948000 (lag 1700000000000 - 1610750948000 =
#    89249052000 ms); client 1002 at mysql-bin.000265:4, timestamp
#    1610740000000 (lag 89260000000 ms), the restart cursor (same source,
#    .000265 < .000266).
#  - the binlogs written below: .000264 1000 bytes, .000265 2000, .000266
#    536870912, .000267 102400. Client 1001 is behind by 1 binlog and
#    536870912 - 226987109 + 102400 = 309986203 bytes; client 1002 by 2 and
#    (2000 - 4) + 536870912 + 102400 = 536975308. The restart cursor needs
#    3 binlogs, 2000 + 536870912 + 102400 = 536975312 bytes; .000264 (1000
#    bytes) is reclaimable. testdata's binlogs.txt lacks .000265: client
#    1002's binlog is purged.
#  - logs/example/meta.log (780 bytes): cursor lines at 22:49:07.101 (1001
#    and 1002), 08.102, 09.103 and 10.104 (1001), a stack trace between:
#    span 3003 ms; client 1001 has 4 lines and 3 changes (3000/3003 a
#    second), the last at 22:49:10.104 (1610750950104), ending at
#    mysql-bin.000267:4 timestamp 1610750950000; client 1002 has 1 line
#    and no change. The rolled .log.gz (139 bytes): client 1001 at 10:00:00
#    and 10:00:01 on 2021-01-14, positions 396 then 1200.
#
#   stats_canal.sh QJT PROMETHEUS_LINT TESTDATA_DIR SHARED_FIXTURES_DIR
set -uo pipefail
qjt=$1
lint=$2
source "$(dirname "$0")/../check.sh"
cd "$3/canal" || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

dat=conf/example/meta.dat
log=logs/example/meta.log
rolled=logs/example/2021-01-14/meta-2021-01-14-1.log.gz
printf 'Log_name\tFile_size\tEncrypted\nmysql-bin.000264\t1000\tNo\nmysql-bin.000265\t2000\tNo\nmysql-bin.000266\t536870912\tNo\nmysql-bin.000267\t102400\tNo\n' \
  >"$work/binlogs.tsv"

# entity KIND PATH [CLIENT]: that entity of the JSON report on stdin
# (after which, when the exit status is not 0, qjt writes an error object).
entity() {
  jq -c --arg k "$1" --arg p "$2" --arg c "${3:-}" \
    'select(.type == "stats") | .entities[] | select(.kind == $k and .labels.path == $p and ($c == "" or .labels.client == $c))'
}
# The report object of a --json run's output.
report() { jq -c 'select(.type == "stats")'; }

# ---- meta.dat -------------------------------------------------------------------
json=$("$qjt" stats --json "$dat"); status=$?; json=$(report <<<"$json")
check "meta.dat: exit 0, no findings" "0 true []" "$status $(jq -c '.ok, .findings' <<<"$json" | paste -sd' ')"
check "meta.dat: entities, in file order" \
  '[["destination",{"format":"canal","path":"conf/example/meta.dat","destination":"example"}],["client",{"format":"canal","path":"conf/example/meta.dat","destination":"example","client":"1001"}],["client",{"format":"canal","path":"conf/example/meta.dat","destination":"example","client":"1002"}]]' \
  "$(jq -c '[.entities[] | [.kind, .labels]]' <<<"$json")"
check "meta.dat: the destination's clients and restart cursor (client 1002)" \
  '{"clients":2}|{"restart":[{"client":"1002","journal":"mysql-bin.000265","journal_sequence":265,"position":4,"cursor_time_ms":1610740000000,"lag_ms":89260000000,"needed_binlogs":null,"needed_bytes":null}]}' \
  "$(entity destination "$dat" <<<"$json" | jq -c '.gauges, .tables' | paste -sd'|')"
check "meta.dat: client 1001's cursor, timestamp and lag" \
  '{"cursor_time_ms":1610750948000,"lag_ms":89249052000}|{"cursor":[{"journal":"mysql-bin.000266","journal_sequence":266,"position":226987109}]}' \
  "$(entity client "$dat" 1001 <<<"$json" | jq -c '.gauges, .tables' | paste -sd'|')"
check "meta.dat: client 1002's" \
  '{"cursor_time_ms":1610740000000,"lag_ms":89260000000}|{"cursor":[{"journal":"mysql-bin.000265","journal_sequence":265,"position":4}]}' \
  "$(entity client "$dat" 1002 <<<"$json" | jq -c '.gauges, .tables' | paste -sd'|')"

# ---- --binlogs ------------------------------------------------------------------
json=$("$qjt" stats --json --binlogs "$work/binlogs.tsv" "$dat"); status=$?; json=$(report <<<"$json")
check "--binlogs: exit 0" "0 true" "$status $(jq .ok <<<"$json")"
check "--binlogs: client 1001 behind by 1 binlog, 309986203 bytes" \
  '{"binlog_purged":0,"behind_binlogs":1,"behind_bytes":309986203}' \
  "$(entity client "$dat" 1001 <<<"$json" | jq -c '.gauges | {binlog_purged, behind_binlogs, behind_bytes}')"
check "--binlogs: client 1002 behind by 2 binlogs, 536975308 bytes" \
  '{"binlog_purged":0,"behind_binlogs":2,"behind_bytes":536975308}' \
  "$(entity client "$dat" 1002 <<<"$json" | jq -c '.gauges | {binlog_purged, behind_binlogs, behind_bytes}')"
check "--binlogs: the space report: what the slowest client needs, what no client needs" \
  '{"clients":2,"reclaimable_binlogs":1,"reclaimable_bytes":1000}|{"client":"1002","journal":"mysql-bin.000265","needed_binlogs":3,"needed_bytes":536975312}' \
  "$(entity destination "$dat" <<<"$json" | jq -c '.gauges, (.tables.restart[0] | {client, journal, needed_binlogs, needed_bytes})' | paste -sd'|')"

json=$("$qjt" stats --json --binlogs binlogs.txt "$dat"); status=$?; json=$(report <<<"$json")
check "--binlogs without .000265: exit 1, canal_journal_purged with its hint" \
  '1 ["error canal_journal_purged 322 true"]' \
  "$status $(jq -c '[.findings[] | "\(.severity) \(.code) \(.offset) \(.hint != null)"]' <<<"$json")"
check "--binlogs without .000265: client 1002 purged, no distance" '{"binlog_purged":1}' \
  "$(entity client "$dat" 1002 <<<"$json" | jq -c '.gauges | {binlog_purged, behind_binlogs, behind_bytes} | with_entries(select(.value != null))')"
check "--binlogs without .000265: client 1001 still measured" '{"binlog_purged":0,"behind_binlogs":1,"behind_bytes":309986203}' \
  "$(entity client "$dat" 1001 <<<"$json" | jq -c '.gauges | {binlog_purged, behind_binlogs, behind_bytes}')"
check "--binlogs without .000265: nothing needed nor reclaimable known" 'null null null' \
  "$(entity destination "$dat" <<<"$json" | jq -c '.gauges.reclaimable_bytes, .tables.restart[0].needed_binlogs, .tables.restart[0].needed_bytes' | paste -sd' ')"
check "--binlogs unreadable: exit 3, the figures without it" '3 {"cursor_time_ms":1610750948000,"lag_ms":89249052000}' \
  "$("$qjt" stats --json --binlogs "$work/missing" "$dat" 2>/dev/null >"$work/out"; echo $?) $(entity client "$dat" 1001 <"$work/out" | jq -c .gauges)"

# ---- meta.log -------------------------------------------------------------------
json=$("$qjt" stats --json "$rolled" "$log"); status=$?; json=$(report <<<"$json")
check "meta.log: exit 0, the warnings replay reports" '0 ["warning canal_cursor_backwards 406","warning canal_log_line 544"]' \
  "$status $(jq -c '[.findings[] | "\(.severity) \(.code) \(.offset)"]' <<<"$json")"
check "meta.log: a destination and its clients per file, in the order read" \
  "destination $rolled example|client $rolled 1001|destination $log example|client $log 1001|client $log 1002" \
  "$(jq -r '.entities[] | "\(.kind) \(.labels.path) \(.labels.client // .labels.destination)"' <<<"$json" | paste -sd'|')"
check "meta.log: its lines, size, span and ages" \
  '{"records":5,"journal_bytes":780,"log_span_ms":3003,"oldest_entry_age_ms":89249052899,"newest_entry_age_ms":89249049896}' \
  "$(entity destination "$log" <<<"$json" | jq -c .gauges)"
check "meta.log: client 1001: 3 changes in 3.003 s, the last at 22:49:10.104, its last cursor" \
  '{"cursor_time_ms":1610750950000,"lag_ms":89249050000,"records":4,"position_changes":3,"position_changes_per_second":0.999000999000999,"last_change_time_ms":1610750950104}|{"cursor":[{"journal":"mysql-bin.000267","journal_sequence":267,"position":4}]}' \
  "$(entity client "$log" 1001 <<<"$json" | jq -c '.gauges, .tables' | paste -sd'|')"
check "meta.log: client 1002: one line, no change" \
  '{"cursor_time_ms":1610740000000,"lag_ms":89260000000,"records":1,"position_changes":0,"position_changes_per_second":0}' \
  "$(entity client "$log" 1002 <<<"$json" | jq -c .gauges)"
check "rolled meta.log: 139 bytes, 2 lines a second apart, one change" \
  '{"records":2,"journal_bytes":139,"log_span_ms":1000,"oldest_entry_age_ms":89381600000,"newest_entry_age_ms":89381599000}|{"cursor_time_ms":1610618401000,"lag_ms":89381599000,"records":2,"position_changes":1,"position_changes_per_second":1,"last_change_time_ms":1610618401000}' \
  "$(entity destination "$rolled" <<<"$json" | jq -c .gauges)|$(entity client "$rolled" 1001 <<<"$json" | jq -c .gauges)"
check "--tz +08:00: the lines 8 h earlier, the span the same" "89277852899 3003" \
  "$("$qjt" stats --json --tz +08:00 "$log" 2>/dev/null | entity destination "$log" | jq -r '"\(.gauges.oldest_entry_age_ms) \(.gauges.log_span_ms)"')"
check "--binlogs with a meta.log alone: accepted, not applied" "0 null" \
  "$("$qjt" stats --json --binlogs binlogs.txt "$log" 2>/dev/null >"$work/out"; echo $?) $(entity client "$log" 1002 <"$work/out" | jq -c .gauges.binlog_purged)"

# ---- Prometheus -----------------------------------------------------------------
prom=$("$qjt" stats --prometheus --binlogs "$work/binlogs.tsv" "$dat" "$rolled" "$log" 2>/dev/null)
check "--prometheus: the exposition grammar" 0 "$("$lint" <<<"$prom" >&2; echo $?)"
labels='format="canal",path="conf/example/meta.dat",destination="example"'
check "--prometheus: lag, binlog and position of client 1001, the binlog a figure, not a label" \
  "qjt_client_lag_seconds{$labels,client=\"1001\"} 89249052
qjt_cursor_journal_sequence{$labels,client=\"1001\"} 266
qjt_cursor_position{$labels,client=\"1001\"} 226987109" \
  "$(grep -E '^qjt_(client_lag_seconds|cursor_position|cursor_journal_sequence)\{.*meta.dat.*client="1001"' <<<"$prom")"
check "--prometheus: the restart row names the slowest client" \
  "qjt_restart_journal_sequence{$labels,client=\"1002\"} 265
qjt_restart_needed_bytes{$labels,client=\"1002\"} 536975312" \
  "$(grep -E '^qjt_restart_(needed_bytes|journal_sequence)' <<<"$prom")"
check "--prometheus: no label names a binlog" "" "$(grep 'journal=' <<<"$prom")"
check "--prometheus: position changes per second and last change" \
  'qjt_client_position_changes_per_second{format="canal",path="logs/example/meta.log",destination="example",client="1001"} 0.999000999000999
qjt_client_last_change_timestamp_seconds{format="canal",path="logs/example/meta.log",destination="example",client="1001"} 1610750950.104' \
  "$(grep -E '^qjt_client_(position_changes_per_second|last_change_timestamp_seconds)\{.*meta.log.*"1001"' <<<"$prom")"
check "--prometheus: one HELP per family" "" "$(grep '^# HELP' <<<"$prom" | cut -d' ' -f3 | sort | uniq -d)"

# ---- text -----------------------------------------------------------------------
check "text: client 1002 of the meta.dat" \
  "client format=canal path=conf/example/meta.dat destination=example client=1002
  cursor          2021-01-15T19:46:40.000Z
  lag             1033d02h
  binlog purged   0
  behind binlogs  2
  behind          536975308 bytes (512.1 MiB)
  journal           journal_sequence  position
  mysql-bin.000265               265         4" \
  "$("$qjt" stats --binlogs "$work/binlogs.tsv" "$dat" | sed -n '/client=1002/,$p')"

# ---- damaged input, -j --------------------------------------------------------------
json=$("$qjt" stats --json "$dat" variants/truncated.dat 2>/dev/null); status=$?; json=$(report <<<"$json")
check "a truncated meta.dat beside a sound one: exit 1, its finding, the other's figures" \
  '1 ["error canal_truncated variants/truncated.dat 150"] 89249052000' \
  "$status $(jq -c '[.findings[] | "\(.severity) \(.code) \(.file) \(.offset)"]' <<<"$json") $(entity client "$dat" 1001 <<<"$json" | jq .gauges.lag_ms)"
head -c 60 "$rolled" >"$work/meta-cut.log.gz"
json=$("$qjt" stats --json --format canal-meta-log "$work/meta-cut.log.gz" 2>/dev/null); status=$?; json=$(report <<<"$json")
check "a cut gzip'd meta.log: exit 1, canal_gzip, its size still told" "1 canal_gzip 60" \
  "$status $(jq -r '.findings[0].code, (.entities[0].gauges.journal_bytes)' <<<"$json" | paste -sd' ')"
check "an empty meta.dat: exit 1" 1 "$("$qjt" stats --format canal-meta-dat /dev/null >/dev/null 2>&1; echo $?)"
for out in "" --json --prometheus; do
  inputs=("$dat" conf/moved/meta.dat variants/bad-values.dat "$rolled" "$log")
  check "-j 2 gives what -j 1 gives ${out:-(text)}" \
    "$("$qjt" stats $out -j 1 --binlogs binlogs.txt "${inputs[@]}" 2>&1)" \
    "$("$qjt" stats $out -j 2 --binlogs binlogs.txt "${inputs[@]}" 2>&1)"
done
check "qjt help formats: canal provides stats" 1 "$("$qjt" help formats | grep -c 'per destination and client')"

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
